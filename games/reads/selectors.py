"""Reading matches: states, seat views, what a user may do, lists, logs and replays.

Nothing here writes. A seat's view comes only through `engine.views.view`, so a
hand reaches nobody but its owner before the round ends (R24). The snapshot on the
match is a cache the round's deal and its effective log (`games.log`) rebuild
(tests/reads.py `rebuild_state` proves it).
"""

from __future__ import annotations

from datetime import timedelta
from functools import cache
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Exists, IntegerField, OuterRef, Q, QuerySet
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast
from django.utils import timezone

from engine.deal import ROUNDS
from engine.replay import parse_action
from engine.serialize import state_from_json
from engine.state import Action, RoundState
from engine.views import SeatView, view
from games import log, permissions
from games.errors import NOT_STARTED, GameError
from games.models import ChangeRequest, LogEntry, Match, Pause, Round, Seat, from_row
from games.words import sentence

from .seats import match_seats as match_seats  # the seats in order (one home: games/reads/seats.py)

#: a pause its connection has not renewed for this long no longer counts (R26): that
#: connection, or its server process, is gone (the page renews every PAUSE_RENEW).
#: settings.PAUSE_TIMEOUT (30 s; the fault tests' servers wait out a few seconds)
PAUSE_TIMEOUT = timedelta(seconds=settings.PAUSE_TIMEOUT)
#: how often an open page renews its pause (static/js/panels.js renews at this pace)
PAUSE_RENEW = timedelta(seconds=10)


# ---------------------------------------------------------------- states and views


def match_state(match: Match) -> RoundState:
    """The current round's state (from the snapshot on the match)."""
    if match.state is None:
        raise GameError(NOT_STARTED, sentence("not_started"))
    return state_from_json(match.state)


def seats_controlled(match: Match, user: object) -> list[int]:
    """The seat indexes `user` may act for: their own seat and their pass-and-play seats
    (`games.permissions.seats_controlled`)."""
    return permissions.seats_controlled(match, user)


def match_version(match_id: int) -> int | None:
    """The match's version now (None: no such match): one indexed read, no snapshot."""
    return Match.objects.filter(pk=match_id).values_list("version", flat=True).first()


def seat_view(match: Match, seat_index: int | None) -> SeatView:
    """What one seat (None: a spectator) may see now (R24)."""
    return view(match_state(match), seat_index)


def round_log(rnd: Round) -> list[LogEntry]:
    """A round's whole log in order (undo, redo and restart entries included)."""
    return list(LogEntry.objects.filter(round=rnd).order_by("seq"))


def effective_actions(rnd: Round) -> list[LogEntry]:
    """The log entries whose actions made the round's current state, in order."""
    return list(log.fold(round_log(rnd)).effective)


def paused(match: Match) -> bool:
    """R26: someone at the table has the rules or the log open (a pause not renewed within
    `PAUSE_TIMEOUT` has expired)."""
    return Pause.objects.filter(match=match, alive_at__gte=timezone.now() - PAUSE_TIMEOUT).exists()


def matches_awaiting_computer() -> list[int]:
    """Ids of matches where a computer player is to act (what a worker picks up after a restart).

    One query, whatever the number of matches: every server process's worker asks it
    four times a second, so the seat on turn (the snapshot's ``turn``) is matched
    with the computer seats in the database, not match by match in Python."""
    sql, params = _awaiting_computer_sql()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [pk for (pk,) in cursor.fetchall()]


@cache
def _awaiting_computer_sql() -> tuple[str, tuple[Any, ...]]:
    """The statement of `matches_awaiting_computer`, built by the ORM once: building it
    cost more CPU than running it, four times a second in every server process."""
    # A computer's seat, or a person's seat a computer stands in for (games.attendance.standin).
    on_turn = Seat.objects.filter(match=OuterRef("pk"), index=OuterRef("turn")).filter(
        Q(kind=Seat.Kind.COMPUTER) | ~Q(standin="")
    )
    query = (
        Match.objects.filter(status=Match.Status.PLAYING, state__isnull=False)
        .annotate(turn=Cast(KeyTextTransform("turn", "state"), IntegerField()))
        .filter(Exists(on_turn))
        .order_by("pk")
        .values_list("pk", flat=True)
    ).query
    return query.sql_with_params()


# ---------------------------------------------------------------- what a user may do


def round_over(match: Match) -> bool:
    """Whether the current round has ended (its hands revealed, R21, R24): no Undo or Redo then."""
    return (match.state or {}).get("phase") in ("round_over", "match_over")


def undo_redo_in(folded: log.Folded[Any] | None, mine: list[int]) -> tuple[bool, bool]:
    """R27: Undo and Redo for the seats `mine` from the current round's folded log
    (None: the match is not being played); its entries are LogEntry rows or anything with
    their ``seat`` and ``by_computer`` (`games.table.board_reads.Line`)."""
    if folded is None or not mine:
        return False, False
    return (
        log.undo_group(folded.effective, mine) is not None,
        bool(folded.redo) and folded.redo[-1][0].seat in mine,
    )


