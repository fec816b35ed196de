"""Computer players at work (R25, R26): a loop outside request handlers, driven by the database.

Each pass asks the database which matches wait for a computer player
(`selectors.matches_awaiting_computer`) and lets `services.computer_step` take one
action in each match whose last change is old enough for the match's pace
(`Match.pace`: relaxed 1.5 s, normal `COMPUTER_DELAY` = 0.6 s, fast 0.25 s, instant 0,
all scaled by `COMPUTER_DELAY`, which is 0 in tests), so people can follow the moves
one at a time; a match whose people asked to skip to their turn (`Match.hurry`) gets
no wait at all until a person is to act again. Nothing
is kept in memory between passes, so a restarted server, or another process,
carries on from where the database is.

Several processes may run this loop at once (one per server process, plus
``manage.py run_computers``): the delay is checked on the locked match row
(``FOR UPDATE SKIP LOCKED``), so only one of them acts and the pace holds between
processes too. A paused match (someone has the rules or the log open, R26) is
left alone by `computer_step` until the pause ends.

Between passes it waits `poll` seconds at most (0.25 s; 1 s for the loop inside the one
server process of the in-memory layer), or less when a computer's move comes due sooner,
or until a match's notice wakes it (`poke`, from games.notify in this process; then not
sooner than `POKED_GAP` after its last pass), so a person's move is answered as soon as
before and an idle server does not ask four times a second.

The loop runs as an asyncio task on the server's event loop
(`ComputerWorker.run`), its database work in one worker thread of its own: the
services' "match changed" notices then reach the in-memory channel layer of the
same process safely (it is not thread-safe), as well as Redis. `start_in_process`
starts it once per server process when the server starts (tablesite/asgi.py), not
at the first page request, so computers resume by themselves after a restart.

Where it runs (`enabled`): with the in-memory channel layer (no ``REDIS_URL``) in
the one server process; with a shared layer (``REDIS_URL``) in ``manage.py
run_computers`` only (``.ci/serve`` starts it beside daphne). ``COMPUTER_WORKER``
``on``/``off`` overrides either way.

One server per database of the in-memory layer: a server that
starts (`claim_at_start`) takes a PostgreSQL advisory lock (`LOCK_KEY`, session level,
on a connection of its own held for the process's life) when it would run the computers
in process or has no shared layer. A second one finds it held and says so in one log
line (`REFUSED_ALONE`, `REFUSED_SHARED`): without ``REDIS_URL`` it refuses to start
(its pages would never hear the first one's moves: a version that exists would wait
for the page's next ``check``), with ``REDIS_URL`` it serves but leaves the computers
to the process that holds the lock. A killed process's lock ends with its connection; a
lock lost with its connection (a database restart) is taken again by the loop's beat
(`keep_claim`), or, if another process took it meanwhile, said in one line.

Pauses (R26) that outlived their connection: the loop deletes the expired ones when
it starts and every `EXPIRE_EVERY` seconds (`services.pauses_expire`), and tells
their tables; a single server process starting up deletes them all (no connection
of its own holds one yet). The same goes for the table connections' presence rows
(games.presence: closed once not renewed, all of them at a lone server's start-up),
and on the same beat the tables where a seat's away limit just passed are told, so
their pages offer to let a computer play it (games.standin).

Undo and restart requests at shared tables (`games.models.ChangeRequest`): the loop
closes those past their minute every `REQUESTS_EVERY` seconds
(`services.requests_expire`), so every board watching shows the expiry on time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from functools import cache
from pathlib import Path
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

from games import presence, selectors, servers, services, signals, standin
from games.models import PACE_SECONDS, Match, Pause, Seat

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
        #: the last look for seats whose away limit passed (games.standin)
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


# ---------------------------------------------------------------- one worker per server process

_running: dict[str, Any] = {"pid": None, "task": None, "worker": None, "refused": None}

#: pg_try_advisory_lock(*LOCK_KEY): held by the process whose loop runs the computers in
#: process, or that is a database's only server without a shared layer ("mext", 1)
LOCK_KEY = (0x6D657874, 1)
#: a lock still held at start-up is asked again this long (a process killed a moment ago:
#: PostgreSQL ends its session, and the lock, once it sees the connection closed)
LOCK_WAIT = 10.0
#: the one line a second server without a shared layer logs before it exits
REFUSED_ALONE = (
    "another server already runs on this database without REDIS_URL (PostgreSQL advisory lock "
    "%s held by backend pid %s): this one refuses to start, since its pages would not hear the "
    "other's moves; set REDIS_URL on every server to run several"
)
#: the one line a second server with a shared layer logs (it serves, without computers)
REFUSED_SHARED = (
    "computer players: another process already runs them in process on this database "
    "(PostgreSQL advisory lock %s held by backend pid %s): this one does not"
)
#: the lock's connection (a Django connection of its own, outside the request handlers')
_lock: dict[str, Any] = {"pid": None, "connection": None, "wanted": False}
#: the one line when the lock's connection died and another process took the lock meanwhile
LOST = (
    "computer players: this process lost the PostgreSQL advisory lock %s with its database connection and "
    "backend pid %s holds it now: two processes run the computers%s"
)


def lock_holder() -> int | None:
    """The PostgreSQL backend pid holding `LOCK_KEY` on this database, if any."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = %s AND objid = %s "
            "AND objsubid = 2 AND granted AND database = (SELECT oid FROM pg_database "
            "WHERE datname = current_database())",
            LOCK_KEY,
        )
        row = cursor.fetchone()
    connection.close()  # the calling thread's: at start-up or in a worker pass, which reconnects when it asks
    return int(row[0]) if row else None


