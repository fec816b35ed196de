"""manage.py remove_guests: remove the guest accounts nobody used for 30 days."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from accounts import guests


class Command(BaseCommand):
    help = "Remove guest accounts unused for 30 days; their seats keep the name as a former guest."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--dry-run", action="store_true", help="only count them")

    def handle(self, *args: Any, dry_run: bool = False, **options: Any) -> None:
        if dry_run:
            self.stdout.write(f"{guests.unused().count()} unused guest(s)")
            return
        self.stdout.write(f"removed {guests.remove_unused()} unused guest(s)")
