"""Every change to a match: create, join, play, undo/redo, restart, next round, new match.

Each service runs in one transaction with the match row locked
(`SELECT ... FOR UPDATE`), so two requests for one match are applied one after
the other, never interleaved. The checks come in a fixed order, and every refusal
is a `games.errors.GameError` that changes nothing:

1. the match exists (not_found);
2. the user may act for the seat (forbidden: a stranger, or someone else's seat);
3. the request id was seen already: the stored result comes back with
   ``duplicate=True`` and nothing is applied again;
4. the client saw the current version (stale: refresh first);
5. the match has started (not_started);
6. the action is well formed (bad_request) and is the seat's own (forbidden);
7. it is that seat's turn (not_your_turn);
8. the rules allow it (illegal: the engine's reason, with its rule id).

A change then appends to the round's append-only log, stores the new engine
snapshot on the match (loaded, one action applied, stored back: never a replay
from the start), bumps the version and, after commit, tells the match's
channel-layer group (`games.notify`). Rules served here: R2, R4 (seeds), R5 and
R21–R22 (round and match ends), R26 (pauses), R27 (undo/redo), R28 (restart),
R29 (a new match at the same table).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import timedelta
from functools import partial
from typing import Any, Literal, cast

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Field
from django.utils import timezone

from accounts import names
from engine import bots, rules
from engine.deal import MAX_PLAYERS, MIN_PLAYERS
from engine.replay import BadReplay, parse_action
from engine.serialize import start_to_json, state_from_json, state_to_json
from engine.state import Action, IllegalAction, RoundState
from engine.views import view

from . import consent, length, log, notify, permissions, signals
from .errors import (
    BAD_REQUEST,
    FORBIDDEN,
    ILLEGAL,
    NO_REDO,
    NO_REQUEST,
    NO_UNDO,
    NOT_FOUND,
    NOT_STARTED,
    NOT_YOUR_TURN,
    REQUEST_OPEN,
    SEAT_TAKEN,
    STALE,
    GameError,
)
from .models import ChangeRequest, LogEntry, Match, Pause, Round, Seat, Table, UndoPoint, from_row
from .permissions import Action as Can
from .selectors import PAUSE_TIMEOUT, round_over
from .selectors import paused as _pause_active
from .words import refusal, sentence

#: random seeds stay below 2**53 so they survive a round trip through JavaScript numbers
SEED_LIMIT = 2**53
MAX_REQUEST_ID = 64
MAX_NAME = 40
#: how long an undo or restart request waits for the others' answers
REQUEST_LIFETIME = timedelta(minutes=1)

SeatKind = Literal["me", "human", "local", "computer"]
#: the settings of a table its seated people change (`setting_set`)
TableSetting = Literal["pace", "away_limit"]


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """One seat of a new match: the creator ("me"), a free seat for an invited player
    ("human"), a pass-and-play seat on the creator's device ("local", R24) or a
    computer player ("computer", R25) with a level: "beginner", "casual" or "expert"
    (engine.bots.LEVELS)."""

    kind: SeatKind
    name: str = ""
    level: str = ""


@dataclass(frozen=True, slots=True)
class Result:
    """What a change produced: the match's version after it; `duplicate` when the
    request id had been seen and nothing was applied this time."""

    match_id: int
    version: int
    duplicate: bool = False
    #: the change was not done but asked of the others at the table (`ChangeRequest`, games.consent)
    asked: bool = False
    #: for a change asked of the others: its request's status now (ChangeRequest.Status), so a
    #: repeated request id is answered with the request's true state (issue 22)
    request: str = ""


# ---------------------------------------------------------------- statements
#
# The statements every action runs (lock, seat, request id, round, log entry, undo
# point, match, request id) are written out in SQL. They run on every move of every
# match, and the ORM spent ~0.6-1 ms of CPU building and compiling each one (on the
# load benchmark's machine) where running it takes ~0.1 ms. Each reads or writes the
# rows and columns the ORM call it replaced did; rarer changes (a round's result, a
# restart count, creating and joining) keep the ORM.

#: every column of the match, in the model's order (`_lock` loads the whole row)
_MATCH_FIELDS = Match._meta.concrete_fields
_MATCH_COLUMNS = ", ".join(f'm."{f.column}"' for f in _MATCH_FIELDS)
_LOCK = f"SELECT {_MATCH_COLUMNS} FROM games_match m WHERE m.id = %s FOR UPDATE"
#: `computer_step` skips a match another process holds, and reads whether a pause is on (R26)
_LOCK_FOR_COMPUTER = (
    f"SELECT {_MATCH_COLUMNS}, EXISTS (SELECT 1 FROM games_pause p WHERE p.match_id = m.id"
    " AND p.alive_at >= %s) FROM games_match m WHERE m.id = %s FOR UPDATE SKIP LOCKED"
)
_SEAT_FIELDS = Seat._meta.concrete_fields
_SEATS = 'SELECT {} FROM games_seat WHERE match_id = %s ORDER BY "index"'.format(
    ", ".join(f'"{f.column}"' for f in _SEAT_FIELDS)
)
#: the Round columns a change reads, in the model's order (the deal, `start`, loads only if asked for)
_ROUND_FIELDS = [
    cast("Field[Any, Any]", Round._meta.get_field(name))  # columns all
    for name in ("id", "match", "number", "ended_by", "points", "totals", "restarts", "ended_at")
]


#: what `action_submit` reads after the lock (1.), one statement: the request id's earlier
#: result if any (3.) and the current round with its log's last sequence number. Not part of
#: the lock's statement: a statement that waited for the lock sees the locked row as the
#: other transaction left it, but the rows it joined to it as they were before.
_READ_FOR_ACTION = (
    "SELECT c.user_id, c.version, c.match_id IS NOT NULL, "
    + ", ".join(f'r."{f.column}"' for f in _ROUND_FIELDS)
    + ", (SELECT max(seq) FROM games_logentry WHERE round_id = r.id)"
    " FROM (SELECT %s::bigint AS id) m"
    " LEFT JOIN games_clientrequest c ON c.match_id = m.id AND c.request_id = %s"
    " LEFT JOIN games_round r ON r.match_id = m.id AND r.number = %s"
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


def _rows(statement: str, params: list[Any]) -> list[tuple[Any, ...]]:
    """Run one statement; the rows it gives (none for a write without RETURNING)."""
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.fetchall() if cursor.description is not None else []


def _row(statement: str, params: list[Any]) -> tuple[Any, ...] | None:
    """Run one statement; its first row (None when it gives none)."""
    rows = _rows(statement, params)
    return rows[0] if rows else None


def _jsonb(value: Any) -> Any:
    """A JSON value as the ORM sends it to a JSONField (None stays SQL NULL; no JSONField
    of these models has an encoder of its own)."""
    return Match._meta.get_field("state").get_db_prep_save(value, connection)


# ---------------------------------------------------------------- checks


def _lock(match_id: object) -> Match:
    """1. The match exists; lock its row for the rest of the transaction (SELECT ... FOR UPDATE)."""
    try:
        pk = int(match_id)  # type: ignore[call-overload]  # what the ORM makes of a primary key
    except (ValueError, TypeError):
        raise GameError(NOT_FOUND, sentence("no_such_match")) from None
    row = _row(_LOCK, [pk])
    if row is None:
        raise GameError(NOT_FOUND, sentence("no_such_match"))
    return from_row(Match, _MATCH_FIELDS, row)


def _lock_for_action(
    match_id: object, request_id: object
) -> tuple[Match, tuple[Any, ...], Round | None]:
    """`_lock`, then what `_seen` and `_current_round` would read, in one statement: the match,
    the request id's earlier (user id, version, found), and the current round (None before
    the match starts)."""
    match = _lock(match_id)
    row = _row(
        _READ_FOR_ACTION,
        [match.pk, request_id if isinstance(request_id, str) else None, match.round_number],
    )
    assert row is not None
    seen, rest = row[:3], row[3:]
    rnd = None
    if rest[0] is not None:
        rnd = from_row(Round, _ROUND_FIELDS, rest[:-1])
        rnd.last_seq = rest[-1]
    return match, seen, rnd


def _user_id(user: object) -> int | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return getattr(user, "pk", None)


def _seats(match: Match) -> list[Seat]:
    return [from_row(Seat, _SEAT_FIELDS, row) for row in _rows(_SEATS, [match.pk])]


def _seat_for(match: Match, user: object, seat: object) -> None:
    """2. The user may act for `seat`: their own seat or their pass-and-play seat (games.permissions)."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise GameError(BAD_REQUEST, sentence("seat_not_number"))
    permissions.require(user, Can.ACT, match, seat=seat, seats=_seats(match))


