"""The computers' loop (R25, R26): each pass acts in every match where a computer is due.

Each pass asks the database which matches wait for a computer player
(`selectors.matches_awaiting_computer`) and lets `services.computer_step` take one
action in each match whose last change is old enough for the match's pace
(`Match.pace`: relaxed 1.5 s, normal `COMPUTER_DELAY` = 0.6 s, fast 0.25 s, instant 0,
all scaled by `COMPUTER_DELAY`, which is 0 in tests), so people can follow the moves
one at a time; a match whose people asked to skip to their turn (`Match.hurry`) gets
no wait at all until a person is to act again. Nothing is kept in memory between passes,
so a restarted server, or another process, carries on from where the database is.

Several processes may run this loop at once (one per server process, plus
``manage.py run_computers``): the delay is checked on the locked match row
(``FOR UPDATE SKIP LOCKED``), so only one of them acts and the pace holds between
processes too. A paused match (someone has the rules or the log open, R26) is
left alone by `computer_step` until the pause ends.

Between passes it waits `poll` seconds at most (0.25 s; 1 s for the loop inside the one
server process of the in-memory layer), or less when a computer's move comes due sooner,
or until a match's notice wakes it (`ComputerWorker.poke`; then not sooner than
`POKED_GAP` after its last pass), so a person's move is answered at once and an idle
server does not ask four times a second. Its database work runs in one thread of its own.

On the same loop, other things come due: pauses (R26) that outlived their connection are
deleted every `EXPIRE_EVERY` seconds (`services.pauses_expire`) and their tables told (a
single server process starting up deletes them all: no connection of its own holds one
yet); the same goes for the table connections' presence rows (games.attendance.presence); the tables
where a seat's away limit just passed are told, so their pages offer to let a computer play
it (games.attendance.standin); requests asked of the others past their minute are closed every
`REQUESTS_EVERY` seconds (`services.requests_expire`), so every board shows the expiry on
time; and `signals.worker_pass` is sent (turn e-mails, games.history).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from functools import cache
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import (
    InterfaceError,
    OperationalError,
    close_old_connections,
    connection,
    transaction,
)
from django.db.models import Max
from django.utils import timezone

from games import services, signals
from games.attendance import presence, standin
from games.models import PACE_SECONDS, Match, Pause, Seat
from games.processes import servers, trace
from games.reads import selectors
from games.worker.leader import keep_claim

logger = logging.getLogger(__name__)

#: seconds between two computer actions of one match (settings.COMPUTER_DELAY)
DEFAULT_DELAY = 0.6
#: seconds between two looks at the database when nothing is due
DEFAULT_POLL = 0.25
#: the same for the loop inside the one server process of the in-memory layer: every change
#: made there wakes it at once (`poke`, from the match's notice), so it looks only for what
#: nothing announces (a change made by another process, e.g. ``manage.py shell``). An idle
#: pass costs ~2-4 ms of CPU; four a second were most of an idle server's CPU (bench/load.py).
IDLE_POLL = 1.0
#: woken by notices, the loop still makes at most one pass per this many seconds (as often
#: as it polled before `poke`): at a busy table every action is a notice, and a pass per
#: notice cost more than four passes a second
POKED_GAP = DEFAULT_POLL
#: a match whose computer step failed is left alone this long (the error is logged)
FAILURE_BACKOFF = 30.0
#: seconds between two clear-outs of expired pauses
EXPIRE_EVERY = 5.0
#: seconds between two looks for undo or restart requests past their minute
REQUESTS_EVERY = 1.0


def computer_delay() -> float:
    return float(getattr(settings, "COMPUTER_DELAY", DEFAULT_DELAY))


def pace_delay(pace: str, hurry: bool = False, *, base: float | None = None) -> float:
    """Seconds between two computer moves of a match at `pace` (Match.Pace); `base` is the
    normal pace's (settings.COMPUTER_DELAY unless given), the others scale with it. None
    wait while the computers hurry ("skip to my turn")."""
    if hurry:
        return 0.0
    normal = computer_delay() if base is None else base
    return PACE_SECONDS.get(pace, PACE_SECONDS["normal"]) * normal / PACE_SECONDS["normal"]


def awaiting_computer() -> list[int]:
    """Ids of the matches where a computer player has something to do.

    `selectors.matches_awaiting_computer` (a computer's turn), plus the matches of
    computers only whose round is over: nobody else could start their next round,
    which `services.computer_step` does for them."""
    ids = selectors.matches_awaiting_computer()
    sql, params = _ended_sql()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        ended = [pk for (pk,) in cursor.fetchall()]
    return ids + [pk for pk in ended if pk not in ids]


@cache
def _ended_sql() -> tuple[str, tuple[Any, ...]]:
    """The statement of the computers-only matches whose round is over, built by the ORM once
    (as `selectors.matches_awaiting_computer`'s: building it cost more than running it, on
    every pass)."""
    query = (
        Match.objects.filter(status=Match.Status.PLAYING, state__phase="round_over")
        .exclude(seats__kind__in=[Seat.Kind.HUMAN, Seat.Kind.LOCAL])
        .values_list("pk", flat=True)
    ).query
    return query.sql_with_params()


def paused_until(match_ids: list[int], now: Any) -> dict[int, Any]:
    """When each paused match's pause (R26) expires, if it does after `now`: the last renewal
    of its live pauses plus `selectors.PAUSE_TIMEOUT` (and a millisecond: the pause counts
    up to and including that instant)."""
    timeout = selectors.PAUSE_TIMEOUT + timedelta(milliseconds=1)
    rows = (
        Pause.objects.filter(match_id__in=match_ids, alive_at__gte=now - selectors.PAUSE_TIMEOUT)
        .values("match_id")
        .annotate(last=Max("alive_at"))
        .values_list("match_id", "last")
    )
    return {pk: last + timeout for pk, last in rows}


def step_when_due(match_id: int, *, delay: float) -> services.Result | None:
    """One computer action in the match if its last change is `delay` seconds old.

    The check and the step share one transaction on the locked row, so two
    processes never act twice within `delay`; a row another process holds is
    skipped (None)."""
    cutoff = timezone.now() - timedelta(seconds=delay)
    with transaction.atomic():
        due = (
            Match.objects.select_for_update(skip_locked=True)
            .filter(pk=match_id, updated_at__lte=cutoff)
            .values_list("pk", flat=True)
            .first()
        )
        if due is None:
            return None
        # computer_step locks the same row again: a transaction does not wait for its own lock.
        return services.computer_step(match_id=match_id)


def _close_connection() -> None:
    connection.close()  # the calling thread's own connection (looked up when called)


#: the worker's own database thread (its own changes need not wake it: it looks again anyway)
THREAD_NAME = "computers"


class ComputerWorker:
    """The loop; `run_once` is one pass (what the tests and ``run_computers --once`` call)."""

    def __init__(
        self,
        *,
        delay: float | None = None,
        poll: float = DEFAULT_POLL,
        clear_all_pauses: bool = False,
    ) -> None:
        self.delay = delay
        self.poll = poll
        #: at start-up, end every pause, not only the expired ones (a single server process)
        self.clear_all_pauses = clear_all_pauses
        self.expired_at: float | None = None
        self.requests_at: float | None = None
        #: the last look for seats whose away limit passed (games.attendance.standin)
        self.seats_at: Any = None
        #: match id -> monotonic time before which it is not tried again after a failure
        self.failed: dict[int, float] = {}
        self.steps = 0
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=THREAD_NAME)
        self._stop = asyncio.Event()
        #: set by `poke` (and `stop`): look again now; made on the loop that runs it
        self._wake: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def run_once(self) -> tuple[int, float | None]:
        """Act in every due match once. Returns (actions taken, seconds until the next one may be due).
        Each match waits as long as its pace says (`pace_delay`; `delay`, if given, is the normal pace's)."""
        if not servers.serving():
            return 0, None  # its moves would be told on another channel layer than the tables'
        base = computer_delay() if self.delay is None else self.delay
        now = time.monotonic()
        self.failed = {pk: until for pk, until in self.failed.items() if until > now}
        waiting = [pk for pk in awaiting_computer() if pk not in self.failed]
        if not waiting:
            return 0, None
        steps = 0
        wait: float | None = None
        cutoff = timezone.now()
        paused = paused_until(waiting, cutoff)
        rows = Match.objects.filter(pk__in=waiting).values_list("pk", "updated_at", "pace", "hurry")
        for pk, updated, pace, hurry in rows:
            delay = pace_delay(pace, hurry, base=base)
            # Due once its pace allows and its pause (R26) has expired: the loop wakes then, not
            # at its next poll (a silent panel held the computers 30.65 s for a 30 s timeout).
            due = max(updated + timedelta(seconds=delay), paused.get(pk, updated))
            left = (due - cutoff).total_seconds()
            if left > 0:
                wait = left if wait is None else min(wait, left)
                continue
            try:
                result = step_when_due(pk, delay=delay)
            except (OperationalError, InterfaceError):
                raise  # the database, not this match: `_pass` reconnects and the next pass tries again
            except Exception:
                logger.exception(
                    "computer player failed in match %s; retrying in %ss", pk, FAILURE_BACKOFF
                )
                self.failed[pk] = time.monotonic() + FAILURE_BACKOFF
                continue
            if result is not None:
                steps += 1
                wait = delay if wait is None else min(wait, delay)
        self.steps += steps
        return steps, wait

    def expire_pauses(self) -> None:
        """R26: end the pauses nobody renews any more (all of them at the first call when
        `clear_all_pauses`), every `EXPIRE_EVERY` seconds."""
        now = time.monotonic()
        if self.expired_at is not None and now - self.expired_at < EXPIRE_EVERY:
            return
        first = self.expired_at is None
        self.expired_at = now
        keep_claim()  # this process's advisory lock, if it holds one, outlives a database restart
        resumed = services.pauses_expire(everything=first and self.clear_all_pauses)
        if resumed:
            logger.info("computer players: expired pauses ended in matches %s", resumed)
        presence.expire(everything=first and self.clear_all_pauses)
        now_at = timezone.now()
        since = (
            self.seats_at if self.seats_at is not None else now_at - timedelta(seconds=EXPIRE_EVERY)
        )
        self.seats_at = now_at
        standin.announce_due(since=since, now=now_at)

    def expire_requests(self) -> None:
        """Close the undo and restart requests past their minute, every `REQUESTS_EVERY` seconds."""
        now = time.monotonic()
        if self.requests_at is not None and now - self.requests_at < REQUESTS_EVERY:
            return
        self.requests_at = now
        closed = services.requests_expire()
        if closed:
            logger.info("computer players: requests expired in matches %s", closed)

    def _pass(self) -> tuple[int, float | None]:
        """`run_once` in the worker's own thread, with a healthy connection."""
        cpu = time.thread_time() if trace.COSTS else 0.0
        close_old_connections()
        try:
            self.expire_pauses()
            self.expire_requests()
            signals.worker_pass.send_robust(
                sender=ComputerWorker
            )  # e.g. turn e-mails (games.history)
            return self.run_once()
        except Exception:
            logger.exception("computer players: a pass failed")
            connection.close()  # a broken connection is replaced on the next pass
            return 0, self.poll * 8
        finally:
            if trace.COSTS:
                trace.cost("computers' loop", cpu)

    def poke(self) -> None:
        """A match changed (its notice, `games.notify`): look again now instead of at the next
        poll. From any thread; a change of the worker's own thread is ignored."""
        loop, wake = self._loop, self._wake
        if loop is None or wake is None or threading.current_thread().name.startswith(THREAD_NAME):
            return
        try:
            loop.call_soon_threadsafe(wake.set)
        except RuntimeError:  # the loop is closed: nothing to wake
            pass

    async def run(self) -> None:
        """Loop until `stop()`: act when due, else wait (at most `poll` seconds, or until poked)
        and look again."""
        run_pass = sync_to_async(self._pass, thread_sensitive=False, executor=self._executor)
        loop = asyncio.get_running_loop()
        self._loop, self._wake = loop, asyncio.Event()
        try:
            while not self._stop.is_set():
                self._wake.clear()  # a change committed from now on is seen by this pass or wakes the next
                started = loop.time()
                steps, wait = await run_pass()
                pause = self.poll if wait is None else min(self.poll, wait)
                if steps and pause <= 0:
                    await asyncio.sleep(0)  # let the connections render between actions
                    continue
                if self._stop.is_set():
                    break
                try:
                    await asyncio.wait_for(self._wake.wait(), timeout=max(pause, 0.01))
                except TimeoutError:
                    pass
                else:
                    gap = min(POKED_GAP, pause) - (loop.time() - started)
                    if gap > 0 and not self._stop.is_set():
                        await asyncio.sleep(gap)  # woken early: not more often than `POKED_GAP`
        finally:
            await sync_to_async(
                _close_connection, thread_sensitive=False, executor=self._executor
            )()
            self._executor.shutdown(wait=False)

    def stop(self) -> None:
        self._stop.set()
        if self._wake is not None:
            self._wake.set()
