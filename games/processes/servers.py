"""Every process on a database speaks one channel layer, or it does not serve.

The tables hear of each change through the channel layer (games.notify): a process on
another layer (no ``REDIS_URL`` beside servers on Redis, another Redis, another database
number of it) makes changes the others' pages never hear of, and its own pages never
hear of theirs: they stay on an old version until they ask again.

- **Who runs.** Each server (and ``manage.py run_computers``) records itself as it
  starts (`join`): a `games.models.Server` row with its host, pid and the identity of
  its layer (`tablesite.env.layer_identity`: "memory", or a hash of the Redis hosts,
  ports, database numbers and key prefix; its label names them, never a password). The
  row counts while the process holds the advisory lock (`LOCK_SPACE`, the row's id) on a
  database connection of its own: a killed process stops counting as soon as PostgreSQL
  sees that connection close (its TCP keepalives are set short, so a dead machine's too,
  within `KEEPALIVE` seconds), and the next process to start deletes its row.
- **At start** (`agree_at_start`, before the server listens): a process whose layer
  differs from any running process's refuses to start, in one log line (`REFUSED`)
  naming both layers and the processes, and the server exits with status 3. Two
  processes of the in-memory layer are the computer worker's lock's business
  (games.worker `claim_at_start`, its own line): the identities agree, the layers do not
  reach each other. A database that cannot be asked is logged and the process goes on.
- **While it runs** (`Watch`, every `BEAT_SECONDS`): its lock is kept (taken again, with
  a new row, after a database restart), and if a process of another layer runs that
  started before it (one that got past the start, e.g. while the database could not be
  asked), this one goes out of service: one log line (`OUT_OF_SERVICE`), `serving()`
  turns false (the health check answers 503, so the proxy takes it out; new table
  sockets are closed at once) and `signals.out_of_service` has the table close its
  sockets (4503), so pages reconnect through the proxy to a server that hears the
  moves; its computer players, if it runs them, wait. Once no such process runs, it
  serves again (`BACK`).

Losing Redis itself is the layer's own business: a table socket whose layer call fails
is closed with 4503 and the page reconnects (games.table.consumers), and a restarted
Redis has every table read again (games.table.hub `Station._renew`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings

from games import signals

logger = logging.getLogger(__name__)

#: the first key of the advisory locks that say a `Server` row's process runs ("layr"; the
#: second key is the row's id)
LOCK_SPACE = 0x6C617972
#: seconds between two beats of a running process (its lock kept, the others looked at)
BEAT_SECONDS = 5.0
#: a process still seen with another layer at start-up is asked again this long (one
#: killed a moment ago, whose connection PostgreSQL has not seen close yet)
START_WAIT = 3.0
#: seconds after which PostgreSQL gives up on a silent lock connection (its TCP keepalives:
#: idle, interval, count), so a machine that died stops counting as a running process
KEEPALIVE = (10, 5, 3)
#: the one line a process logs when it refuses to start
REFUSED = (
    "this %s refuses to start: its channel layer is %s, and %s already running on this "
    "database %s, so its pages and theirs would not hear each other's moves; give every "
    "server and run_computers the same REDIS_URL (host, port and database number)"
)
#: the one line a running process logs when it goes out of service
OUT_OF_SERVICE = (
    "this %s goes out of service (health check 503, table sockets closed, no computer "
    "moves): its channel layer is %s, and %s running on this database since before it %s; "
    "give every server and run_computers the same REDIS_URL (host, port and database number)"
)
#: the line it logs once it serves again
BACK = "the processes on this database now speak this %s's channel layer (%s): serving again"


#: a process's kind in the log's words
KIND_WORDS = {"server": "server", "computers": "run_computers"}


def kind_words(kind: str) -> str:
    return KIND_WORDS.get(kind, kind)


def identity() -> tuple[str, str]:
    """This process's channel layer: (key, label) (`tablesite.env.layer_identity`)."""
    from tablesite.env import layer_identity

    return layer_identity(settings.CHANNEL_LAYERS, machine=socket.gethostname())


