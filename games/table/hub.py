"""One hub per table per server process: the table's work done once per version.

The connections of a match in this process register with the match's `Hub`
(`join` / `leave`). The hub is the only thing here that reads the match for them:

- **One channel-layer membership per process per match.** This process has one
  channel of its own on the layer (`Station`, one per event loop), which joins the
  match's group (`games.notify.match_group`) while the match has a hub, and hands
  each notice to that match's hub: one notice per process per version, however many
  connections watch.
- **No database read for a version the hub can derive.** A change made in this
  process is handed to the hub directly by the service's notice after commit
  (`games.notify.hub_sink`, no layer hop); a notice from elsewhere (another process,
  the computer worker) carries the version and its public log entries. Either way
  the hub applies the entries with the engine to the reads it holds
  (`board_reads.advance`); an undo, redo, restart, new round, a gap or any doubt
  is one fresh read (`board_reads.current`).
- **Boards.** Every connection's board of a version is made in one database-thread
  hop for the whole table (`_work`): the shared parts once per version and language
  (kept on the version's reads), each of them rendered again only when what it shows
  changed (`parts.shared_parts`), each viewer's private parts rendered only when
  what they show changed (`parts.Sent.kept`), a spectator costing its update frame.
- **Sends straight from the hub.** Each connection has an `Outbox` (games.table.outbox):
  a bounded queue drained by a task of its own, so its frames go in order and a slow or
  dead socket never holds up the others. Past `OUTBOX_LIMIT` frames waiting, its board updates
  are dropped and it gets the whole board instead once it drains (a resync); if
  even its other frames pile up that far, the connection is closed (the page
  reconnects and starts from the current board).
- **Out-of-band events** (`Hub.broadcast(frame, audience)`): a frame for every
  connection of the table, or only its players or only its spectators (e.g. a chat
  message), sent as it is, in order with the boards. Through the layer, a message
  ``{"type": "hub.broadcast", "frame": {...}, "audience": "all"|"players"|"spectators"}``
  sent to the match group reaches every process's hub (`games.notify.match_broadcast`).
  Any other message type on the match group is handed to each connection's consumer
  handler as before.

What a viewer may see is not decided here: each board is that connection's own
(R24, games.table.board); only public entries travel on the layer (games.notify).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import close_old_connections

from games import notify, signals
from games.processes import trace
from games.table import board_reads, facts
from games.table.outbox import OUTBOX_LIMIT, Outbox
from games.table.threads import DATABASE_THREADS

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.consumers import TableConsumer

logger = logging.getLogger(__name__)

#: seconds between renewals of the process's group memberships (channels-redis forgets
#: members after its group expiry, a day by default)
GROUP_RENEW_SECONDS = 3600.0
#: seconds between a process's questions to a Redis layer whether it restarted (one INFO), and
#: so how long a Redis restart may leave its pages without notices before the process joins
#: its tables' groups again and their boards are read again (`Station._renew`)
REDIS_REJOIN_SECONDS = 2.0
#: who an out-of-band frame is for
AUDIENCES = ("all", "players", "spectators")
#: how old a read of the match's version may be and still answer another page's ``check``
CHECK_REUSE_SECONDS = 10.0


@dataclass
class _Job:
    """Work for the hub's next database hop: a notice, or one connection's board."""

    notice: dict[str, Any] | None = None
    conn: Connection | None = None
    board: dict[str, Any] = field(default_factory=dict)
    done: asyncio.Future[None] | None = None


class Hub:
    """A match's table in this process: its connections, the reads it holds, its work."""

    def __init__(self, station: Station, match_id: int) -> None:
        self.station = station
        self.match_id = match_id
        self.outboxes: dict[TableConsumer, Outbox] = {}
        #: the newest version this hub has made boards of
        self.version = -1
        #: the reads of `version` it holds (what it derives the next version from)
        self.reads: board_reads.BoardReads | None = None
        #: versions derived / read afresh (tests/bench)
        self.derived = 0
        self.read = 0
        #: the last read of the match's version for a page's check: (loop time it started,
        #: the version), and the loop time each connection last checked
        self.checked: tuple[float, int | None] | None = None
        self.checks: dict[Any, float] = {}
        self._jobs: list[_Job] = []
        self._wake = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._run())

    # ------------------------------------------------------------ connections

    def add(self, conn: TableConsumer) -> Outbox:
        async def send(text: str) -> None:
            await conn.base_send({"type": "websocket.send", "text": text})

        def resync() -> None:
            conn.needs_whole = True
            self._jobs.append(_Job(conn=conn, board={"whole": True}))
            self._wake.set()

        async def dead() -> None:
            logger.warning("table %s: a connection stopped reading; closing it", self.match_id)
            with contextlib.suppress(Exception):
                await conn.close(code=conn.SLOW_CLOSE)

        box = self.outboxes[conn] = Outbox(send, on_resync=resync, on_dead=dead, limit=OUTBOX_LIMIT)
        return box

    async def remove(self, conn: TableConsumer) -> None:
        self.checks.pop(conn, None)
        box = self.outboxes.pop(conn, None)
        if box is not None:
            await box.close()

    async def board(self, conn: Connection, **kwargs: Any) -> None:
        """Make and queue `conn`'s board (`Connection.made_board`'s arguments), in the
        hub's next hop, in order with the table's other work; raises what making it raised."""
        done = asyncio.get_running_loop().create_future()
        self._jobs.append(_Job(conn=conn, board=kwargs, done=done))
        self._wake.set()
        await done

    async def checked_version(
        self, conn: Any, read: Callable[[], Awaitable[int | None]]
    ) -> int | None:
        """The match's version in the database, for `conn`'s ``check`` (has a notice been
        lost?): the table's last read when it began after this connection's previous check
        (so it could have seen what that check could not) and is at most
        `CHECK_REUSE_SECONDS` old, else `read()` now. The pages of a table check in turn:
        one read answers the others until their own next check."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        previous = self.checks.get(conn, float("-inf"))
        self.checks[conn] = now
        last = self.checked
        if last is not None and previous < last[0] and now - last[0] < CHECK_REUSE_SECONDS:
            return last[1]
        version = await read()
        if self.checked is None or self.checked[0] < now:
            self.checked = (now, version)
        return version

    def notice(self, message: dict[str, Any]) -> None:
        """A ``match.changed`` / ``match.paused`` / ``match.seats`` notice: every connection's board."""
        version = message.get("version")
        if (
            message.get("type") == "match.changed"
            and isinstance(version, int)
            and version <= self.version
        ):
            return  # told already (the change was made here, or a notice repeated)
        self._jobs.append(_Job(notice=message))
        self._wake.set()

    def broadcast(self, frame: dict[str, Any], audience: str = "all") -> int:
        """Send `frame` as it is to this table's connections in this process: all of them,
        only those seated (``players``: the user holds a seat) or only ``spectators``; in
        order with their boards. How many it was queued for."""
        if audience not in AUDIENCES:
            raise ValueError(f"unknown audience {audience!r}")
        text = json.dumps(frame)
        count = 0
        for conn, box in list(self.outboxes.items()):
            seated = bool(getattr(conn, "seated", False))
            if audience == "all" or (audience == "players") == seated:
                box.put(text)
                count += 1
        return count

    # ------------------------------------------------------------ the work

    async def _run(self) -> None:

        while True:
            await self._wake.wait()
            self._wake.clear()
            jobs, self._jobs = self._jobs, []
            if not jobs:
                continue
            try:
                results = await database_sync_to_async(
                    self._work, thread_sensitive=False, executor=DATABASE_THREADS
                )(jobs)
            except asyncio.CancelledError:
                _cancel(jobs)  # the hub is closing: nobody is left waiting
                raise
            except Exception as e:  # the executor refused (shut down): told to every waiting caller
                for job in jobs:
                    if job.done is not None and not job.done.done():
                        job.done.set_exception(e)
                continue
            for conn, message, key, error, job in results:
                try:
                    box = self.outboxes.get(conn) if conn is not None else None
                    if box is not None and message is not None:
                        box.put(json.dumps(message), board=True, key=key)
                except Exception:  # that connection's frame; the others' go on
                    logger.exception("table %s: a board could not be queued", self.match_id)
                if job is not None and job.done is not None and not job.done.done():
                    if error is not None:
                        job.done.set_exception(error)
                    else:
                        job.done.set_result(None)

    def _work(
        self, jobs: list[_Job]
    ) -> list[tuple[Any, Any, Any, BaseException | None, _Job | None]]:
        """In a database thread: the boards the jobs ask for, in their order."""
        out: list[tuple[Any, Any, Any, BaseException | None, _Job | None]] = []
        cpu = time.thread_time() if trace.COSTS else 0.0
        try:
            for job in jobs:
                if job.notice is not None:
                    out.extend(self._told(job.notice))
                elif job.conn is not None and job.conn in self.outboxes:
                    conn = job.conn
                    started = time.thread_time() if trace.COSTS else 0.0
                    try:
                        kwargs = dict(job.board)
                        if getattr(conn, "needs_whole", False):
                            conn.needs_whole = False
                            kwargs = {"whole": True}
                        message = conn.made_board(**kwargs)
                    except Exception as e:
                        out.append((conn, None, None, e, job))
                        continue
                    out.append((conn, message, None, None, job))
                    self._hold()
                    if trace.COSTS:
                        trace.cost(_board_part(conn), started)
                else:
                    out.append((None, None, None, None, job))
        finally:
            close_old_connections()  # as TableConsumer.call does
            if trace.COSTS:
                trace.cost("hub pass", cpu)
        return out

    def _told(
        self, notice: dict[str, Any]
    ) -> list[tuple[Any, Any, Any, BaseException | None, None]]:
        """Every connection's board after `notice`: of its version (derived from the reads
        held when the notice allows, else read once for all of them); for a pause or a
        seat's limit, the same version read again once."""
        version = notice.get("version")
        key = trace.key(self.match_id, version) if isinstance(version, int) else None
        changed = notice.get("type") == "match.changed" and isinstance(version, int)
        started = time.perf_counter()
        if changed:
            assert isinstance(version, int)  # `changed` says so
            if version <= self.version:
                return []
            if key is not None:
                trace.arrived(key, notice)
            derived = None
            if self.reads is not None and version > self.reads.version:
                derived = board_reads.advance(self.reads, notice)
            if derived is not None:
                assert self.reads is not None  # derived from them
                facts.carry(derived, self.reads)  # moves change no presence, no request
                board_reads.keep(derived)
                self.derived += 1
            else:
                board_reads.current(self.match_id, at_least=version)
                self.read += 1
        else:
            board_reads.current(self.match_id, at_least=None)
            self.read += 1
        self._hold()
        if self.reads is not None:
            # What every board of the version shares, worked out before any board is made
            # (games.table.facts): the boards themselves then ask the database nothing.
            facts.of(self.reads)
        trace.span(key, "hub update", started)
        at_least = self.reads.version if self.reads is not None else None
        out: list[tuple[Any, Any, Any, BaseException | None, None]] = []
        for conn in list(self.outboxes):
            started = time.perf_counter()
            cpu = time.thread_time() if trace.COSTS else 0.0
            try:
                whole = bool(getattr(conn, "needs_whole", False))
                conn.needs_whole = False
                if changed and not whole:
                    message = conn.made_board(
                        newer_than=conn.sent_version, version=version, at_least=at_least
                    )
                else:  # the same version read again: a board only if it changed
                    message = conn.made_board(at_least=at_least, whole=whole, changes_only=True)
            except Exception as e:  # that connection's board; the others' go on
                logger.exception("table %s: a notice could not be answered", self.match_id)
                out.append((conn, None, None, e, None))
                continue
            trace.span(key, "board", started)
            if trace.COSTS:
                trace.cost(_board_part(conn), cpu)
            out.append((conn, message, key, None, None))
        if changed and at_least is not None:
            self.version = max(self.version, at_least)
        return out

    def _hold(self) -> None:
        """Hold the newest reads made for this table (derived or read)."""
        latest = board_reads.latest(self.match_id)
        if latest is not None and (self.reads is None or latest.version >= self.reads.version):
            self.reads = latest

    async def close(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        _cancel(self._jobs)
        self._jobs = []
        for conn in list(self.outboxes):
            await self.remove(conn)


def _board_part(conn: Any) -> str:
    """Which part of the server's CPU a connection's board counts to (games.processes.trace
    `cost`)."""
    return "hub pass: a seat's board" if conn.seated else "hub pass: a spectator's board"


def _cancel(jobs: list[_Job]) -> None:
    for job in jobs:
        if job.done is not None and not job.done.done():
            job.done.cancel()


class Station:
    """This process's (event loop's) hubs and its one channel on the layer."""

    def __init__(self) -> None:
        self.hubs: dict[int, Hub] = {}
        self.layer = get_channel_layer()
        self.channel: str | None = None
        self._listening: asyncio.Task[None] | None = None
        self._renewing: asyncio.Task[None] | None = None
        self.loop = asyncio.get_running_loop()
        self._lock = asyncio.Lock()
        #: the run ids of the layer's Redis servers when last asked (`_store_restarted`)
        self._store_ids: list[str] | None = None

    async def join(self, conn: TableConsumer) -> Hub:
        """Register `conn` with its match's hub (made, and its group joined, if need be)."""
        async with self._lock:
            hub = self.hubs.get(conn.match_id)
            if hub is None:
                hub = self.hubs[conn.match_id] = Hub(self, conn.match_id)
                if self.layer is not None:
                    if self.channel is None:
                        # The default prefix: channels-redis reads a process's local channels of one
                        # prefix in one loop, shared with the consumers' own channels; a prefix of
                        # its own would wait for their reads' timeouts (messages held for seconds).
                        self.channel = await self.layer.new_channel()
                        await self._store_restarted()  # which Redis this is, before any join
                        self._listening = self.loop.create_task(self._listen())
                        self._renewing = self.loop.create_task(self._renew())
                    await self.layer.group_add(notify.match_group(conn.match_id), self.channel)
            conn.outbox = hub.add(conn)
            return hub

    async def leave(self, conn: TableConsumer) -> None:
        async with self._lock:
            hub = self.hubs.get(conn.match_id)
            if hub is None:
                return
            await hub.remove(conn)
            if hub.outboxes:
                return
            del self.hubs[conn.match_id]
            await hub.close()
            if self.layer is not None and self.channel is not None:
                try:
                    await self.layer.group_discard(notify.match_group(conn.match_id), self.channel)
                except Exception as e:  # the layer is gone: so is the membership
                    logger.warning("table %s: could not leave the group (%s)", conn.match_id, e)

    def close_all_soon(self) -> None:
        """`close_all` as a task of this loop (in its thread)."""
        self.loop.create_task(self.close_all())

    async def close_all(self) -> None:
        """Close every table socket of this loop (`close_everything`)."""
        for hub in list(self.hubs.values()):
            for conn in list(hub.outboxes):
                with contextlib.suppress(Exception):  # the client may be gone already
                    await conn.close(code=conn.SLOW_CLOSE)

    def deliver(self, match_id: int, message: dict[str, Any]) -> None:
        """A message for a match's hub (in this loop's thread): notices, broadcasts."""
        hub = self.hubs.get(match_id)
        if hub is None:
            return
        kind = message.get("type")
        if kind in ("match.changed", "match.paused", "match.seats"):
            hub.notice(message)
        elif kind == "hub.broadcast":
            frame = message.get("frame")
            if isinstance(frame, dict):
                hub.broadcast(frame, str(message.get("audience", "all")))
        else:  # another wing's event for the table's consumers (their handler of that type)
            for conn in list(hub.outboxes):
                self.loop.create_task(conn.handle_event(message))

    async def _listen(self) -> None:
        assert self.layer is not None and self.channel is not None
        pause = 0.1
        while True:
            try:
                message = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # Redis restarted: memberships gone; join again once it answers
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    # The layer turned this task's cancellation (the loop closing) into an error
                    # of its own: stop, or the loop's shutdown would wait for it for ever.
                    raise asyncio.CancelledError from e
                logger.warning("table hubs: the channel layer was lost (%s); joining again", e)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 5.0)
                await self._rejoin()
                continue
            pause = 0.1
            if message.get("origin") == notify.ORIGIN:
                continue  # made in this process: its hub was told directly
            match_id = message.get("match")
            if isinstance(match_id, int):
                self.deliver(match_id, message)

    async def _rejoin(self) -> None:
        assert self.layer is not None and self.channel is not None
        for match_id in list(self.hubs):
            try:
                await self.layer.group_add(notify.match_group(match_id), self.channel)
            except Exception as e:
                logger.warning("table %s: could not join the group again (%s)", match_id, e)
                return

    async def _renew(self) -> None:
        # The memberships are joined again every `GROUP_RENEW_SECONDS`, before the layer's group
        # expiry forgets them. On a shared (Redis) layer, Redis is also asked every
        # `REDIS_REJOIN_SECONDS` whether it restarted: the layer's connections retry through a
        # restart (tablesite.env.redis_retry), so no error says that the restarted, empty Redis
        # forgot them. Then they are joined again at once, and the notices sent to the groups
        # between the restart and the re-join reached no one here: every hub reads its table
        # again once joined, so no page waits for a turn that came meanwhile (the next notice
        # may be its own move, which never comes). Asking costs one command a process; joining
        # again costs one a table, which at every ask would make as many commands as moves at
        # 150 tables.
        shared = self.layer is not None and not notify.reaches_this_process_only(self.layer)
        loop = asyncio.get_running_loop()
        joined = loop.time()
        while True:
            await asyncio.sleep(
                min(GROUP_RENEW_SECONDS, REDIS_REJOIN_SECONDS) if shared else GROUP_RENEW_SECONDS
            )
            restarted = shared and await self._store_restarted()  # asked before joining again
            if not restarted and loop.time() - joined < GROUP_RENEW_SECONDS:
                continue
            joined = loop.time()
            await self._rejoin()
            if restarted:
                logger.warning(
                    "table hubs: Redis restarted; reading %d tables again", len(self.hubs)
                )
                for hub in list(self.hubs.values()):
                    hub.notice({"type": "layer.restarted"})  # the version read again (`_told`)

    async def _store_restarted(self) -> bool:
        """Whether the layer's Redis servers are not those of the last call (a server's
        ``run_id`` changes when it restarts); False on the first call, and while one is down
        (asked again at the next renewal)."""
        connection = getattr(self.layer, "connection", None)  # channels-redis: a shard's client
        if connection is None:
            return False
        try:
            ids = [
                str((await connection(i).info("server")).get("run_id"))
                for i in range(int(getattr(self.layer, "ring_size", 1)))
            ]
        except Exception as e:  # down, or not a Redis we can ask: the re-join says the rest
            logger.debug("table hubs: could not ask Redis for its run id (%s)", e)
            return False
        before, self._store_ids = self._store_ids, ids
        return before is not None and ids != before