def _seen(
    match: Match, user: object, request_id: object, read: tuple[Any, ...] | None = None
) -> Result | None:
    """3. A repeated request id is answered with the result it produced, not applied again
    (`read`: its (user id, version, found) as `_lock_for_action` read them)."""
    if not isinstance(request_id, str) or not 1 <= len(request_id) <= MAX_REQUEST_ID:
        raise GameError(BAD_REQUEST, sentence("request_id_needed"))
    if read is not None:
        seen = read[:2] if read[2] else None
    else:
        seen = _row(
            "SELECT user_id, version FROM games_clientrequest WHERE match_id = %s AND request_id = %s",
            [match.pk, request_id],
        )
    if seen is None:
        return None
    seen_user, seen_version = seen
    if seen_user != _user_id(user):
        raise GameError(BAD_REQUEST, sentence("request_id_used"))
    if read is None:  # a change that may have been asked of the others: say what became of it
        asked = (
            ChangeRequest.objects.filter(match=match, asked_by_id=seen_user, request_id=request_id)
            .values_list("status", flat=True)
            .first()
        )
        if asked is not None:
            return Result(match.pk, seen_version, duplicate=True, asked=True, request=asked)
    return Result(match.pk, seen_version, duplicate=True)


def _fresh(match: Match, expected_version: object) -> None:
    """4. The client acted on what the match is now, not on an older picture of it."""
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise GameError(BAD_REQUEST, sentence("version_needed"))
    if expected_version != match.version:
        raise GameError(STALE, sentence("stale"))


def _started(match: Match) -> RoundState:
    """5. The match has started: its current round's state."""
    if match.status == Match.Status.WAITING or match.state is None:
        raise GameError(NOT_STARTED, sentence("not_started"))
    return state_from_json(match.state)


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


def _refused(match: Match, e: IllegalAction, me: int | None) -> GameError:
    """The engine's refusal in the player's words (games.words), seats named as at the table."""
    names = [s.display_name for s in _seats(match)]
    return GameError(
        ILLEGAL, refusal(e.code, e.params, names=names, me=me), rule=e.rule, reason=e.code
    )


def refused_by_engine(match: Match, e: IllegalAction) -> GameError:
    """An engine refusal of a change of the table (no seat's): in words (games.words)."""
    return _refused(match, e, None)


def _apply(state: RoundState, action: Action) -> RoundState:
    """8. The engine applies the action or raises `IllegalAction`, with its reason (`_play` says it)."""
    return rules.apply(state, action)


def _round_over_error() -> GameError:
    return GameError(ILLEGAL, refusal("round_over"), rule="R20", reason="round_over")


def _match_over_error() -> GameError:
    return GameError(ILLEGAL, refusal("match_over"), rule="R22", reason="match_over")


# ---------------------------------------------------------------- writing


