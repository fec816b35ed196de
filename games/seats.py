"""Reading a match's seats, shared by the selectors and the permissions (games/selectors.py
asks games/permissions.py who may act, and permissions asks for the seats: both import this
module rather than each other)."""

from __future__ import annotations

from .models import Match, Seat


def match_seats(match: Match) -> list[Seat]:
    """The match's seats in order: the list the caller read with the match and set as
    ``match.seat_list`` (games.table.board_reads reads seats and users in one statement),
    else ``match.seats.all()`` — prefetched when the caller loaded them with
    ``prefetch_related("seats")``, as the table's websocket does, else read now. A board
    asks several questions of the seats; they cost at most one query."""
    listed = getattr(match, "seat_list", None)
    if listed is not None:
        return list(listed)
    return sorted(match.seats.all(), key=lambda s: s.index)
