"""What every board of a match reads from the database, read once per version of the match.

A board (games/table/board.py) shows, besides the match row's engine snapshot and its
seats: the points of the finished rounds (R21), Undo and Redo from the current
round's log (R27) and that log's last line, whether the computer players wait
(R26) and, once the match is over, the next match at the table (R29). All of it is
the same for every viewer of the match at one version; what each viewer may see of
the snapshot is decided afterwards, per viewer, by `engine.views.view` (R24).

All of it is read in one transaction at REPEATABLE READ (`snapshot`), so a board
never mixes versions: a change committed between two of its reads is not seen by the
later ones either (one frame in 1,427 showed a version label with the
last line of the next version). An undo or restart waiting for the others' answers
(`games.models.ChangeRequest`) is read with them.

Every change to a match raises its version (games.services), so the reads of
version v hold until v + 1 — except the pause, which starts and ends without a new
version and has a notice of its own (`games.notify.match_paused`).

- `read(match)` reads them now, for a match the caller loaded.
- `current(match_id, at_least=v)` is what the table's websocket uses. Every
  connection at a table is told "version v" at the same moment and would read the
  same rows; in one server process the first one reads them and the others take
  its reads (one `BoardReads` kept per match, the latest version read). A caller
  that does not know which version it needs (a new connection, "sync", after an
  error or a pause notice) passes ``at_least=None`` and reads afresh, which also
  replaces what is kept.
- `advance(reads, notice)` derives the next version's reads from the version before and
  the notice's public log entries (no database read for a version a table's
  hub can derive; games.table.hub), or None when it cannot be sure: anything but plain
  actions (undo, redo, restart, a new round, a request to answer), a gap, a round or
  match ending. `keep(reads)` gives them to the connections as if read.
"""

from __future__ import annotations

import contextlib
import copy
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any, NamedTuple, TypeVar, cast

from django.contrib.auth import get_user_model
from django.db import connection, router, transaction
from django.db.models import Field
from django.utils import timezone

from games import log
from games.models import ChangeRequest, LogEntry, Match, Round, Seat, from_row
from games.reads import selectors

T = TypeVar("T")

#: matches whose reads a server process keeps at most (the least recently read go first)
KEEP = 1024
#: seconds kept reads are given out: long enough for every connection told of a version,
#: short enough that nothing lingers (a match id never comes back, but a database may be
#: replaced under a running server)
KEEP_SECONDS = 5.0


class Line(NamedTuple):
    """One log entry as the board reads it: the columns the fold (`games.log.Entry` and
    `Played`, R27) and the last line (`games.board.words.log_line`) use, and its user's name."""

    id: int
    round_id: int
    seq: int
    kind: str
    seat: int | None
    action: Any
    user_id: int | None
    by_computer: bool
    version: int
    username: str | None


@dataclass(frozen=True)
class BoardReads:
    #: the match and its seats (with their users) loaded
    match: Match
    paused: bool
    #: (round number, penalty points of each seat) of every finished round, oldest first
    history: tuple[tuple[int, tuple[int, ...]], ...]
    #: the match's latest log entry (with its user's name), for the board's last line
    last: LogEntry | None
    #: the current round's log folded (R27), while the match is being played
    folded: log.Folded[Line] | None
    #: the next match at this table, once this one is over (R29)
    following: Match | None
    #: the undo or restart asked of the others at the table, while it waits for answers
    ask: ChangeRequest | None = None
    #: the current round's log (what the update frames' events are made from)
    lines: tuple[Line, ...] = ()
    #: when it was read (time.monotonic)
    read_at: float = field(default_factory=time.monotonic, compare=False)
    #: what the boards of this version work out the same for every viewer (`once`)
    shared: dict[object, Any] = field(default_factory=dict, compare=False, repr=False)

    def once(self, key: object, make: Callable[[], T]) -> T:
        """`make()`, made once for every board of this version (games.table.board: the parsed
        snapshot, the public view, the seats' names in a language). Two connections'
        threads may both make it; they make the same, and one is kept."""
        try:
            return cast(T, self.shared[key])
        except KeyError:
            value = self.shared[key] = make()
            return value

    @property
    def version(self) -> int:
        return int(self.match.version)