def claim(wait: float | None = None) -> bool:
    """Take `LOCK_KEY` for this process (kept until it exits or `release`); False when
    another session still holds it after `wait` seconds. Raises the database's error
    when it cannot be asked."""
    from django.db import connections

    if _lock["pid"] == os.getpid() and _lock["connection"] is not None:
        return True
    held = connections.create_connection(
        "default"
    )  # not the thread's: never closed between requests
    held.inc_thread_sharing()  # taken at start-up, looked at by the worker's thread, closed from another
    deadline = time.monotonic() + (LOCK_WAIT if wait is None else wait)
    try:
        while True:
            with held.cursor() as cursor:
                cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", LOCK_KEY)
                got = bool(cursor.fetchone()[0])
            if got:
                _lock.update(pid=os.getpid(), connection=held, wanted=True)
                return True
            if time.monotonic() >= deadline:
                held.close()
                return False
            time.sleep(0.2)
    except Exception:
        held.close()
        raise


def keep_claim() -> None:
    """The worker's beat (`ComputerWorker.expire_pauses`): when this process held `LOCK_KEY`
    and the lock's connection died (a database restart, a dropped connection), take it again;
    if another process took it meanwhile, say so in one line (`LOST`) and stop asking.
    A database still down is asked again at the next beat."""
    held = _lock["connection"]
    if not _lock["wanted"] or _lock["pid"] not in (None, os.getpid()):
        return
    if held is not None and held.is_usable():
        return
    release(keep_wanting=True)
    try:
        if claim(wait=0):
            logger.warning(
                "computer players: the PostgreSQL advisory lock %s/%s was lost with its connection; "
                "taken again",
                *LOCK_KEY,
            )
            return
        holder = lock_holder()
    except Exception:
        return  # the database is down: the next beat asks again
    _lock["wanted"] = False
    logger.critical(
        LOST,
        f"{LOCK_KEY[0]}/{LOCK_KEY[1]}",
        holder,
        "" if shared_layer() else " and, without REDIS_URL, their pages stall: stop one of them",
    )


def release(*, keep_wanting: bool = False) -> None:
    """End this process's claim (its lock's connection); tests and lifespan shutdown."""
    held = _lock["connection"]
    _lock.update(pid=None, connection=None, wanted=keep_wanting and _lock["wanted"])
    if held is not None:
        with contextlib.suppress(Exception):
            held.close()


def claim_at_start() -> bool:
    """At a server's start: claim the computers (and, without a shared layer, the database)
    when this server would run them in process or has no shared layer (see the module's
    docstring). True when the server may go on; False when it must not start (logged once).
    A database that cannot be asked is logged and the server goes on as before the lock."""
    _running["refused"] = None
    if not enabled() and shared_layer():
        return True  # run_computers has them; servers on a shared layer may be many
    try:
        if claim():
            return True
        holder = lock_holder()
    except Exception as e:  # the database is not up yet: the worker's passes wait for it
        logger.warning(
            "computer players: could not ask the database whether another server runs them (%s)", e
        )
        return True
    key = f"{LOCK_KEY[0]}/{LOCK_KEY[1]}"
    if shared_layer():
        _running["refused"] = os.getpid()
        logger.warning(REFUSED_SHARED, key, holder)
        return True
    logger.critical(REFUSED_ALONE, key, holder)
    return False


def shared_layer() -> bool:
    """Whether the channel layer reaches other processes (Redis), so that a worker
    process of its own (`manage.py run_computers`) is heard by the tables."""
    return bool(getattr(settings, "REDIS_URL", None))


def enabled() -> bool:
    """Whether a server process runs the computer players itself: ``COMPUTER_WORKER``
    ``on``/``off`` if set, else only without a shared layer (with ``REDIS_URL``,
    ``manage.py run_computers`` does)."""
    value = os.environ.get("COMPUTER_WORKER", "").strip().lower()
    if value in ("off", "0", "false", "no"):
        return False
    if value in ("on", "1", "true", "yes"):
        return True
    return not shared_layer()


