"""Playing: a person's action (`action_submit`: the checks 2 and 6–8 of games.services on
top of the kernel's), a computer player's (`computer_step`, driven by games.worker) and the
next round (`round_next`; a table of computers only goes on by itself).

The engine applies an action to the stored snapshot (`_apply`: no replay); it is logged,
with an undo point before a person's action, stored and committed; while the round goes on,
in one statement (`_PLAY_COMMIT`). Rules served: R7 (whose turn it is), R5, R21 and R31
(the next round, totals carried), R25 (a computer sees only its own seat's view, and its
luck is fixed by the seed), R26 (computers wait while a pause is on), R27 (undo points).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.sessions import SessionCheck
from engine import bots, rules
from engine.replay import BadReplay, parse_action
from engine.serialize import start_to_json, state_from_json, state_to_json
from engine.state import Action, IllegalAction, RoundState
from engine.views import view
from games import log, permissions
from games.errors import BAD_REQUEST, FORBIDDEN, NOT_YOUR_TURN, GameError
from games.log.words import action_line
from games.models import Match, Round, Seat, from_row
from games.permissions import Action as Can
from games.reads.selectors import PAUSE_TIMEOUT
from games.services.store import (
    _MATCH_COLUMNS,
    _MATCH_FIELDS,
    Result,
    _announce,
    _append,
    _commit,
    _current_round,
    _fresh,
    _jsonb,
    _lock,
    _lock_for_action,
    _logged,
    _refused,
    _row,
    _seats,
    _seen,
    _started,
    _store,
    _user_id,
)
from games.words import refusal, sentence

#: a move's line in the round's log (the fold plays it: games.log)
LOG = log.register(log.Kind(log.ACTION, _("Action"), action_line))

#: who may start the next round once this one is over (the ``next_round`` command): the
#: match's creator or a player
MAY_NEXT_ROUND = permissions.rule(
    "next_round",
    lambda can, seat, request: can.owner or bool(can.mine),
    lambda: sentence("players_next_round"),
)

# The statements only moves run, written out in SQL as the kernel's are (why:
# games.services.store).

#: `computer_step` skips a match another process holds, and reads whether a pause is on (R26)
_LOCK_FOR_COMPUTER = (
    f"SELECT {_MATCH_COLUMNS}, EXISTS (SELECT 1 FROM games_pause p WHERE p.match_id = m.id"
    " AND p.alive_at >= %s) FROM games_match m WHERE m.id = %s FOR UPDATE SKIP LOCKED"
)


#: `action_submit`'s writes while the round goes on, one statement: the log entry, the undo
#: point before it (the match row's snapshot as it was: every part of a statement sees the
#: rows as they were when it began), the match, the request id
_PLAY_COMMIT = (
    "WITH e AS (INSERT INTO games_logentry (round_id, seq, kind, seat, action, user_id, by_computer,"
    " version, created_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING id),"
    " u AS (INSERT INTO games_undopoint (round_id, entry_id, state)"
    " SELECT %s, e.id, m.state FROM e, games_match m WHERE m.id = %s),"
    " w AS (UPDATE games_match SET version = %s, state = %s, round_number = %s, status = %s,"
    " finished_at = %s, updated_at = %s, hurry = %s WHERE id = %s)"
    " INSERT INTO games_clientrequest (match_id, request_id, user_id, version, created_at)"
    " VALUES (%s, %s, %s, %s, %s) RETURNING (SELECT id FROM e)"
)


def _seat_for(match: Match, user: object, seat: object, seats: list[Seat] | None = None) -> None:
    """2. The user may act for `seat`: their own seat or their pass-and-play seat
    (games.permissions); `seats`: the match's, when read already."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise GameError(BAD_REQUEST, sentence("seat_not_number"))
    permissions.require(
        user, Can.ACT, match, seat=seat, seats=seats if seats is not None else _seats(match)
    )