_stations: dict[asyncio.AbstractEventLoop, Station] = {}
_stations_lock = threading.Lock()


def station() -> Station:
    """This event loop's station (made on first use)."""
    loop = asyncio.get_running_loop()
    with _stations_lock:
        for gone in [other for other in _stations if other.is_closed()]:
            del _stations[gone]
        found = _stations.get(loop)
        if found is None or found.layer is not get_channel_layer():
            found = _stations[loop] = Station()
            notify.hub_sink = _sink
            notify.hub_holds = _holds
        return found


def _sink(match_id: int, message: dict[str, Any]) -> None:
    """games.notify's direct line: a change committed in this process, told to its hubs
    (in their loop's thread; called from the committing thread)."""
    with _stations_lock:
        stations = list(_stations.items())
    for loop, found in stations:
        if match_id not in found.hubs or loop.is_closed():
            continue
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            found.deliver(match_id, message)
        else:
            loop.call_soon_threadsafe(found.deliver, match_id, dict(message))


def _holds(match_id: int) -> bool:
    """Whether a hub of this process holds the match (games.notify's `hub_holds`; any thread)."""
    with _stations_lock:
        stations = list(_stations.items())
    return any(match_id in found.hubs and not loop.is_closed() for loop, found in stations)


def deliver(told: list[tuple[int, dict[str, Any]]]) -> None:
    """Hand notices held while a connection's command ran (`games.notify.held`) to the hubs."""
    for match_id, message in told:
        _sink(match_id, message)


def close_everything(sender: object, **kwargs: Any) -> None:
    """`signals.out_of_service`'s receiver (from any thread): every table socket of this
    process is closed with 4503, as when the layer is lost; the pages reconnect (through
    the proxy, to a server that serves) and get the current board."""
    with _stations_lock:
        stations = list(_stations.items())
    for loop, found in stations:
        if not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # closed meanwhile: nothing left to close
                loop.call_soon_threadsafe(found.close_all_soon)


signals.out_of_service.connect(close_everything, dispatch_uid="table-out-of-service")


def for_match(match_id: int) -> Hub | None:
    """This loop's hub of a match, if any connection to it is open here."""
    return station().hubs.get(match_id)
