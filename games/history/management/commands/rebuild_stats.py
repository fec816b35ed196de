"""`manage.py rebuild_stats`: recount every player's stats and rating from the action log.

Empties the stats and counts every finished match again, in the order they
finished (`games.history.stats.rebuild`): the numbers equal those counted when
each match ended."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.history.stats import rebuild


class Command(BaseCommand):
    help = "Rebuild players' stats and ratings from the finished matches' action logs."

    def handle(self, *args: Any, **options: Any) -> None:
        n = rebuild()
        self.stdout.write(self.style.SUCCESS(f"counted {n} finished match(es)"))
