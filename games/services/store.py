"""The store kernel every change goes through: the match row locked, the checks all the
services share, the round's append-only log, the new snapshot stored, the version committed
and announced. The services' modules import it; it imports none of them.

- statements: the ones every action runs are written out in SQL (the lock; the seats, the
  request id and the round read in one statement after it; the log entry, the undo point,
  the match row and the request id written in one);
- checks (their order: games.services): 1. `_lock` (not_found; `_lock_for_action` reads
  what an action needs with it), 3. `_seen` (a repeated request id answered with its
  result), 4. `_fresh` (stale), 5. `_started` (not_started); `_seats` and `_user_id` for
  the seat checks; the refusals the services share, in words (`_refused`,
  `refused_by_engine`, `_pace_unknown`);
- writing: `_current_round`, `_append` (`log_entry`: a command's own line), `_store`
  (`store_state`: the snapshot on the match, the round's result kept in step with it, R21,
  R22), `_logged` (a change's action entries for its notice, public only: R24), `_commit`
  (the match at its new version, the request id remembered) and `_announce` (games.notify,
  after commit);
- `Result`: what a change produced.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, cast

from django.db import connection, transaction
from django.db.models import Field
from django.utils import timezone

from accounts.sessions import SessionCheck, SessionEnded
from engine.serialize import state_from_json, state_to_json
from engine.state import Action, IllegalAction, RoundState
from games import log, notify, signals
from games.errors import BAD_REQUEST, ILLEGAL, NOT_FOUND, NOT_STARTED, STALE, GameError
from games.models import ChangeRequest, Match, Round, Seat, from_row
from games.words import refusal, sentence

MAX_REQUEST_ID = 64


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
    #: repeated request id is answered with the request's true state
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
_SEAT_FIELDS = Seat._meta.concrete_fields
_SEATS = 'SELECT {} FROM games_seat WHERE match_id = %s ORDER BY "index"'.format(
    ", ".join(f'"{f.column}"' for f in _SEAT_FIELDS)
)
#: the Round columns a change reads, in the model's order (the deal, `start`, loads only if asked for)
_ROUND_FIELDS = [
    cast("Field[Any, Any]", Round._meta.get_field(name))  # columns all
    for name in ("id", "match", "number", "ended_by", "points", "totals", "restarts", "ended_at")
]


#: what `action_submit` reads (1.-3.), in the statement that locks the match: the match, the
#: request id's earlier result if any, the current round with its log's last sequence number,
#: and the seats in order, as one JSON array of their columns; then the locked row's xmin and
#: the xmin of the row this statement's snapshot sees. A statement that waited for the lock
#: locks the row as the other transaction left it, but reads everything else as it was
#: before: the two xmins then differ, and `_READ_FOR_ACTION` reads the rest again. (Every
#: change under a match's lock writes the match row: it raises the version.) ``{session}``:
#: a connection's session check joined in (accounts.sessions.SessionCheck.joined), or nothing.
_SEATS_JSON = (
    "(SELECT json_agg(json_build_array("
    + ", ".join(f's."{f.column}"' for f in _SEAT_FIELDS)
    + ') ORDER BY s."index") FROM games_seat s WHERE s.match_id = m.id)'
)
_ROUND_COLUMNS = (
    ", ".join(f'r."{f.column}"' for f in _ROUND_FIELDS)
    + ", (SELECT max(seq) FROM games_logentry WHERE round_id = r.id)"
)
_LOCK_FOR_ACTION = (
    f"SELECT {_MATCH_COLUMNS}, c.user_id, c.version, c.match_id IS NOT NULL, {_ROUND_COLUMNS}"
    f", {_SEATS_JSON}, m.xmin::text, (SELECT xmin::text FROM games_match WHERE id = m.id)"
    "{session_columns}"
    " FROM games_match m"
    " LEFT JOIN games_clientrequest c ON c.match_id = m.id AND c.request_id = %s"
    " LEFT JOIN games_round r ON r.match_id = m.id AND r.number = m.round_number"
    "{session}"
    " WHERE m.id = %s FOR UPDATE OF m"
)


@cache
def _lock_for_action_statement(session: str) -> str:
    """`_LOCK_FOR_ACTION` with `session` (a ``LEFT JOIN LATERAL`` giving ``sc``, or "")
    joined in: built once for each."""
    columns = ", sc.*" if session else ""
    return _LOCK_FOR_ACTION.format(session_columns=columns, session=session)


#: the same reads after the lock, when the lock's statement waited (see above)
_READ_FOR_ACTION = (
    f"SELECT c.user_id, c.version, c.match_id IS NOT NULL, {_ROUND_COLUMNS}, {_SEATS_JSON}"
    " FROM (SELECT %s::bigint AS id) m"
    " LEFT JOIN games_clientrequest c ON c.match_id = m.id AND c.request_id = %s"
    " LEFT JOIN games_round r ON r.match_id = m.id AND r.number = %s"
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


def _match_pk(match_id: object) -> int:
    """The match's primary key as the ORM would make it of `match_id` (not_found otherwise)."""
    try:
        return int(match_id)  # type: ignore[call-overload]  # what the ORM makes of a primary key
    except (ValueError, TypeError):
        raise GameError(NOT_FOUND, sentence("no_such_match")) from None