def start_in_process(*, server_start: bool = False) -> bool:
    """Start the loop on the running event loop, once per process (a forked server starts
    its own). True when it was started now. Called by tablesite/asgi.py when the server
    starts (`server_start`: with the in-memory layer this process is the only server,
    so every pause left in the database belongs to a connection that is gone) and, as
    a fallback for servers that announce no start, on each connection."""
    pid = os.getpid()
    task = _running["task"]
    loop = asyncio.get_running_loop()
    if _running["pid"] == pid and task is not None and not task.done() and task.get_loop() is loop:
        return False
    if not enabled() or _running["refused"] == pid:
        return False
    # With the in-memory layer this process makes every change, and each wakes the loop (`poke`).
    worker = ComputerWorker(
        clear_all_pauses=server_start and not shared_layer(),
        poll=DEFAULT_POLL if shared_layer() else IDLE_POLL,
    )
    _running.update(pid=pid, worker=worker, task=loop.create_task(worker.run()))
    logger.info("computer players: worker started in process %s", pid)
    return True


def poke() -> None:
    """Wake this process's loop, if it runs one: a match changed (`games.signals.match_moved`,
    sent by games.notify after each change is committed, from any thread)."""
    worker = _running["worker"]
    if worker is not None and _running["pid"] == os.getpid():
        worker.poke()


def on_match_moved(sender: object, *, match_id: int, **kwargs: Any) -> None:
    """`signals.match_moved`'s receiver: a match changed, a computer may be next (`poke`)."""
    poke()


async def stop_in_process() -> None:
    """Stop this process's loop (tests; a server simply exits)."""
    worker, task = _running["worker"], _running["task"]
    _running.update(pid=None, worker=None, task=None, refused=None)
    if worker is not None and task is not None and not task.done():
        worker.stop()
        await task
    await sync_to_async(release, thread_sensitive=False)()


class WithComputerWorker:
    """ASGI wrapper: any connection starts this process's computer worker if it is not
    running yet — a fallback: the server's start does it first (`start_with_daphne`,
    `lifespan`)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        start_in_process()
        return await self.app(scope, receive, send)


async def lifespan(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The ASGI ``lifespan`` protocol, for servers that send it (uvicorn, hypercorn; not
    daphne): the server's channel layer is checked against the running processes'
    (games.servers) and its membership kept while it runs; the worker starts with the
    server; both stop at its shutdown."""
    watch: servers.Watch | None = None
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            if not await sync_to_async(servers.agree_at_start, thread_sensitive=False)():
                await send(
                    {
                        "type": "lifespan.startup.failed",
                        "message": "a process of another channel layer runs on this database",
                    }
                )
                return
            if not await sync_to_async(claim_at_start, thread_sensitive=False)():
                await sync_to_async(servers.leave, thread_sensitive=False)()
                await send(
                    {
                        "type": "lifespan.startup.failed",
                        "message": "another server runs on this database",
                    }
                )
                return
            watch = servers.Watch()
            watch.start()
            start_in_process(server_start=True)
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await stop_in_process()
            if watch is not None:
                await watch.stop()
            await sync_to_async(servers.leave, thread_sensitive=False)()
            await send({"type": "lifespan.shutdown.complete"})
            return


def run_by_daphne() -> bool:
    """Whether this process is a daphne server (``python -m tablesite.server`` or the
    ``daphne`` command), not a test or a command that imported daphne's modules."""
    import sys

    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    name = getattr(spec, "name", "") or ""
    return (
        name in ("tablesite.server", "daphne", "daphne.__main__", "daphne.cli")
        or Path(sys.argv[0] if sys.argv else "").name == "daphne"
    )


def start_with_daphne() -> bool:
    """Under daphne (which sends no ASGI lifespan), start the worker as soon as daphne's
    event loop runs: computers move after a restart without waiting for a page request.
    Called at the import of tablesite/asgi.py; True when scheduled (the app was loaded
    by daphne, whose Twisted reactor runs on an asyncio loop)."""
    import sys

    if "daphne.server" not in sys.modules or "twisted.internet.reactor" not in sys.modules:
        return False  # not loaded by daphne (tests, manage.py commands): importing the reactor would install one
    from twisted.internet import reactor

    # Before daphne listens: a refused server never answers. Its channel layer first (one
    # line when it differs from the running processes'), then the computers' lock.
    if run_by_daphne() and not (servers.agree_at_start() and claim_at_start()):
        raise SystemExit(3)

    def start() -> None:
        if servers.member() is not None:
            servers.Watch().start()  # its membership kept, and checked, while it runs
        try:
            start_in_process(server_start=True)
        except Exception:  # the next connection tries again
            logger.exception("computer players: could not start with the server")

    # callLater runs `start` inside the running asyncio loop (the reactor's), once it runs.
    reactor.callLater(0, start)  # type: ignore[arg-type]  # a zope.interface method: no self
    return True