def _parse(raw: object, seat: int) -> Action:
    """6. A well-formed action of the replay format, by the seat it is sent for."""
    if isinstance(raw, dict) and "seat" not in raw and raw.get("act") != "next_round":
        raw = {**raw, "seat": seat}  # the seat the request is for
    try:
        action = parse_action(raw)
    except BadReplay as e:
        raise GameError(BAD_REQUEST, sentence("not_an_action_because", why=e)) from None
    if action.act == "next_round":
        raise GameError(BAD_REQUEST, sentence("next_round_by_button"))
    if action.seat != seat:
        raise GameError(FORBIDDEN, sentence("not_your_seat"))
    return action


def _apply(state: RoundState, action: Action) -> RoundState:
    """8. The engine applies the action or raises `IllegalAction`, with its reason (`_play` says it)."""
    return rules.apply(state, action)


def action_submit(
    *,
    match_id: int,
    user: object,
    seat: int,
    action: dict[str, Any],
    expected_version: int,
    request_id: str,
    session: SessionCheck | None = None,
) -> Result:
    """Play one action (engine, play, draw, pass, end) for a seat the user controls
    (`session`: the acting connection's, checked first, with the lock: raises
    accounts.sessions.SessionEnded, nothing changed, when it no longer signs `user` in)."""
    with transaction.atomic():
        match, seen_read, rnd, seats = _lock_for_action(match_id, request_id, session, user)
        _seat_for(match, user, seat, seats)
        seen = _seen(match, user, request_id, seen_read)
        if seen is not None:
            return seen
        _fresh(match, expected_version)
        state = _started(match)
        parsed = _parse(action, seat)
        if state.turn is not None and state.turn != seat:
            raise GameError(
                NOT_YOUR_TURN,
                refusal(
                    "not_your_turn",
                    {"seat": state.turn},
                    names=[s.display_name for s in seats],
                ),
                rule="R7",
                reason="not_your_turn",
            )
        if rnd is None:
            raise Round.DoesNotExist(f"match {match.pk} has no round {match.round_number}")
        return _play_commit(
            match,
            rnd,
            state,
            parsed,
            match.version + 1,
            user=user,
            request_id=request_id,
            seats=seats,
        )


def _play(
    match: Match,
    rnd: Round,
    state: RoundState,
    action: Action,
    version: int,
    *,
    user: object = None,
    by_computer: bool = False,
) -> RoundState:
    """Apply one action: log it, keep an undo point before a human's action (R27), store the snapshot."""
    new = _applied(match, state, action)
    _record(match, rnd, new, action, version, user=user, by_computer=by_computer)
    return new


def _applied(match: Match, state: RoundState, action: Action) -> RoundState:
    try:
        return _apply(state, action)
    except IllegalAction as e:
        raise _refused(match, e, action.seat) from None


def _play_commit(
    match: Match,
    rnd: Round,
    state: RoundState,
    action: Action,
    version: int,
    *,
    user: object,
    request_id: str,
    seats: list[Seat] | None = None,
) -> Result:
    """`_play` and `_commit` of a person's action: while the round goes on (nothing of the
    round's result to write, no signal to send) in one statement (`_PLAY_COMMIT`: the same
    rows as `_append`, the undo point and `_commit`), else as they do it. `seats`: the
    match's, to tell the computers' loop whether one of them is to act next."""
    new = _applied(match, state, action)
    if new.over or (rnd.ended_by, rnd.points, rnd.totals) != ("", None, None):
        _record(match, rnd, new, action, version, user=user)
        return _commit(match, version, user=user, request_id=request_id)
    match.state = state_to_json(new)
    match.version = version
    match.updated_at = now = timezone.now()
    match.hurry = False  # a person's change ends "skip to my turn" (`_commit`)
    rnd.last_seq = (getattr(rnd, "last_seq", None) or 0) + 1
    uid = _user_id(user)
    row = _row(
        _PLAY_COMMIT,
        [
            rnd.pk,
            rnd.last_seq,
            log.ACTION,
            action.seat,
            _jsonb(action.to_json()),
            uid,
            False,
            version,
            now,
            rnd.pk,
            match.pk,
            version,
            _jsonb(match.state),
            match.round_number,
            match.status,
            match.finished_at,
            now,
            match.hurry,
            match.pk,
            match.pk,
            request_id,
            uid,
            version,
            now,
        ],
    )
    assert row is not None
    _logged(match, rnd, int(row[0]), version=version, action=action, user=user, by_computer=False)
    return _announce(match, version, computer_next=_computer_next(new, seats))