def _current_round(match: Match) -> Round:
    """The round being played, with `last_seq`: its log's last sequence number (0 when empty)."""
    row = _row(
        "SELECT r.id, r.match_id, r.number, r.ended_by, r.points, r.totals, r.restarts, r.ended_at,"
        " (SELECT max(seq) FROM games_logentry WHERE round_id = r.id)"
        " FROM games_round r WHERE r.match_id = %s AND r.number = %s",
        [match.pk, match.round_number],
    )
    if row is None:
        raise Round.DoesNotExist(f"match {match.pk} has no round {match.round_number}")
    rnd = from_row(Round, _ROUND_FIELDS, row[:-1])
    rnd.last_seq = row[-1]
    return rnd


def _append(
    rnd: Round,
    *,
    kind: str,
    version: int,
    seat: int | None = None,
    action: dict[str, Any] | None = None,
    user: object = None,
    by_computer: bool = False,
) -> int:
    """Append one entry to the round's log (the match row lock makes the next seq safe); its id."""
    rnd.last_seq = (getattr(rnd, "last_seq", None) or 0) + 1
    row = _row(
        "INSERT INTO games_logentry (round_id, seq, kind, seat, action, user_id, by_computer, version,"
        " created_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
        [
            rnd.pk,
            rnd.last_seq,
            kind,
            seat,
            _jsonb(action),
            _user_id(user),
            by_computer,
            version,
            timezone.now(),
        ],
    )
    assert row is not None
    return int(row[0])


def log_entry(rnd: Round, *, kind: str, version: int, user: object = None) -> int:
    """Append a line of `kind` (games.log) by `user` to the round's log (a command's own line)."""
    return _append(rnd, kind=kind, version=version, user=user)


def store_state(match: Match, rnd: Round, state: RoundState) -> None:
    """Put a new snapshot of the round on the match (a command's change; `_commit` saves it)."""
    _store(match, rnd, state)


def _logged(
    match: Match,
    rnd: Round,
    entry_id: int,
    *,
    version: int,
    action: Action,
    user: object,
    by_computer: bool,
) -> None:
    """Remember the action entry this change logged, for its notice (`notify.match_changed`:
    a table's hub in any process applies it to the state it holds instead of reading the
    version back, games.table.hub). Public only (R24): an action names no hidden tile (a
    draw names none; a played tile is on the table)."""
    name = user.get_username() if user is not None and hasattr(user, "get_username") else None
    assert rnd.last_seq is not None  # the entry was just logged with this sequence number
    match.logged = [  # type: ignore[attr-defined]  # not a column: this change's entries, for _announce
        *getattr(match, "logged", ()),
        notify.Entry(
            id=entry_id,
            round_id=rnd.pk,
            seq=rnd.last_seq,
            kind=log.ACTION,
            seat=action.seat,
            action=action.to_json(),
            user_id=_user_id(user),
            by_computer=by_computer,
            version=version,
            username=name,
        ),
    ]


def _store(match: Match, rnd: Round, state: RoundState) -> None:
    """Put the new snapshot on the match and keep the round's result in step with it (R21, R22)."""
    now = timezone.now()
    match.state = state_to_json(state)
    result = (rnd.ended_by, rnd.points, rnd.totals)
    if state.over:
        rnd.ended_by = state.ended_by or ""
        rnd.points = list(state.round_points or ())
        rnd.totals = list(state.totals)
        rnd.ended_at = rnd.ended_at or now
    else:  # an undo or restart took the round back from its end
        rnd.ended_by, rnd.points, rnd.totals, rnd.ended_at = "", None, None, None
    if (rnd.ended_by, rnd.points, rnd.totals) != result:
        rnd.save(update_fields=["ended_by", "points", "totals", "ended_at"])
    if state.phase == "match_over":
        match.status = Match.Status.FINISHED
        match.finished_at = now
        signals.match_finished.send(
            sender=Match, match=match
        )  # stats and ratings, in this transaction


def _commit(
    match: Match,
    version: int,
    *,
    user: object = None,
    request_id: str | None = None,
    hurry: bool | None = None,
) -> Result:
    """Save the match at `version` (the columns a change writes), remember the request id,
    notify after commit. A person's change ends a "skip to my turn" (`hurry_start`)
    unless `hurry` says otherwise; a computer's change keeps it as `computer_step` left it."""
    match.version = version
    match.updated_at = timezone.now()
    if hurry is not None:
        match.hurry = hurry
    elif user is not None:
        match.hurry = False
    _row(
        "UPDATE games_match SET version = %s, state = %s, round_number = %s, status = %s, finished_at = %s,"
        " updated_at = %s, hurry = %s WHERE id = %s",
        [
            match.version,
            _jsonb(match.state),
            match.round_number,
            match.status,
            match.finished_at,
            match.updated_at,
            match.hurry,
            match.pk,
        ],
    )
    if request_id is not None:
        _row(
            "INSERT INTO games_clientrequest (match_id, request_id, user_id, version, created_at)"
            " VALUES (%s, %s, %s, %s, %s)",
            [match.pk, request_id, _user_id(user), version, timezone.now()],
        )
    return _announce(match, version)


def _announce(match: Match, version: int) -> Result:
    """Tell the table of `version` after commit, with the entries it logged if it only played
    actions (`_logged`) and the match's new "skip to my turn" flag."""
    match_id, entries, hurry = match.pk, tuple(getattr(match, "logged", ())), bool(match.hurry)
    match.logged = []  # type: ignore[attr-defined]  # not a column (`_logged`)
    transaction.on_commit(
        lambda: notify.match_changed(match_id, version, entries=entries, hurry=hurry)
    )
    return Result(match_id, version)


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
) -> Result:
    """`_play` and `_commit` of a person's action: while the round goes on (nothing of the
    round's result to write, no signal to send) in one statement (`_PLAY_COMMIT`: the same
    rows as `_append`, the undo point and `_commit`), else as they do it."""
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
    return _announce(match, version)


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


