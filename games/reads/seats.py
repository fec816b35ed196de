"""Reading a match's seats, shared by the selectors and the permissions (games/reads/selectors.py
asks games/permissions.py who may act, and permissions asks for the seats: both import this
module rather than each other), and by every wing that reads a match to ask who may see it
(`match_with_seats`: the table's connection and page, the chat, the replay, the match page)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from games.models import Match, Seat


def match_with_seats(match_id: int) -> Match | None:
    """The match with its seats in order, their users and its creator (None: there is no such
    match): what the permissions and the seat names read, in three queries.

    Nothing read here refers back to what refers to it, so all of it is freed by reference
    counting: the seats are kept as ``match.seat_list`` (`match_seats` reads it), not as
    Django's prefetch, whose seats refer back to their match (a cycle carrying the match's
    whole snapshot, left to the cycle collector); and the users are read by their ids rather
    than with ``select_related``, whose compiler leaves a small cycle of its own."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return None
    seats = list(Seat.objects.filter(match_id=match.pk).order_by("index"))
    wanted = {s.user_id for s in seats} | {match.created_by_id}
    users = get_user_model().objects.in_bulk([pk for pk in wanted if pk is not None])
    for seat in seats:  # a user removed meanwhile is left to be read (and missed) lazily
        if seat.user_id in users:
            seat.user = users[seat.user_id]
    if match.created_by_id in users:
        match.created_by = users[match.created_by_id]
    match.seat_list = seats  # type: ignore[attr-defined]  # as match_seats reads them
    return match


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
