"""What every board of a match reads from the database, read once per version of the match.

A board (games/board.py) shows, besides the match row's engine snapshot and its
seats: the points of the finished rounds (R21), Undo and Redo from the current
round's log (R27) and that log's last line, whether the computer players wait
(R26) and, once the match is over, the next match at the table (R29). All of it is
the same for every viewer of the match at one version; what each viewer may see of
the snapshot is decided afterwards, per viewer, by `engine.views.view` (R24).

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
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.db import router
from django.db.models import Exists, OuterRef, Prefetch, QuerySet
from django.utils import timezone

from games import log, selectors
from games.models import LogEntry, Match, Pause, Round, Seat

#: matches whose reads a server process keeps at most (the least recently read go first)
KEEP = 1024
#: seconds kept reads are given out: long enough for every connection told of a version,
#: short enough that nothing lingers (a match id never comes back, but a database may be
#: replaced under a running server)
KEEP_SECONDS = 5.0


class Line(NamedTuple):
    """One log entry as the board reads it: the columns the fold (`games.log.Entry` and
    `Played`, R27) and the last line (`games.board.log_line`) use, and its user's name."""

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


#: `Line`'s columns up to `version` are LogEntry's fields in the model's order (see `_entry`)
_ENTRY_FIELDS = Line._fields[:-1]


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
    #: when it was read (time.monotonic)
    read_at: float = field(default_factory=time.monotonic, compare=False)

    @property
    def version(self) -> int:
        return int(self.match.version)


def _lines(entries: QuerySet[LogEntry]) -> list[Line]:
    """The entries as `Line`s: a few columns each, no model instances (a round's log is
    read on every version and may hold a hundred entries)."""
    username = "user__" + get_user_model().USERNAME_FIELD
    return list(map(Line._make, entries.values_list(*_ENTRY_FIELDS, username)))


def _entry(line: Line) -> LogEntry:
    """The LogEntry of `line`, as a query loading its columns and its user's name would give it
    (what it did not read, such as the time, is loaded if asked for)."""
    db = router.db_for_read(LogEntry)
    entry = LogEntry.from_db(db, _ENTRY_FIELDS, line[:len(_ENTRY_FIELDS)])
    if line.user_id is not None:
        user = get_user_model()
        entry.user = user.from_db(db, [user._meta.pk.attname, user.USERNAME_FIELD], [line.user_id, line.username])
    else:
        entry.user = None
    return entry


def read(match: Match, *, paused: bool | None = None) -> BoardReads:
    """The reads of `match` as it is now (its seats are read too unless prefetched)."""
    rounds = list(Round.objects.filter(match=match).order_by("number").values_list("number", "points", "id"))
    history = tuple((number, tuple(points)) for number, points, _id in rounds if points is not None)
    current = next((pk for number, _points, pk in rounds if number == match.round_number), None)
    lines: list[Line] = []
    if match.state is not None and current is not None:
        lines = _lines(LogEntry.objects.filter(round_id=current).order_by("seq"))
    last = lines[-1] if lines else None
    if last is None and rounds:
        # A round just started: the last line is the previous round's end.
        latest = _lines(LogEntry.objects.filter(round__match=match).order_by("-round__number", "-seq")[:1])
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
    )


def _load(match_id: int) -> Match | None:
    """The match with its seats and their users, and whether a pause is on (R26)."""
    since = timezone.now() - selectors.PAUSE_TIMEOUT
    return (Match.objects
            .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
            .annotate(paused_now=Exists(Pause.objects.filter(match=OuterRef("pk"), created_at__gte=since)))
            .filter(pk=match_id).first())


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
            if (kept is not None and kept.version >= at_least
                    and time.monotonic() - kept.read_at < KEEP_SECONDS):
                return kept
        match = _load(match_id)
        if match is None:
            return None
        reads = read(match, paused=bool(match.paused_now))
        with _lock:
            kept = _kept.get(match_id)
            if kept is None or reads.version >= kept.version:
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


def forget() -> None:
    """Drop everything kept (tests; a server never needs to)."""
    with _lock:
        _kept.clear()
        _readers.clear()
