"""A computer plays for a person who is away, until they take their seat back.

The rules:

- Each match has a limit (`Match.away_limit`: never, 10 minutes, 1 hour — the default —
  or 1 day), chosen when it is created and changed at the table by its seated people
  (`away_limit_set`), as the computers' pace is.
- A person's seat (a player's, or a pass-and-play one: its holder's) is *away* while
  its owner has no live connection to the table (games.presence); it has been away
  since they were last seen there (never seen: since the match was created).
- Once a seat has been away longer than the limit, any other person who plays a seat
  at the table may let a computer play it (`standin_start`; games.permissions
  ``stand_in``). The computer is `LEVEL`, the level the site's quick table gives its
  computers (games.quick.COMPUTER_LEVEL: casual), so a stand-in neither throws the
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
from typing import Any

from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from . import consent, notify, presence, services
from .errors import BAD_REQUEST, ILLEGAL, GameError
from .models import AWAY_SECONDS, Match, Presence, Seat, StandIn
from .permissions import Action as Can
from .services import Result
from .words import refusal, sentence

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


def _limit_words(limit: str) -> str:
    return {"10m": _("10 minutes"), "1h": _("an hour"), "1d": _("a day")}.get(limit, "")


# ---------------------------------------------------------------- changes


def standin_start(*, match_id: int, user: Any, seat: object, request_id: str) -> Result:
    """Let a computer (`LEVEL`) play `seat` until its owner takes it back: asked by another
    person seated at the match, once the seat has been away longer than the table's limit."""
    index = _index(seat)

    def hand_over(match: Match, seats: list[Seat]) -> None:
        target = seats[index]  # type: ignore[index]  # the permission found the seat
        if match.status != Match.Status.PLAYING:
            raise GameError(ILLEGAL, sentence("not_being_played"))
        if target.standin:
            raise GameError(BAD_REQUEST, sentence("standin_already"))
        if AWAY_SECONDS.get(match.away_limit) is None:
            raise GameError(ILLEGAL, sentence("no_standins_here"))
        now = timezone.now()
        at = presence.at_table(match.pk, now)
        if away_since(match, target, at) is None:
            raise GameError(ILLEGAL, sentence("at_the_table", name=target.display_name))
        if not may_hand_over(match, target, at, now):
            raise GameError(
                ILLEGAL,
                sentence(
                    "away_less_than", name=target.display_name, limit=_limit_words(match.away_limit)
                ),
            )
        target.standin = LEVEL
        target.save(update_fields=["standin"])
        StandIn.objects.create(
            match=match,
            seat=target.index,
            level=LEVEL,
            handed_by=user,
            round_number=match.round_number,
            version=match.version + 1,
            started_at=now,
        )

    return services.seated_change(
        match_id=match_id,
        user=user,
        request_id=request_id,
        action=Can.STAND_IN,
        seat=index,
        change=hand_over,
    )


def standin_end(*, match_id: int, user: object, seat: object, request_id: str) -> Result:
    """Its owner takes `seat` back from the computer standing in for them (any time)."""
    index = _index(seat)

    def take_back(match: Match, seats: list[Seat]) -> None:
        target = seats[index]  # type: ignore[index]  # the permission found the seat
        if not target.standin:
            raise GameError(BAD_REQUEST, sentence("seat_is_yours"))
        target.standin = ""
        target.save(update_fields=["standin"])
        StandIn.objects.filter(match=match, seat=target.index, ended_at__isnull=True).update(
            ended_at=timezone.now(), ended_by=user
        )

    return services.seated_change(
        match_id=match_id,
        user=user,
        request_id=request_id,
        action=Can.TAKE_BACK,
        seat=index,
        change=take_back,
    )


def away_limit_set(*, match_id: int, user: object, limit: object, request_id: str) -> Result:
    """A seated person sets how long a seat may stay away before the others may let a
    computer play it (Match.AwayLimit). Alone with computers it is set at once; at a table
    shared with other people it is asked of them (games.consent ``away_limit``:
    one person could otherwise shorten it, wait, hand the other's seat to a computer and
    then change the round without anyone's consent)."""

    def check(match: Match, state: object) -> None:
        if not isinstance(limit, str) or limit not in Match.AwayLimit.values:
            raise GameError(BAD_REQUEST, sentence("away_limits"))
        if match.status == Match.Status.FINISHED:
            raise GameError(ILLEGAL, refusal("match_over"))
        if limit == match.away_limit:
            raise GameError(BAD_REQUEST, sentence("same_setting"))

    def make(p: consent.Pending) -> None:
        check(p.match, p.state)
        p.match.away_limit = str(limit)
        Match.objects.filter(pk=p.match.pk).update(away_limit=str(limit))

    return services.asked_or_done(
        match_id=match_id,
        user=user,
        request_id=request_id,
        action=Can.PACE,
        change="away_limit",
        check=check,
        make=make,
        value=limit if isinstance(limit, str) else "",
    )


def consent_away_limit(p: consent.Pending) -> None:
    """What an accepted away-limit request does (the consent kind "away_limit"): the table's limit
    becomes the one asked for (``ChangeRequest.value``), if it still differs."""
    assert p.request is not None
    limit = p.request.value
    if limit not in Match.AwayLimit.values or p.match.status == Match.Status.FINISHED:
        raise GameError(ILLEGAL, refusal("match_over"))
    if limit == p.match.away_limit:
        raise GameError(BAD_REQUEST, sentence("same_setting"))
    p.match.away_limit = limit
    Match.objects.filter(pk=p.match.pk).update(away_limit=limit)


def _index(seat: object) -> int | None:
    """A seat's number as the client sent it (None: not a number; the permission refuses it)."""
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else None


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
    seen: dict[int, dict[int, tuple[bool, datetime]]] = {m.pk: {} for m in matches}
    for match_id, uid, was_closed, alive in Presence.objects.filter(
        match_id__in=list(seen)
    ).values_list("match_id", "user_id", "closed", "alive_at"):
        live = not was_closed and alive >= now - presence.TIMEOUT
        there, last = seen[match_id].get(uid, (False, alive))
        seen[match_id][uid] = (there or live, max(last, alive))
    told = []
    for match in matches:
        people = seated[match.pk]
        if len({s.user_id for s in people}) < 2:
            continue  # nobody else could hand a seat over
        for seat in people:
            when = hand_over_from(match, seat, seen[match.pk])
            if when is not None and since < when <= now:
                notify.match_seats(match.pk)
                told.append(match.pk)
                break
    return told
