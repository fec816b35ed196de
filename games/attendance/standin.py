"""A computer plays for a person who is away, until they take their seat back.

The rules:

- Each match has a limit (`Match.away_limit`: never, 10 minutes, 1 hour — the default —
  or 1 day), chosen when it is created and changed at the table by its seated people
  (`away_limit_set`, games/table/commands/away_limit.py), as the computers' pace is.
- A person's seat (a player's, or a pass-and-play one: its holder's) is *away* while
  its owner has no live connection to the table (games.attendance.presence); it has been away
  since they were last seen there (never seen: since the match was created).
- Once a seat has been away longer than the limit, any other person who plays a seat
  at the table may let a computer play it (`standin_start`, games/table/commands/stand_in.py;
  games.permissions
  ``stand_in``). The computer is `LEVEL`, the level the site's quick table gives its
  computers (games.lobby.quick.COMPUTER_LEVEL: casual), so a stand-in neither throws the
  owner's game away nor outplays the table.
- The computer worker then plays the seat like any computer's (services.computer_step),
  from the seat's view only (R25): the hand stays with the seat; no page but its
  owner's shows it, and its owner's shows the table as to a watcher (no hand, no
  moves) until they take the seat back. Undo and restart still ask that owner (a
  stand-in never carries consent for the seat it plays: games.permissions.people), no
  turn e-mail goes for the seat, and
  between rounds the table still waits for a person to start the next one.
- Its owner takes it back with one click, whenever they like (`standin_end`). Not on
  opening the page: a glance at the table from a phone or from a turn e-mail is not a
  promise to play on, and handing the seat back at once would stall the others again
  the moment the owner looks away (lichess likewise never resumes for an absent player
  by itself; Board Game Arena's replaced players come back by an explicit choice).
- Every hand-over and return is a `StandIn` row (who, when, at which round and
  version), visible at the table (the seat's name says a computer plays it) and in
  the admin. The stand-in's moves are the seat's actions in the round's log
  (``by_computer``), so the replay format is unchanged.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Count, Q

from games import notify
from games.attendance import presence
from games.models import AWAY_SECONDS, Match, Seat

#: the level of a computer standing in for a person (the quick table's computers)
LEVEL = "casual"


# ---------------------------------------------------------------- the rules


def away_since(match: Match, seat: Seat, seen: dict[int, tuple[bool, datetime]]) -> datetime | None:
    """Since when `seat`'s owner has been away from the table (None: they are there, or the
    seat is a computer's); `seen`: `presence.at_table` of the match."""
    if seat.kind == Seat.Kind.COMPUTER:
        return None
    if seat.user_id is None:
        return match.created_at  # a removed guest's seat: nobody will come back to it
    there, last = seen.get(seat.user_id, (False, match.created_at))
    return None if there else last


def hand_over_from(
    match: Match, seat: Seat, seen: dict[int, tuple[bool, datetime]]
) -> datetime | None:
    """From when the others may let a computer play `seat` (None: not while things stay as
    they are — the table allows none, its owner is there, a computer plays it already)."""
    limit = AWAY_SECONDS.get(match.away_limit)
    if limit is None or seat.standin or match.status != Match.Status.PLAYING:
        return None
    since = away_since(match, seat, seen)
    return None if since is None else since + timedelta(seconds=limit)


def may_hand_over(
    match: Match, seat: Seat, seen: dict[int, tuple[bool, datetime]], now: datetime
) -> bool:
    """Whether `seat` has been away longer than the table's limit now."""
    when = hand_over_from(match, seat, seen)
    return when is not None and when <= now


# ---------------------------------------------------------------- telling the tables


def announce_due(*, since: datetime, now: datetime) -> list[int]:
    """Tell each table where a seat's away limit passed in (`since`, `now`] (nothing else
    changes its version then): its pages read their boards again and offer the hand-over.
    The computer worker calls this now and then. The ids of the matches told."""
    # Only tables with two people or more: alone with computers, nobody could hand a seat over.
    # The scan reads the columns the hand-over needs, never the snapshot, and the seats apart
    # from their matches: a prefetched seat refers back to its match, and a match holding its
    # seats makes a reference cycle, which only the cycle collector frees (every table, every
    # few seconds, in every process running the computers: long collection pauses).
    matches = list(
        Match.objects.filter(status=Match.Status.PLAYING)
        .exclude(away_limit=Match.AwayLimit.NEVER)
        .annotate(
            people=Count("seats__user", filter=~Q(seats__kind=Seat.Kind.COMPUTER), distinct=True)
        )
        .filter(people__gte=2)
        .only("pk", "status", "away_limit", "created_at")
        .order_by("pk")
    )
    if not matches:
        return []
    seated: dict[int, list[Seat]] = {m.pk: [] for m in matches}
    for seat in (
        Seat.objects.filter(match_id__in=list(seated))
        .exclude(kind=Seat.Kind.COMPUTER)
        .only("match_id", "index", "kind", "user_id", "standin")
        .order_by("match_id", "index")
    ):
        seated[seat.match_id].append(seat)
    seen = presence.at_tables(list(seated), now)
    told = []
    for match in matches:
        people = seated[match.pk]
        if len({s.user_id for s in people}) < 2:
            continue  # nobody else could hand a seat over
        for seat in people:
            when = hand_over_from(match, seat, seen.get(match.pk, {}))
            if when is not None and since < when <= now:
                notify.match_seats(match.pk)
                told.append(match.pk)
                break
    return told