# The reads run for every version of every match, so their statements are written out
# in SQL: the ORM spent more CPU building and compiling them (~0.6-1 ms each on the load
# benchmark's machine) than running them takes, and built ~130 model instances from a
# round's log. They read the rows and columns the ORM queries they replaced did.

#: `Line`'s columns but the user's name: LogEntry's fields in the model's order (see `_entry`)
_ENTRY = [cast("Field[Any, Any]", LogEntry._meta.get_field(name)) for name in Line._fields[:-1]]
_ACTION = LogEntry._meta.get_field("action")
_POINTS = Round._meta.get_field("points")
_MATCH = Match._meta.concrete_fields
_SEAT = Seat._meta.concrete_fields


def _columns(alias: str, fields: Any) -> str:
    return ", ".join(f'{alias}."{f.column}"' for f in fields)


@cache
def _statements() -> dict[str, str]:
    """The SQL of the reads (built once: the user model is known once the apps are loaded)."""
    user = get_user_model()
    users, pk, name = (
        user._meta.db_table,
        user._meta.pk.column,
        cast("Field[Any, Any]", user._meta.get_field(user.USERNAME_FIELD)).column,
    )
    line = f'{_columns("l", _ENTRY)}, u."{name}" FROM games_logentry l LEFT JOIN "{users}" u ON u."{pk}" = l.user_id'
    return {
        "match": f"SELECT {_columns('m', _MATCH)}, EXISTS (SELECT 1 FROM games_pause p"
        " WHERE p.match_id = m.id AND p.alive_at >= %s),"
        " EXISTS (SELECT 1 FROM games_changerequest r WHERE r.match_id = m.id AND r.status = 'open'"
        " AND r.expires_at > %s) FROM games_match m WHERE m.id = %s",
        "seats": f"SELECT {_columns('s', _SEAT)}, {_columns('u', user._meta.concrete_fields)} FROM games_seat s"
        f' LEFT JOIN "{users}" u ON u."{pk}" = s.user_id WHERE s.match_id = %s ORDER BY s."index"',
        "rounds": "SELECT number, points, id FROM games_round WHERE match_id = %s ORDER BY number",
        "log": f"SELECT {line} WHERE l.round_id = %s ORDER BY l.seq",
        "latest": f"SELECT {line} JOIN games_round r ON r.id = l.round_id WHERE r.match_id = %s"
        " ORDER BY r.number DESC, l.seq DESC LIMIT 1",
    }