@dataclass(frozen=True)
class Other:
    """Another running process, as its row says."""

    id: int
    kind: str
    host: str
    pid: int
    layer: str
    label: str

    def __str__(self) -> str:
        return f"{kind_words(self.kind)} {self.host}:{self.pid}"


def _table() -> str:
    from games.models import Server

    return Server._meta.db_table


#: the live rows: their lock is held in this database
_LIVE = (
    "EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.classid = %s "
    "AND l.objid::bigint = s.id AND l.objsubid = 2 AND l.granted AND l.database = "
    "(SELECT oid FROM pg_database WHERE datname = current_database()))"
)


@dataclass
class Member:
    """This process's row and the connection holding its lock."""

    kind: str
    layer: str
    label: str
    id: int | None = None
    connection: Any = None

    def join(self) -> None:
        """Take a lock, then write the row it stands for (a row is never seen without its
        lock), on a connection of its own kept for the process's life; rows of processes
        gone are deleted."""
        from django.db import connections

        held = connections.create_connection("default")
        held.inc_thread_sharing()  # taken at start-up, kept by the beat's thread, closed by either
        try:
            with held.cursor() as cursor:
                idle, interval, count = KEEPALIVE
                with contextlib.suppress(Exception):  # not over TCP (a Unix socket): nothing to set
                    cursor.execute(
                        "SELECT set_config('tcp_keepalives_idle', %s, false), "
                        "set_config('tcp_keepalives_interval', %s, false), "
                        "set_config('tcp_keepalives_count', %s, false)",
                        [str(idle), str(interval), str(count)],
                    )
                table = _table()
                cursor.execute(f"DELETE FROM {table} s WHERE NOT {_LIVE}", [LOCK_SPACE])
                cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, 'id'))", [table])
                row_id = int(cursor.fetchone()[0])
                cursor.execute("SELECT pg_advisory_lock(%s::int, %s::int)", [LOCK_SPACE, row_id])
                cursor.execute(
                    f"INSERT INTO {table} (id, kind, host, pid, layer, layer_label, started_at) "
                    "VALUES (%s, %s, %s, %s, %s, %s, now())",
                    [
                        row_id,
                        self.kind,
                        socket.gethostname()[:255],
                        os.getpid(),
                        self.layer,
                        self.label[:300],
                    ],
                )
        except Exception:
            held.close()
            raise
        self.id, self.connection = row_id, held

    def others(self) -> list[Other]:
        """The other processes running on this database."""
        assert self.connection is not None
        with self.connection.cursor() as cursor:
            cursor.execute(
                "SELECT s.id, s.kind, s.host, s.pid, s.layer, s.layer_label "
                f"FROM {_table()} s WHERE s.id <> %s AND {_LIVE} ORDER BY s.id",
                [self.id, LOCK_SPACE],
            )
            return [Other(*row) for row in cursor.fetchall()]

    def differing(self, others: list[Other]) -> list[Other]:
        """Those of `others` whose layer is not this one's."""
        return [other for other in others if other.layer != self.layer]

    def keep(self) -> list[Other]:
        """The beat: join again if the lock's connection died (a database restart), then
        the processes of another layer that joined before this one."""
        if self.connection is None or not self.connection.is_usable():
            self.leave()
            self.join()
        assert self.id is not None
        return [other for other in self.differing(self.others()) if other.id < self.id]

    def leave(self) -> None:
        """End the lock (its connection) and the row."""
        held, self.connection = self.connection, None
        if held is None:
            return
        with contextlib.suppress(Exception):
            with held.cursor() as cursor:
                cursor.execute(f"DELETE FROM {_table()} WHERE id = %s", [self.id])
        with contextlib.suppress(Exception):
            held.close()


