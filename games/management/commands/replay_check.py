"""`manage.py replay_check <match_id> [...]`: does the match's replay reproduce its stored state?

Builds each match's replay file (`selectors.match_replay_doc`: the seed and every
effective action, `next_round` between rounds), runs it through the engine
(`engine.replay.run_replay`) and compares the result with the snapshot stored on the
match (`Match.state`): hands, trains and markers, boneyard, turn, phase, open doubles,
round points and totals. Prints OK or the differences; exits 1 when any match
differs or does not exist (R4: the deal follows from the seed; the log holds every
decision).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Match
from games.reads.queries import replay_differences


class Command(BaseCommand):
    help = "Replay matches from their exported replay and check they reproduce the stored state."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_ids", nargs="+", type=int, metavar="match_id")

    def handle(self, *args: Any, match_ids: list[int], **options: Any) -> None:
        failed = 0
        for match_id in match_ids:
            match = Match.objects.filter(pk=match_id).first()
            if match is None:
                self.stderr.write(f"match {match_id}: no such match")
                failed += 1
                continue
            differences = replay_differences(match)
            if differences is None:
                self.stdout.write(f"match {match_id}: not started, nothing stored to check")
            elif differences:
                failed += 1
                self.stdout.write(
                    self.style.ERROR(
                        f"match {match_id}: MISMATCH ({len(differences)} difference(s))"
                    )
                )
                for line in differences:
                    self.stdout.write(f"  {line}")
            else:
                self.stdout.write(
                    self.style.SUCCESS(
                        f"match {match_id}: OK (round {match.round_number}, version {match.version})"
                    )
                )
        if failed:
            raise CommandError(
                f"{failed} of {len(match_ids)} match(es) failed the check", returncode=1
            )