def _computer_next(state: RoundState, seats: list[Seat] | None) -> bool:
    """Whether a computer may be the one to act next in `state` (a computer's seat, or a
    person's a computer stands in for): the computers' loop is woken only then. True when
    the seats are not known."""
    if seats is None or state.turn is None or not 0 <= state.turn < len(seats):
        return True
    seat = seats[state.turn]
    return seat.kind == Seat.Kind.COMPUTER or bool(seat.standin)


def _record(
    match: Match,
    rnd: Round,
    new: RoundState,
    action: Action,
    version: int,
    *,
    user: object = None,
    by_computer: bool = False,
) -> None:
    """Log an applied action, keep an undo point before a human's action (R27), store the snapshot."""
    entry = _append(
        rnd,
        kind=log.ACTION,
        version=version,
        seat=action.seat,
        action=action.to_json(),
        user=user,
        by_computer=by_computer,
    )
    _logged(match, rnd, entry, version=version, action=action, user=user, by_computer=by_computer)
    if not by_computer:
        # The state before is the snapshot still stored on the locked match row (`_commit`
        # writes the new one), copied there rather than encoded and sent again.
        _row(
            "INSERT INTO games_undopoint (round_id, entry_id, state) SELECT %s, %s, state FROM games_match"
            " WHERE id = %s",
            [rnd.pk, entry, match.pk],
        )
    _store(match, rnd, new)


def round_next(*, match_id: int, user: object, expected_version: int, request_id: str) -> Result:
    """Start the next round once this one is over (R5/R31: round r + 1, totals carried, R21)."""
    with transaction.atomic():
        match = _lock(match_id)
        permissions.require(user, MAY_NEXT_ROUND, match)
        seen = _seen(match, user, request_id)
        if seen is not None:
            return seen
        _fresh(match, expected_version)
        state = _started(match)
        version = match.version + 1
        _next_round(match, state)
        return _commit(match, version, user=user, request_id=request_id)


def _next_round(match: Match, state: RoundState) -> None:
    try:
        new = rules.next_round(state)
    except IllegalAction as e:
        raise _refused(match, e, None) from None
    Round.objects.create(match=match, number=new.round, start=start_to_json(new.start))
    match.round_number = new.round
    match.state = state_to_json(new)


# ---------------------------------------------------------------- computer players


def computer_step(*, match_id: int) -> Result | None:
    """One computer player's action, if a computer is to act and nobody has the rules
    or the log open (R26); None when there is nothing to do (or another process holds
    the match). The computer sees only its own seat's view (R25)."""
    try:
        pk = int(match_id)  # what the ORM makes of a primary key
    except (ValueError, TypeError):
        return None
    with transaction.atomic():
        row = _row(_LOCK_FOR_COMPUTER, [timezone.now() - PAUSE_TIMEOUT, pk])
        if row is None:
            return None
        match, paused = from_row(Match, _MATCH_FIELDS, row[:-1]), row[-1]
        if match.status != Match.Status.PLAYING or match.state is None or paused:
            return None
        state = state_from_json(match.state)
        seats = _seats(match)
        if state.phase == "round_over" and all(s.kind == Seat.Kind.COMPUTER for s in seats):
            # Nobody at the table could press Next round.
            version = match.version + 1
            _next_round(match, state)
            return _commit(match, version)
        if state.over or state.turn is None:
            return None
        seat = seats[state.turn]
        if not seat.computer_plays:  # a computer's seat, or a person's with a computer standing in
            return None
        # The computer's luck (the beginner's whims) is fixed by the seed, the round, the
        # seat and the version it acts on, so the match is the same when played again.
        luck = bots.luck(match.seed, state.round, seat.index, match.version)
        action = bots.choose(view(state, seat.index), seat.computer_level, luck)
        version = match.version + 1
        new = _play(match, _current_round(match), state, action, version, by_computer=True)
        if new.turn is None or not seats[new.turn].computer_plays:
            match.hurry = (
                False  # "skip to my turn" is done: a person is to act (or the round is over)
            )
        return _commit(match, version)