def _start(match: Match) -> None:
    """Deal round 1 (R4, R5; from the match's first double, R31), search for the engine (R6)
    and start playing."""
    state = rules.new_match_round(match.players, match.seed, rounds=match.length)
    Round.objects.create(match=match, number=1, start=start_to_json(state.start))
    match.state = state_to_json(state)
    match.round_number = 1
    match.status = Match.Status.PLAYING


# ---------------------------------------------------------------- creating and joining


def _check_specs(seats: list[SeatSpec], *, creator_id: int | None = None) -> None:
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise GameError(BAD_REQUEST, sentence("seat_count"))
    if sum(1 for s in seats if s.kind == "me") > 1:
        raise GameError(BAD_REQUEST, sentence("one_seat_yourself"))
    for spec in seats:
        if spec.kind not in ("me", "human", "local", "computer"):
            raise GameError(BAD_REQUEST, sentence("unknown_seat_kind"))
        if spec.kind == "computer" and _level(spec.level) not in Seat.Level.values:
            raise GameError(BAD_REQUEST, sentence("computer_levels"))
        if spec.kind != "computer" and spec.level:
            raise GameError(BAD_REQUEST, sentence("level_for_computers"))
        if len(spec.name) > MAX_NAME:
            raise GameError(BAD_REQUEST, sentence("name_length"))
        try:
            names.validate_name(spec.name)
        except ValidationError as e:
            raise GameError(BAD_REQUEST, " ".join(e.messages)) from None
        # A pass-and-play name is not another user's name, nor looks like one (issue 22, item 4).
        if (
            spec.kind == "local"
            and spec.name.strip()
            and names.looks_like_a_user(spec.name.strip(), exclude_pk=creator_id)
        ):
            raise GameError(BAD_REQUEST, sentence("name_lookalike"))


def _level(level: object) -> str:
    """A computer level's name as given (engine.bots.LEVELS); anything else is left for the
    check to refuse."""
    return level if isinstance(level, str) else ""


def _pace(pace: object) -> str:
    if not isinstance(pace, str) or pace not in Match.Pace.values:
        raise GameError(BAD_REQUEST, _pace_unknown())
    return pace


def _pace_unknown() -> str:
    return sentence("paces")


def _new_seed(seed: object) -> int:
    if seed is None:
        return secrets.randbelow(SEED_LIMIT)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise GameError(BAD_REQUEST, sentence("seed_range"))
    return seed


def _new_match(
    *,
    table: Table,
    number: int,
    creator: Any,
    seats: list[tuple[str, Any, str, str]],
    seed: int,
    listed: bool,
    pace: str = "normal",
    away_limit: str = "1h",
    rounds: int = length.STANDARD,
) -> Match:
    """A match with its seats (kind, user, name, level); started at once when no seat is free."""
    match = Match.objects.create(
        table=table,
        number=number,
        seed=seed,
        players=len(seats),
        listed=listed,
        pace=pace,
        away_limit=away_limit,
        length=rounds,
        invite_token=secrets.token_urlsafe(16),
        watch_token=secrets.token_urlsafe(16),
        created_by=creator,
    )
    Seat.objects.bulk_create(
        Seat(match=match, index=i, kind=kind, user=user, name=name, level=level)
        for i, (kind, user, name, level) in enumerate(seats)
    )
    if not any(kind == Seat.Kind.HUMAN and user is None for kind, user, _name, _level in seats):
        _start(match)
        _commit(match, match.version + 1)
    return match


def match_create(
    *,
    creator: Any,
    seats: list[SeatSpec],
    seed: int | None = None,
    listed: bool = True,
    pace: str = "normal",
    away_limit: str = "1h",
    rounds: object = length.STANDARD,
) -> Match:
    """Create a match at a new table; it starts at once when no seat waits for a player.
    `pace`: how fast its computers move (Match.Pace), changed later with `pace_set`;
    `away_limit`: how long a seat may stay away before a computer may play it
    (Match.AwayLimit, games.standin), changed later with `standin.away_limit_set`;
    `rounds`: the match's length (R31, games.length), 13 rounds from 12-12 by default."""
    if _user_id(creator) is None:
        raise GameError(FORBIDDEN, sentence("sign_in_to_create"))
    seats = list(seats)
    _check_specs(seats, creator_id=_user_id(creator))
    chosen_rounds = length.parse(rounds)
    if chosen_rounds is None:
        raise GameError(BAD_REQUEST, length.refused(), rule="R31")
    chosen = _new_seed(seed)
    pace = _pace(pace)
    if away_limit not in Match.AwayLimit.values:
        raise GameError(BAD_REQUEST, sentence("away_limits"))
    rows: list[tuple[str, Any, str, str]] = []
    for spec in seats:
        if spec.kind == "me":
            rows.append((str(Seat.Kind.HUMAN), creator, "", ""))
        elif spec.kind == "human":
            rows.append((str(Seat.Kind.HUMAN), None, "", ""))
        elif spec.kind == "local":
            rows.append((str(Seat.Kind.LOCAL), creator, names.normalise(spec.name.strip()), ""))
        else:
            rows.append(
                (
                    str(Seat.Kind.COMPUTER),
                    None,
                    names.normalise(spec.name.strip()),
                    _level(spec.level),
                )
            )
    with transaction.atomic():
        table = Table.objects.create(created_by=creator)
        return _new_match(
            table=table,
            number=1,
            creator=creator,
            seats=rows,
            seed=chosen,
            listed=listed,
            pace=pace,
            away_limit=away_limit,
            rounds=chosen_rounds,
        )


