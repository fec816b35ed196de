"""Reading a match's seats, shared by the selectors and the permissions (games/selectors.py
asks games/permissions.py who may act, and permissions asks for the seats: both import this
module rather than each other), and by every wing that reads a match to ask who may see it
(`match_with_seats`: the table's connection and page, the chat, the replay, the match page)."""

from __future__ import annotations

from django.db.models import Prefetch

from .models import Match, Seat


def match_with_seats(match_id: int) -> Match | None:
    """The match with its creator, its seats in order and their users (None: there is no
    such match): what the permissions and the seat names read, in three queries."""
    return (
        Match.objects.select_related("created_by")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .filter(pk=match_id)
        .first()
    )


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
