"""Matches dealt from a fixed seed whatever their seats, for tests that need known deals.

The site takes a chosen seed only for a table without other people, not listed in the
lobby (`games.services.matches`: whoever chooses it knows every hand). Tests that play
known deals with invited people, or list such a table, make the match as the site
would with a random seed and then set the seed before round 1 is dealt (a match with a
free seat is dealt when its last seat is taken), or list it afterwards. The match is
then one whose seed nobody chose (`Match.seed_chosen` is false): people may join it
and it is rated, as a match with a random seed is.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games import services
from games.models import Match
from games.services import SeatSpec


def match_create(
    *,
    creator: Any,
    seats: Iterable[SeatSpec],
    seed: int | None = None,
    listed: bool = True,
    **kwargs: Any,
) -> Match:
    """`services.match_create` with the same arguments and defaults, dealt from `seed`
    even where the site refuses a chosen seed (a free seat, or listed in the lobby)."""
    seats = list(seats)
    free = any(s.kind == "human" for s in seats)
    if seed is None or (not free and not listed):
        return services.match_create(
            creator=creator, seats=seats, seed=seed, listed=listed, **kwargs
        )
    match = services.match_create(
        creator=creator, seats=seats, seed=None if free else seed, listed=False, **kwargs
    )
    changes: dict[str, Any] = {"listed": listed, "seed_chosen": False}
    if free:
        assert match.status == Match.Status.WAITING  # round 1 is dealt at the last join
        changes["seed"] = seed
    Match.objects.filter(pk=match.pk).update(**changes)
    match.refresh_from_db()
    return match