def seat_join(
    *, match_id: int, user: Any, token: str | None = None, seat_index: int | None = None
) -> Seat:
    """Take a free player's seat with the invitation token (not needed for a match listed in
    the lobby); the match starts when the last free seat is taken. Joining again gives back
    the seat already held."""
    with transaction.atomic():
        match = _lock(match_id)
        if _user_id(user) is None:
            raise GameError(FORBIDDEN, sentence("sign_in_to_join"))
        if token is None:
            if not match.listed:
                raise GameError(FORBIDDEN, sentence("invitation_only"))
        elif not secrets.compare_digest(str(token), match.invite_token):
            raise GameError(FORBIDDEN, sentence("bad_invitation"))
        held = Seat.objects.filter(match=match, kind=Seat.Kind.HUMAN, user=user).first()
        if held is not None:
            return held
        if match.status != Match.Status.WAITING:
            raise GameError(SEAT_TAKEN, sentence("match_full"))
        free = Seat.objects.filter(match=match, kind=Seat.Kind.HUMAN, user__isnull=True).order_by(
            "index"
        )
        if seat_index is not None:
            free = free.filter(index=seat_index)
        seat = free.first()
        if seat is None:
            raise GameError(SEAT_TAKEN, sentence("seat_taken"))
        seat.user = user
        seat.save(update_fields=["user"])
        if not Seat.objects.filter(match=match, kind=Seat.Kind.HUMAN, user__isnull=True).exists():
            _start(match)
        _commit(match, match.version + 1)
        return seat


# ---------------------------------------------------------------- playing


def action_submit(
    *,
    match_id: int,
    user: object,
    seat: int,
    action: dict[str, Any],
    expected_version: int,
    request_id: str,
) -> Result:
    """Play one action (engine, play, draw, pass, end) for a seat the user controls."""
    with transaction.atomic():
        match, seen_read, rnd = _lock_for_action(match_id, request_id)
        _seat_for(match, user, seat)
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
                    names=[s.display_name for s in _seats(match)],
                ),
                rule="R7",
                reason="not_your_turn",
            )
        if rnd is None:
            raise Round.DoesNotExist(f"match {match.pk} has no round {match.round_number}")
        return _play_commit(
            match, rnd, state, parsed, match.version + 1, user=user, request_id=request_id
        )


def _may_undo(
    match: Match, user: object, request_id: object, expected_version: object, empty: str
) -> tuple[Result | None, list[int], Round | None]:
    """The checks Undo and Redo share; the seats the user controls and the current round."""
    seats = _seats(match)
    permissions.require(user, Can.UNDO, match, seats=seats)
    mine = permissions.seats_controlled(match, user, seats=seats)
    seen = _seen(match, user, request_id)
    if seen is not None:
        return seen, mine, None
    _fresh(match, expected_version)
    _started(match)
    if match.status == Match.Status.FINISHED:
        raise GameError(empty, refusal("match_over"))
    if round_over(match):
        # R27 within a round only: once it is over every hand has been shown (R21, R24).
        raise GameError(empty, sentence("hands_shown"))
    return None, mine, _current_round(match)


def match_undo(*, match_id: int, user: object, expected_version: int, request_id: str) -> Result:
    """R27: take back the user's last action with every computer action that answered it.

    Only within the current round, and only when nobody else has acted since. The
    state comes back from the undo point of that action (no replay). At a table shared
    with other people it is asked of them first (`change_answer` does it once they all
    accept)."""
    with transaction.atomic():
        match = _lock(match_id)
        seen, mine, rnd = _may_undo(match, user, request_id, expected_version, NO_UNDO)
        if seen is not None:
            return seen
        assert rnd is not None
        found = _undo_count(
            rnd, mine
        )  # something to take back, or no_undo before anything is asked
        if permissions.needs_consent(match, user):
            return _ask(match, rnd, user, consent.UNDO.name, request_id)
        version = match.version + 1
        _undo(match, rnd, version, user, found)
        return _commit(match, version, user=user, request_id=request_id)


def _undo_count(rnd: Round, mine: list[int]) -> tuple[log.Folded[LogEntry], int]:
    folded = log.fold(LogEntry.objects.filter(round=rnd).order_by("seq"))
    count = log.undo_group(folded.effective, mine)
    if count is None:
        raise GameError(NO_UNDO, sentence("nothing_to_undo"))
    return folded, count


def _undo(
    match: Match, rnd: Round, version: int, user: object, found: tuple[log.Folded[LogEntry], int]
) -> None:
    """Take back `found` (`_undo_count`): the state before it comes from its undo point."""
    folded, count = found
    target = folded.effective[-count]
    before = state_from_json(UndoPoint.objects.get(entry=target).state)
    if match.state and match.state["start"].get("final") and not before.start.final:
        before = before._replace(
            start=replace(before.start, final=True)
        )  # R32 stands through an undo
    _append(rnd, kind=log.UNDO, version=version, action={"count": count}, user=user)
    _store(match, rnd, before)


def match_redo(*, match_id: int, user: object, expected_version: int, request_id: str) -> Result:
    """R27: restore exactly what the last Undo took back, while nothing new was played."""
    with transaction.atomic():
        match = _lock(match_id)
        seen, mine, rnd = _may_undo(match, user, request_id, expected_version, NO_REDO)
        if seen is not None:
            return seen
        assert rnd is not None
        folded = log.fold(LogEntry.objects.filter(round=rnd).order_by("seq"))
        if not folded.redo or folded.redo[-1][0].seat not in mine:
            raise GameError(NO_REDO, sentence("nothing_to_redo"))
        group = folded.redo[-1]
        state = _started(match)
        for entry in group:  # the same actions again, from the state they were undone to
            state = rules.apply(state, parse_action(entry.action))
        version = match.version + 1
        _append(rnd, kind=log.REDO, version=version, action={"count": len(group)}, user=user)
        _store(match, rnd, state)
        return _commit(match, version, user=user, request_id=request_id)


def round_restart(*, match_id: int, user: object, expected_version: int, request_id: str) -> Result:
    """R28: start the current round again with its deal, its engine search and the totals
    from earlier rounds. For the match's creator, or a player when every other seat is a
    computer or one of their own (games.permissions). At a table shared with other
    people it is asked of them first (`change_answer` does it once they all accept)."""
    with transaction.atomic():
        match = _lock(match_id)
        seats = _seats(match)
        permissions.require(user, Can.RESTART, match, seats=seats)
        seen = _seen(match, user, request_id)
        if seen is not None:
            return seen
        _fresh(match, expected_version)
        state = _restartable(match)
        rnd = _current_round(match)
        if permissions.needs_consent(match, user, seats=seats):
            return _ask(match, rnd, user, consent.RESTART.name, request_id)
        version = match.version + 1
        _restart(match, rnd, state, version, user)
        return _commit(match, version, user=user, request_id=request_id)