def undo_takes_back(folded: log.Folded[Any] | None, mine: list[int]) -> tuple[Any, ...]:
    """R27: the effective log entries one Undo by the controller of `mine` would take back
    (their last action and the computers' after it), oldest first; () when there is no Undo.
    games.table.commands.undo.undo_words says them in words for the Undo button."""
    if folded is None or not mine:
        return ()
    count = log.undo_group(folded.effective, mine)
    return tuple(folded.effective[-count:]) if count else ()


def restart_open(match: Match) -> bool:
    """R28: whether the match is where a round may be restarted (being played, the round not
    over), whoever asks."""
    return (
        match.status == Match.Status.PLAYING
        and match.state is not None
        and match.state.get("phase") not in ("round_over", "match_over")
    )


def next_round_open(match: Match) -> bool:
    """Whether the match waits for its next round (the round is over, not the match)."""
    return (
        match.status == Match.Status.PLAYING
        and match.state is not None
        and match.state.get("phase") == "round_over"
    )


def open_request(match_id: int) -> ChangeRequest | None:
    """The undo or restart request waiting for answers at the match (one past its minute is
    not open any more, whether or not it has been closed in the database yet)."""
    # No select_related: Django compiles it with a recursive local function, a reference
    # cycle on every board read (tests/tablesite/test_gc.py); the asker is read when there is one.
    return ChangeRequest.objects.filter(
        match_id=match_id, status=ChangeRequest.Status.OPEN, expires_at__gt=timezone.now()
    ).first()


#: how long the asker of a declined or expired request is told so on their board
ANSWER_SHOWN = timedelta(minutes=1)


@cache
def _latest_request_sql() -> str:
    """The statement of `last_closed_request`: the match's latest request, all its columns."""
    columns = ", ".join(f'"{f.column}"' for f in ChangeRequest._meta.concrete_fields)
    return (
        f'SELECT {columns} FROM "{ChangeRequest._meta.db_table}"'
        f' WHERE "match_id" = %s ORDER BY "{ChangeRequest._meta.pk.column}" DESC LIMIT 1'
    )


def last_closed_request(match_id: int) -> ChangeRequest | None:
    """The match's latest request when it was declined or expired within `ANSWER_SHOWN`
    (what its asker is told on the board: games.table.board.told), else None."""
    # Asked once per version of every match being played, so written out in SQL (the ORM
    # spent twice as long building the statement as the database took to answer it). No
    # join (a reference cycle per board read, as `open_request` says): who declined is read
    # when it is shown.
    with connection.cursor() as cursor:
        cursor.execute(_latest_request_sql(), [match_id])
        row = cursor.fetchone()
    latest = from_row(ChangeRequest, ChangeRequest._meta.concrete_fields, row) if row else None
    if latest is None or latest.status not in (
        ChangeRequest.Status.DECLINED,
        ChangeRequest.Status.EXPIRED,
    ):
        return None
    if latest.closed_at is None or latest.closed_at < timezone.now() - ANSWER_SHOWN:
        return None
    return latest


def next_match(match: Match) -> Match | None:
    """The match that followed this one at its table (R29), if any."""
    return Match.objects.filter(table_id=match.table_id, number=match.number + 1).first()


# ---------------------------------------------------------------- lists


def my_matches(user: object) -> QuerySet[Match]:
    """Matches the user created or has a seat at, most recently changed first."""
    if not getattr(user, "is_authenticated", False):
        return Match.objects.none()
    return (
        Match.objects.filter(Q(seats__user=user) | Q(created_by=user))
        .distinct()
        .select_related("table")
        .order_by("-updated_at")
    )


def open_matches() -> QuerySet[Match]:
    """Matches listed in the lobby that wait for players and have a free seat (never one
    whose creator chose the seed: nobody else may sit there)."""
    return (
        Match.objects.filter(
            status=Match.Status.WAITING,
            listed=True,
            seed_chosen=False,
            seats__kind=Seat.Kind.HUMAN,
            seats__user__isnull=True,
        )
        .distinct()
        .order_by("-created_at")
    )


# ---------------------------------------------------------------- logs and replays


def match_actions(match: Match) -> list[Action]:
    """The effective actions of the whole match in replay order, `next_round` between rounds,
    and `last_round` (R32) at the start of a round the players made the match's last."""
    out: list[Action] = []
    for rnd in Round.objects.filter(match=match).order_by("number"):
        if rnd.number > 1:
            out.append(Action("next_round"))
        if (rnd.start or {}).get("final"):
            out.append(Action("last_round"))
        out.extend(parse_action(e.action) for e in effective_actions(rnd))
    return out


def match_replay_doc(match: Match) -> dict[str, Any]:
    """The match as a replay file (shared/spec/replay-format.md): seed, players and every
    effective action from round 1, with `next_round` between rounds. `engine.replay.run_replay`
    on it reaches the match's current state. A shorter match (R31) gives its length as
    ``"rounds"``; a standard match's file is as it always was (it reads as 13 rounds)."""
    doc: dict[str, Any] = {
        "players": match.players,
        "seed": match.seed,
        "round": 1,
    }
    if match.length != ROUNDS:
        doc["rounds"] = match.length
    doc["totals"] = [0] * match.players
    doc["actions"] = [a.to_json() for a in match_actions(match)]
    return doc