def _lock(match_id: object) -> Match:
    """1. The match exists; lock its row for the rest of the transaction (SELECT ... FOR UPDATE)."""
    row = _row(_LOCK, [_match_pk(match_id)])
    if row is None:
        raise GameError(NOT_FOUND, sentence("no_such_match"))
    return from_row(Match, _MATCH_FIELDS, row)


def _lock_for_action(
    match_id: object, request_id: object, session: SessionCheck | None = None, user: object = None
) -> tuple[Match, tuple[Any, ...], Round | None, list[Seat]]:
    """`_lock`, with what `_seen`, `_current_round` and `_seats` would read, in one statement
    (two when it waited for the lock): the match, the request id's earlier (user id, version,
    found), the current round (None before the match starts) and the seats in order.
    `session`: the acting connection's session, checked in the same statement before anything
    else (raises `SessionEnded` when it no longer signs in `user`: nothing is changed)."""
    pk = _match_pk(match_id)
    rid = request_id if isinstance(request_id, str) else None
    joined = session.joined() if session is not None else None
    if joined is not None:
        sql, params = joined
        row = _row(_lock_for_action_statement(sql), [rid, *params, pk])
    else:
        row = _row(_lock_for_action_statement(""), [rid, pk])
    if row is None:
        raise GameError(NOT_FOUND, sentence("no_such_match"))
    width = len(_MATCH_FIELDS)
    match = from_row(Match, _MATCH_FIELDS, row[:width])
    read_end = width + 3 + len(_ROUND_FIELDS) + 2
    read = row[width:read_end]
    locked_xmin, seen_xmin = row[read_end], row[read_end + 1]
    if session is not None:
        checked = session.judge(row[read_end + 2 :]) if joined is not None else session.user_id()
        if checked is None or checked != _user_id(user):
            raise SessionEnded
    if locked_xmin != seen_xmin:  # it waited for the lock: the rest as the other left it
        again = _row(_READ_FOR_ACTION, [match.pk, rid, match.round_number])
        assert again is not None
        read = again
    seen, rest, seats = read[:3], read[3:-1], read[-1]
    rnd = None
    if rest[0] is not None:
        rnd = from_row(Round, _ROUND_FIELDS, rest[:-1])
        rnd.last_seq = rest[-1]
    return match, seen, rnd, [from_row(Seat, _SEAT_FIELDS, values) for values in seats or ()]


def _user_id(user: object) -> int | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return getattr(user, "pk", None)


def _seats(match: Match) -> list[Seat]:
    return [from_row(Seat, _SEAT_FIELDS, row) for row in _rows(_SEATS, [match.pk])]


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


def _refused(match: Match, e: IllegalAction, me: int | None) -> GameError:
    """The engine's refusal in the player's words (games.words), seats named as at the table."""
    names = [s.display_name for s in _seats(match)]
    return GameError(
        ILLEGAL, refusal(e.code, e.params, names=names, me=me), rule=e.rule, reason=e.code
    )


def refused_by_engine(match: Match, e: IllegalAction) -> GameError:
    """An engine refusal of a change of the table (no seat's): in words (games.words)."""
    return _refused(match, e, None)


def _pace_unknown() -> str:
    return sentence("paces")


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
    """Append one entry to the round's log (the match row lock makes the next seq safe); its id.
    Its `kind` must be registered (games.log.kind: `UnknownKind` otherwise, nothing written)."""
    log.kind(kind)
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
    notify after commit. A person's change ends a "skip to my turn" (games.table.commands.skip)
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


def _announce(match: Match, version: int, *, computer_next: bool = True) -> Result:
    """Tell the table of `version` after commit, with the entries it logged if it only played
    actions (`_logged`) and the match's new "skip to my turn" flag; `computer_next`: False
    when a person is surely the one to act next (the computers' loop is not woken)."""
    match_id, entries, hurry = match.pk, tuple(getattr(match, "logged", ())), bool(match.hurry)
    match.logged = []  # type: ignore[attr-defined]  # not a column (`_logged`)
    transaction.on_commit(
        lambda: notify.match_changed(
            match_id, version, entries=entries, hurry=hurry, computer_next=computer_next
        )
    )
    return Result(match_id, version)