def _restartable(match: Match) -> RoundState:
    state = _started(match)
    if state.phase == "match_over":
        raise _match_over_error()
    if state.over:
        raise _round_over_error()
    return state


def _restart(match: Match, rnd: Round, state: RoundState, version: int, user: object) -> None:
    _append(rnd, kind=log.RESTART, version=version, user=user)
    rnd.restarts += 1
    rnd.save(update_fields=["restarts"])
    _store(match, rnd, rules.restart_round(state))


# ---------------------------------------------------------------- asking the others (consent)


def _open_request(match: Match, rnd: Round | None = None) -> ChangeRequest | None:
    """The match's open request; one past its minute is closed as expired here (and logged
    in its round, when `rnd` is that round)."""
    ask = ChangeRequest.objects.filter(match=match, status=ChangeRequest.Status.OPEN).first()
    if ask is not None and ask.expires_at <= timezone.now():
        _close(match, ask, ChangeRequest.Status.EXPIRED, "expire", rnd, version=match.version)
        return None
    return ask


def requests_expire() -> list[int]:
    """Close every open request past its minute now, not when the table is next asked
    something: each with a new version and its "expire" line in the round's log, so
    every board watching drops its Accept and Decline and says that nobody answered in
    time. The computer worker calls this every `games.worker.REQUESTS_EVERY` seconds
    (`_open_request` still closes one it meets first). The ids of the matches."""
    due = ChangeRequest.objects.filter(
        status=ChangeRequest.Status.OPEN, expires_at__lte=timezone.now()
    )
    closed = []
    for match_id in due.values_list("match_id", flat=True):
        with transaction.atomic():
            match = _lock(match_id)
            ask = ChangeRequest.objects.filter(
                match=match, status=ChangeRequest.Status.OPEN, expires_at__lte=timezone.now()
            ).first()
            if ask is None:  # answered meanwhile
                continue
            try:
                rnd: Round | None = _current_round(match)
            except Round.DoesNotExist:
                rnd = None
            version = match.version + 1
            _close(match, ask, ChangeRequest.Status.EXPIRED, "expire", rnd, version=version)
            _commit(match, version)
            closed.append(match.pk)
    return closed


def _close(
    match: Match,
    ask: ChangeRequest,
    status: str,
    step: str,
    rnd: Round | None,
    *,
    version: int,
    user: object = None,
) -> None:
    ask.status = status
    ask.closed_at = timezone.now()
    ask.save(update_fields=["status", "closed_at"])
    if rnd is not None and rnd.number == ask.round_number:
        _append(
            rnd,
            kind=log.CONSENT,
            version=version,
            action={"change": ask.change, "step": step},
            user=user,
        )


def _ask(
    match: Match, rnd: Round, user: Any, change: str, request_id: str, value: str = ""
) -> Result:
    """Open a request for `change` (a games.consent kind; `value`: what it sets, for a kind that
    carries one) — one at a time per match —, logged in the round."""
    if _open_request(match, rnd) is not None:
        raise GameError(REQUEST_OPEN, sentence("request_waiting"))
    version = match.version + 1
    ChangeRequest.objects.create(
        match=match,
        change=consent.kind(change).name,
        value=value,
        asked_by=user,
        request_id=request_id,
        round_number=rnd.number,
        version=match.version,
        expires_at=timezone.now() + REQUEST_LIFETIME,
    )
    _append(
        rnd, kind=log.CONSENT, version=version, action={"change": change, "step": "ask"}, user=user
    )
    result = _commit(match, version, user=user, request_id=request_id)
    return Result(
        result.match_id, result.version, asked=True, request=str(ChangeRequest.Status.OPEN)
    )


def asked_or_done(
    *,
    match_id: int,
    user: object,
    request_id: str,
    action: Can,
    change: str,
    check: Callable[[Match, RoundState], None],
    make: Callable[[consent.Pending], None],
    value: str = "",
    expected_version: int | None = None,
) -> Result:
    """A change of games.consent kind `change` by `user` (allowed `action`, games.permissions).
    ``check(match, state)`` refuses it with a GameError while it could not be made; then at a
    table shared with other people it is asked of them (`_ask`; `value`: what it sets), and
    alone (with computers, or one's own pass-and-play seats) ``make(pending)`` makes it at
    once (the kind's ``done`` makes it on acceptance: `change_answer`)."""
    with transaction.atomic():
        match = _lock(match_id)
        seats = _seats(match)
        permissions.require(user, action, match, seats=seats)
        seen = _seen(match, user, request_id)
        if seen is not None:
            return seen
        if expected_version is not None:
            _fresh(match, expected_version)
        state = _started(match)
        check(match, state)
        rnd = _current_round(match)
        if permissions.needs_consent(match, user, seats=seats):
            return _ask(match, rnd, user, change, request_id, value)
        version = match.version + 1
        make(
            consent.Pending(
                match=match,
                round=rnd,
                state=state,
                version=version,
                asker=user,
                request=None,
                seats=seats,
            )
        )
        return _commit(match, version, user=user, request_id=request_id)