def describe(others: list[Other]) -> str:
    """`others` grouped by layer, in words: "Redis redis://… (server web1:812, …)"."""
    by_layer: dict[str, list[Other]] = {}
    for other in others:
        by_layer.setdefault(other.label, []).append(other)
    return "; ".join(
        f"{label} ({', '.join(str(o) for o in group)})" for label, group in by_layer.items()
    )


def count(others: list[Other]) -> str:
    """The subject of a line about `others`: "the process", "the 2 processes" (verb: `speak`)."""
    return "the process" if len(others) == 1 else f"the {len(others)} processes"


def speak(others: list[Other]) -> str:
    """What `others` speak, with the verb agreeing with `count`."""
    return f"{'speaks' if len(others) == 1 else 'speak'} {describe(others)}"


#: this process's membership (`agree_at_start`), and whether it serves
_state: dict[str, Any] = {"member": None, "pid": None, "out": None}


def member() -> Member | None:
    """This process's membership, if it joined."""
    found = _state["member"]
    return found if _state["pid"] == os.getpid() else None


def agree_at_start(
    kind: str = "server", *, layer: tuple[str, str] | None = None, wait: float | None = None
) -> bool:
    """At a process's start, before it serves: join (`Member.join`), and refuse when a
    running process speaks another layer (one `REFUSED` line; False: the caller exits).
    True when it may go on, also when the database cannot be asked (logged; its beats join
    once it can, and take it out of service if an older process of another layer runs)."""
    key, label = layer or identity()
    mine = Member(kind=kind, layer=key, label=label)
    deadline = time.monotonic() + (START_WAIT if wait is None else wait)
    try:
        mine.join()
        while differing := mine.differing(mine.others()):
            if time.monotonic() >= deadline:
                logger.critical(
                    REFUSED, kind_words(kind), label, count(differing), speak(differing)
                )
                mine.leave()
                return False
            time.sleep(0.2)
    except Exception as e:  # the database is not up yet: nothing to compare with
        mine.leave()  # joined by the first beat that reaches it (`Member.keep`), and checked
        logger.warning(
            "could not ask the database which channel layer the other servers speak (%s)", e
        )
    leave()
    _state.update(member=mine, pid=os.getpid(), out=None)
    return True


def leave() -> None:
    """This process stops counting (shutdown, tests)."""
    mine = member()
    _state.update(member=None, pid=None, out=None)
    if mine is not None:
        mine.leave()


def serving() -> bool:
    """Whether this process serves: False while a process of another layer that started
    before it runs (`Watch`)."""
    return _state["out"] is None or _state["pid"] != os.getpid()


def out_of_service() -> str | None:
    """Why this process does not serve, or None."""
    return None if serving() else str(_state["out"])


def beat() -> None:
    """One beat of this process's membership (`Member.keep`), in a thread of the caller's:
    going out of service, or back, as the others say (logged once each way)."""
    mine = member()
    if mine is None:
        return
    older = mine.keep()
    if older and _state["out"] is None:
        reason = f"another channel layer runs on this database: {describe(older)}"
        _state["out"] = reason
        logger.critical(
            OUT_OF_SERVICE, kind_words(mine.kind), mine.label, count(older), speak(older)
        )
        signals.out_of_service.send_robust(sender=Member, reason=reason)
    elif not older and _state["out"] is not None:
        _state["out"] = None
        logger.warning(BACK, kind_words(mine.kind), mine.label)


class Watch:
    """The beat on the server's event loop (`start`), its database work in a thread of its own."""

    def __init__(self) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="servers")
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.run())

    async def run(self) -> None:
        run_beat = sync_to_async(beat, thread_sensitive=False, executor=self._executor)
        failing = False
        while True:
            await asyncio.sleep(BEAT_SECONDS)
            try:
                await run_beat()
            except Exception as e:  # the database is down: the next beat asks again
                if not failing:  # once, not every beat while it stays down
                    logger.warning("could not renew this process's record on the database (%s)", e)
                failing = True
            else:
                failing = False

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        self._executor.shutdown(wait=False)
