"""`manage.py export_replay <match_id> [-o FILE]`: write a match as a replay file.

The same file the admin's "Export replay" downloads (`selectors.match_replay_doc`,
`../shared/spec/replay-format.md`): `python -m engine replay FILE` replays it.
Without `-o` (or with `-o -`) the file goes to standard output.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Match
from games.reads import selectors
from games.reads.queries import replay_json


class Command(BaseCommand):
    help = "Write a match as a replay file (the replay format of shared/spec/replay-format.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_id", type=int)
        parser.add_argument(
            "-o", "--output", default="-", help="file to write (default: standard output)"
        )

    def handle(self, *args: Any, match_id: int, output: str, **options: Any) -> None:
        match = Match.objects.filter(pk=match_id).first()
        if match is None:
            raise CommandError(f"match {match_id}: no such match")
        text = replay_json(selectors.match_replay_doc(match))
        if output == "-":
            self.stdout.write(text, ending="")
        else:
            Path(output).write_text(text, encoding="utf-8")
            self.stderr.write(f"match {match_id}: replay written to {output}")