def _rows(name: str, params: list[Any]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(_statements()[name], params)
        return cursor.fetchall()


def _lines(name: str, params: list[Any]) -> list[Line]:
    """Log entries as `Line`s: a few columns each, no model instances (a round's log is read
    on every version and may hold a hundred entries)."""
    action = Line._fields.index("action")
    return [
        Line._make(
            row[:action]
            + (_ACTION.from_db_value(row[action], None, connection),)  # type: ignore[arg-type]  # no key transform
            + row[action + 1 :]
        )
        for row in _rows(name, params)
    ]


def _entry(line: Line) -> LogEntry:
    """The LogEntry of `line`, with its user as far as read (the name); what it did not read,
    such as the time, is loaded if asked for."""
    db = router.db_for_read(LogEntry)
    entry = LogEntry.from_db(db, [f.attname for f in _ENTRY], line[: len(_ENTRY)])
    if line.user_id is None:
        entry.user = None
    else:
        user = get_user_model()
        entry.user = user.from_db(
            db, [user._meta.pk.attname, user.USERNAME_FIELD], [line.user_id, line.username]
        )
    return entry


def read(match: Match, *, paused: bool | None = None) -> BoardReads:
    """The reads of `match` as it is now (its seats are read too unless prefetched); the
    pause (R26) is read too unless given or loaded with the match (`_load`)."""
    if paused is None:
        paused = getattr(match, "paused_now", None)
    rounds = _rows("rounds", [match.pk])
    history = tuple(
        (number, tuple(_POINTS.from_db_value(points, None, connection)))  # type: ignore[arg-type]  # no key transform
        for number, points, _id in rounds
        if points is not None
    )
    current = next((pk for number, _points, pk in rounds if number == match.round_number), None)
    lines: list[Line] = []
    if match.state is not None and current is not None:
        lines = _lines("log", [current])
    last = lines[-1] if lines else None
    if last is None and rounds:
        # A round just started: the last line is the previous round's end.
        latest = _lines("latest", [match.pk])
        last = latest[0] if latest else None
    playing = match.state is not None and match.status == Match.Status.PLAYING
    over = match.state is not None and match.state.get("phase") == "match_over"
    return BoardReads(
        match=match,
        paused=selectors.paused(match) if paused is None else paused,
        history=history,
        last=_entry(last) if last is not None else None,
        folded=log.fold(lines) if playing else None,
        following=selectors.next_match(match) if over else None,
        # read only when the match row said one is open (`_load`), or when it was not asked
        ask=selectors.open_request(match.pk)
        if playing and getattr(match, "asking_now", True)
        else None,
        lines=tuple(lines),
    )


@contextlib.contextmanager
def snapshot() -> Iterator[None]:
    """The reads inside see the database as it was at their first statement: one read-only
    transaction at REPEATABLE READ. Inside a transaction already (a service, a test's),
    that transaction's view is kept as it is."""
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def _load(match_id: int) -> Match | None:
    """The match with its seats and their users (``match.seat_list``, see
    `selectors.match_seats`), whether a pause is on (R26: `paused_now`) and whether
    an undo or restart request waits for answers (`asking_now`)."""
    now = timezone.now()
    found = _rows("match", [now - selectors.PAUSE_TIMEOUT, now, match_id])
    if not found:
        return None
    match = from_row(Match, _MATCH, found[0][:-2])
    match.paused_now, match.asking_now = found[0][-2:]  # type: ignore[attr-defined]  # read with the match
    user = get_user_model()
    seats = []
    for row in _rows("seats", [match_id]):
        seat = from_row(Seat, _SEAT, row[: len(_SEAT)])
        seat.user = (
            None
            if seat.user_id is None
            else from_row(user, user._meta.concrete_fields, row[len(_SEAT) :])
        )
        seats.append(seat)
    # No reference from the seats back to the match (a cycle would leave every version's
    # reads, the parsed snapshot with them, to the cycle collector: tests/tablesite/test_gc.py).
    # The seats travel with the match as a plain list (`selectors.match_seats` takes it):
    # Django has no public way to hand rows read here to ``match.seats.all()``.
    match.seat_list = seats  # type: ignore[attr-defined]  # as selectors.match_seats reads them
    return match


_lock = threading.Lock()
_kept: OrderedDict[int, BoardReads] = OrderedDict()
#: one reader at a time per match: the others wait for its reads instead of repeating them
_readers: dict[int, threading.Lock] = {}


def current(match_id: int, *, at_least: int | None) -> BoardReads | None:
    """The reads of the match at version `at_least` or later (None: read afresh);
    None when the match does not exist."""
    with _lock:
        reader = _readers.setdefault(match_id, threading.Lock())
    with reader:
        if at_least is not None:
            with _lock:
                kept = _kept.get(match_id)
            if (
                kept is not None
                and kept.version >= at_least
                and time.monotonic() - kept.read_at < KEEP_SECONDS
            ):
                return kept
        with snapshot():
            match = _load(match_id)
            if match is None:
                return None
            reads = read(match)
        with _lock:
            kept = _kept.get(match_id)
            # The match's shared parts as last rendered go on from version to version (most
            # stay the same from one move to the next: games.board.parts.shared_parts).
            rows = kept.shared.get("rows") if kept is not None else None
            reads.shared["rows"] = rows if rows is not None else {}
            if kept is None or reads.version >= kept.version:
                if kept is not None and kept.version < reads.version and "public" in kept.shared:
                    # The public view of the version before, for the events between them
                    # (games.table.board.events_since); only the view, so no chain of reads.
                    reads.shared["before"] = (kept.version, kept.shared["public"])
                _kept[match_id] = reads
                _kept.move_to_end(match_id)
            # Drop what is no longer given out (oldest first), so idle matches hold no memory.
            while _kept:
                oldest, first = next(iter(_kept.items()))
                if len(_kept) <= KEEP and time.monotonic() - first.read_at < KEEP_SECONDS:
                    break
                del _kept[oldest]
                _readers.pop(oldest, None)
        return reads


def advance(reads: BoardReads, notice: dict[str, Any]) -> BoardReads | None:
    """The reads of the version `notice` (a ``match.changed`` message, games.notify) tells of,
    made from `reads` (the version before) by applying its log entries with the engine, as
    the service that logged them did (R27: the engine is deterministic, so this equals a
    fresh read: tests/games/table/socket/test_hub.py). None when that is not certain: the entries
    are not exactly the next ones of the current round (a gap, another kind of entry), an
    undo or restart is being asked, the match is not being played or the round ends."""
    from engine.replay import BadReplay, parse_action
    from engine.rules import apply
    from engine.serialize import state_to_json
    from engine.state import IllegalAction

    raw = notice.get("entries")
    match = reads.match
    if (
        not raw
        or not isinstance(raw, list)
        or reads.folded is None
        or reads.ask is not None
        or getattr(match, "asking_now", False)
        or match.state is None
        or match.status != Match.Status.PLAYING
        or notice.get("version") != reads.version + len(raw)
    ):
        return None
    try:
        lines = [Line(*entry) for entry in raw]
    except TypeError:
        return None
    seq = reads.lines[-1].seq if reads.lines else 0
    round_id = reads.lines[-1].round_id if reads.lines else None
    state = reads.once("state", lambda: selectors.match_state(match))
    for n, line in enumerate(lines, start=1):
        if (
            line.kind != log.ACTION
            or line.seq != seq + n
            or line.version != reads.version + n
            or (round_id is not None and line.round_id != round_id)
        ):
            return None
        try:
            state = apply(state, parse_action(line.action, len(state.hands)))
        except (BadReplay, IllegalAction, ValueError, TypeError):
            return None
        if state.over:
            return None  # the round's result, the history, the match's end: read them
    after = copy.copy(match)  # the row with the new version (its seats, as read, go along)
    after.version, after.state = int(notice["version"]), state_to_json(state)
    if isinstance(notice.get("hurry"), bool):
        after.hurry = notice["hurry"]
    every = (*reads.lines, *lines)
    derived = BoardReads(
        match=after,
        paused=reads.paused,
        history=reads.history,
        last=_entry(every[-1]),
        folded=log.fold(every),
        following=None,
        ask=None,
        lines=every,
    )
    derived.shared["state"] = state
    derived.shared["rows"] = reads.shared.get("rows", {})
    # moves change nobody's seat: what each viewer may do goes on (games.table.board.match_flags)
    derived.shared["powers"] = reads.shared.setdefault("powers", {})
    if "public" in reads.shared:
        derived.shared["before"] = (reads.version, reads.shared["public"])
    return derived


def keep(reads: BoardReads) -> None:
    """Give `reads` (made by `advance`) to the connections asking for its version, unless
    newer ones are kept already."""
    with _lock:
        kept = _kept.get(reads.match.pk)
        if kept is None or reads.version >= kept.version:
            _kept[reads.match.pk] = reads
            _kept.move_to_end(reads.match.pk)


def latest(match_id: int) -> BoardReads | None:
    """The newest reads kept of a match, however old (a table's hub holds on to them)."""
    with _lock:
        return _kept.get(match_id)


def forget() -> None:
    """Drop everything kept (tests; a server never needs to)."""
    with _lock:
        _kept.clear()
        _readers.clear()