def change_answer(
    *, match_id: int, user: object, ask: object, accept: bool, request_id: str
) -> Result:
    """Accept or decline the open request `ask` (its id, as the board showed it; its kind is a
    games.consent `Kind`). One decline closes it (the asker is told who declined); once every
    other person accepted, the kind's change is made for the asker, if it still can be (else
    the request closes as void). A request past its minute cannot be answered."""
    with transaction.atomic():
        match = _lock(match_id)
        seats = _seats(match)
        permissions.require(user, Can.ANSWER, match, seats=seats)
        seen = _seen(match, user, request_id)
        if seen is not None:
            return seen
        state = _started(match)
        rnd = _current_round(match)
        current = _open_request(match, rnd)
        if (
            isinstance(ask, bool)
            or not isinstance(ask, int)
            or current is None
            or current.pk != ask
        ):
            raise GameError(NO_REQUEST, sentence("request_closed"))
        permissions.require(user, Can.ANSWER, match, seats=seats, request=current)
        uid = permissions.user_id(user)
        version = match.version + 1
        if not accept:
            current.declined_by_id = uid
            current.save(update_fields=["declined_by"])
            _close(
                match,
                current,
                ChangeRequest.Status.DECLINED,
                "decline",
                rnd,
                version=version,
                user=user,
            )
            return _commit(match, version, user=user, request_id=request_id)
        current.accepted = sorted({*current.accepted, uid})
        current.save(update_fields=["accepted"])
        if permissions.others(match, current.asked_by, seats=seats) - set(current.accepted):
            _append(
                rnd,
                kind=log.CONSENT,
                version=version,
                action={"change": current.change, "step": "accept"},
                user=user,
            )
            return _commit(match, version, user=user, request_id=request_id)
        pending = consent.Pending(
            match=match,
            round=rnd,
            state=state,
            version=version,
            asker=current.asked_by,
            request=current,
            seats=seats,
        )
        kept = (rnd.last_seq, match.state, match.status, match.finished_at, match.round_number)
        try:  # still possible? (another person played since, the round or the match ended: void)
            if current.round_number != rnd.number or match.status != Match.Status.PLAYING:
                raise GameError(NO_REQUEST, sentence("request_closed"))
            with transaction.atomic():  # a change refused half-way leaves nothing behind
                _close(
                    match,
                    current,
                    ChangeRequest.Status.DONE,
                    "accept",
                    rnd,
                    version=version,
                    user=user,
                )
                consent.kind(current.change).accept(pending)
        except GameError:
            rnd.last_seq, match.state, match.status, match.finished_at, match.round_number = kept
            current.refresh_from_db()
            _close(
                match, current, ChangeRequest.Status.VOID, "void", rnd, version=version, user=user
            )
        return _commit(match, version, user=user, request_id=request_id)


def consent_undo(p: consent.Pending) -> None:
    """What an accepted undo request does (games.consent.UNDO): R27 for the asker."""
    if round_over(p.match):
        raise _round_over_error()
    mine = permissions.seats_controlled(p.match, p.asker, seats=p.seats)
    _undo(p.match, p.round, p.version, p.asker, _undo_count(p.round, mine))


def consent_restart(p: consent.Pending) -> None:
    """What an accepted restart request does (games.consent.RESTART): R28 for the asker."""
    _restart(p.match, p.round, _restartable(p.match), p.version, p.asker)


def round_next(*, match_id: int, user: object, expected_version: int, request_id: str) -> Result:
    """Start the next round once this one is over (R5/R31: round r + 1, totals carried, R21)."""
    with transaction.atomic():
        match = _lock(match_id)
        permissions.require(user, Can.NEXT_ROUND, match)
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


def table_new_match(*, match_id: int, user: Any, request_id: str) -> Match:
    """R29: after a match is over, its creator starts a new one at the same table: the same
    seats and length (R31), a new random deal, round 1 (12-12, or the shorter match's first
    double) and totals at zero. The old match and its log stay as they are. Asking again gives
    the same new match."""
    with transaction.atomic():
        old = _lock(match_id)
        permissions.require(user, Can.NEW_MATCH, old)
        following = Match.objects.filter(table_id=old.table_id, number__gt=old.number).order_by(
            "number"
        )
        if _seen(old, user, request_id) is not None:
            return following.get(number=old.number + 1)
        if old.status != Match.Status.FINISHED:
            raise GameError(ILLEGAL, sentence("new_match_after"), rule="R29")
        new = following.first()
        if new is None:
            rows = [(s.kind, s.user, s.name, s.level) for s in _seats(old)]
            new = _new_match(
                table=old.table,
                number=old.number + 1,
                creator=user,
                seats=rows,
                seed=_new_seed(None),
                listed=old.listed,
                pace=old.pace,
                away_limit=old.away_limit,
                rounds=old.length,
            )
        # The old match's table page learns of the new one through its own version.
        _commit(old, old.version + 1, user=user, request_id=request_id)
        return new


# ---------------------------------------------------------------- computer players and pauses


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


def pace_set(*, match_id: int, user: object, pace: object, request_id: str) -> Result:
    """A seated person sets how fast the computers of the match move (Match.Pace); everyone
    at the table sees the new pace with the new version. Spectators and strangers cannot."""
    return setting_set(
        match_id=match_id,
        user=user,
        request_id=request_id,
        field="pace",
        value=pace,
        unknown=_pace_unknown(),
        over=sentence("computers_stopped"),
        same=sentence("same_pace"),
    )


def seated_change(
    *,
    match_id: int,
    user: object,
    request_id: str,
    action: Can,
    change: Callable[[Match, list[Seat]], None],
    seat: int | None = None,
) -> Result:
    """A change of the table made by a person at it (a setting, a computer standing in for a
    seat), in one transaction: the match locked, `action` allowed to `user` (for `seat`:
    games.permissions), a repeated request id answered with its result, then
    `change(match, seats)` — it refuses with a GameError, having written nothing, or writes
    its rows and sets what changed on `match` — and the match's next version committed. A
    "skip to my turn" (`hurry_start`, itself such a change) goes on through one."""
    with transaction.atomic():
        match = _lock(match_id)
        seats = _seats(match)
        permissions.require(user, action, match, seat=seat, seats=seats)
        seen = _seen(match, user, request_id)
        if seen is not None:
            return seen
        change(match, seats)
        return _commit(
            match, match.version + 1, user=user, request_id=request_id, hurry=match.hurry
        )


