"""`manage.py protocol_table`: write the table of the client's commands in docs/protocol.md
from the registry (games.commands `protocol_table`: every wing's commands, each with its
typed fields and what it asks). The table lies between two marker lines; the rest of the
document stays as it is. ``--check`` changes nothing and fails when the document differs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.commands import protocol_table

#: the lines the table lies between
BEGIN = "<!-- the commands: made by `manage.py protocol_table` from the registry -->"
END = "<!-- end of the commands -->"
DOCUMENT = Path(__file__).resolve().parents[3] / "docs" / "protocol.md"


def rewrite(text: str, table: str) -> str:
    """`text` with what lies between the markers replaced by `table`."""
    head, rest = text.split(BEGIN + "\n", 1)
    _old, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{table}{END}{tail}"


class Command(BaseCommand):
    help = "Write the client's commands in docs/protocol.md from the command registry."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="only say whether it differs")

    def handle(self, *args: Any, check: bool = False, **options: Any) -> None:
        before = DOCUMENT.read_text()
        after = rewrite(before, protocol_table())
        if after == before:
            self.stdout.write(f"{DOCUMENT}: up to date")
        elif check:
            raise CommandError(f"{DOCUMENT} differs from the registry: manage.py protocol_table")
        else:
            DOCUMENT.write_text(after)
            self.stdout.write(f"{DOCUMENT}: rewritten")