def setting_set(
    *,
    match_id: int,
    user: object,
    request_id: str,
    field: TableSetting,
    value: object,
    unknown: str,
    over: str,
    same: str,
) -> Result:
    """A seated person (games.permissions PACE) sets one of the table's settings, `field`
    (a column of Match with choices: `pace_set`, `standin.away_limit_set`), to `value`.
    Refused, changing nothing, in the caller's words: a value not among the field's
    choices (`unknown`: bad_request), a finished match (`over`: illegal), the table's
    setting already (`same`: bad_request). Everyone at the table sees it with the new version."""
    column = cast("Field[Any, Any]", Match._meta.get_field(field))  # a column, not a relation
    allowed = {choice for choice, _label in column.choices or ()}

    def change(match: Match, seats: list[Seat]) -> None:
        if not isinstance(value, str) or value not in allowed:
            raise GameError(BAD_REQUEST, unknown)
        if match.status == Match.Status.FINISHED:
            raise GameError(ILLEGAL, over)
        if value == getattr(match, field):
            raise GameError(BAD_REQUEST, same)
        setattr(match, field, value)
        columns: dict[str, str] = {field: value}
        Match.objects.filter(pk=match.pk).update(**columns)

    return seated_change(
        match_id=match_id, user=user, request_id=request_id, action=Can.PACE, change=change
    )


def hurry_start(*, match_id: int, user: object, request_id: str) -> Result:
    """ "Skip to my turn": a seated person has the computers play at once, with no wait
    between their moves, until a person of the table is to act again (`computer_step`
    then returns the match to its pace). Only while a computer is to act."""

    def change(match: Match, seats: list[Seat]) -> None:
        state = _started(match)
        if (
            match.status == Match.Status.FINISHED
            or state.turn is None
            or not seats[state.turn].computer_plays
        ):
            raise GameError(ILLEGAL, sentence("no_computer_due"))
        if match.hurry:
            raise GameError(BAD_REQUEST, sentence("hurrying_already"))
        match.hurry = True  # committed with the next version (`seated_change` keeps match.hurry)

    return seated_change(
        match_id=match_id, user=user, request_id=request_id, action=Can.PACE, change=change
    )


def autodraw_set(*, match_id: int, user: object, on: bool) -> bool:
    """A player at the match turns "draw and pass for me when I have no play" on or off. It is
    kept on their account (accounts.models.Preferences, guests too), so every table and
    browser of theirs follows it; the match itself does not change (no new version)."""
    from accounts.models import Preferences

    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise GameError(NOT_FOUND, sentence("no_such_match"))
    permissions.require(user, Can.PREFER, match)
    Preferences.objects.update_or_create(user=user, defaults={"autodraw": bool(on)})
    return bool(on)


def autodraw_of(user: object) -> bool:
    """Whether `user` (None: nobody signed in) has "draw and pass for me" on."""
    from accounts.models import Preferences

    user_id = permissions.user_id(user)
    if user_id is None:
        return False
    return Preferences.objects.filter(user_id=user_id, autodraw=True).exists()


def pause_open(*, match_id: int, user: Any, channel: str) -> bool:
    """R26: a player opened the rules or the log: computer players wait. Saying so again
    renews the pause (the page does every `PAUSE_RENEW` while the panel is open; a pause
    not renewed within `PAUSE_TIMEOUT` has expired). True when this started the pause."""
    if not isinstance(channel, str) or not 1 <= len(channel) <= 200:
        raise GameError(BAD_REQUEST, sentence("pause_connection"))
    now = timezone.now()
    user_pk = getattr(user, "pk", None)
    if user_pk is not None and Pause.objects.filter(
        match_id=match_id,
        channel=channel,
        user_id=user_pk,
        alive_at__gte=now - PAUSE_TIMEOUT,
    ).update(alive_at=now):
        return False  # a renewal of this connection's live pause: no lock, no notice
    with transaction.atomic():
        match = _lock(match_id)
        permissions.require(user, Can.PAUSE, match, seats=_seats(match))
        was_paused = _pause_active(match)
        Pause.objects.filter(match=match, channel=channel).delete()
        Pause.objects.create(match=match, channel=channel, user=user)
        if not was_paused:
            match_pk = match.pk
            transaction.on_commit(lambda: notify.match_paused(match_pk, True))
        return not was_paused


def pause_close(*, match_id: int, channel: str) -> bool:
    """R26: the panel (or the connection) closed. True when the computers may play again."""
    with transaction.atomic():
        match = _lock(match_id)
        deleted, _rows = Pause.objects.filter(match=match, channel=channel).delete()
        if deleted and not _pause_active(match):
            match_pk = match.pk
            transaction.on_commit(lambda: notify.match_paused(match_pk, False))
            return True
        return False


def pauses_expire(*, everything: bool = False) -> list[int]:
    """Delete the pauses that no longer count (R26: not renewed within `PAUSE_TIMEOUT`;
    with `everything`, all of them: a single server process starting up holds no
    connection yet) and tell each table whose computers may play again. The computer
    worker calls this at start-up and now and then. The ids of the matches resumed."""
    with transaction.atomic():
        stale = (
            Pause.objects.all()
            if everything
            else Pause.objects.filter(alive_at__lt=timezone.now() - PAUSE_TIMEOUT)
        )
        matches = set(stale.values_list("match_id", flat=True))
        if not matches:
            return []
        stale.filter(match_id__in=matches).delete()
        live = set(
            Pause.objects.filter(
                match_id__in=matches, alive_at__gte=timezone.now() - PAUSE_TIMEOUT
            ).values_list("match_id", flat=True)
        )
        resumed = sorted(matches - live)
        for pk in resumed:
            transaction.on_commit(partial(notify.match_paused, pk, False))
        return resumed
