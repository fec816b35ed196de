"""Which process runs the computers: one server per database of the in-memory layer.

A server that starts (`claim_at_start`) takes a PostgreSQL advisory lock (`LOCK_KEY`,
session level, on a connection of its own held for the process's life) when it would run
the computers in process or has no shared layer. A second one finds it held and says so in
one log line (`REFUSED_ALONE`, `REFUSED_SHARED`): without ``REDIS_URL`` it refuses to start
(its pages would never hear the first one's moves: a version that exists would wait for the
page's next ``check``), with ``REDIS_URL`` it serves but leaves the computers to the process
that holds the lock. A killed process's lock ends with its connection; a lock lost with its
connection (a database restart) is taken again by the loop's beat (`keep_claim`), or, if
another process took it meanwhile, said in one line.

Where the computers run (`enabled`): with the in-memory channel layer (no ``REDIS_URL``) in
the one server process; with a shared layer (``REDIS_URL``) in ``manage.py run_computers``
only (``.ci/serve`` starts it beside daphne). ``COMPUTER_WORKER`` ``on``/``off`` overrides
either way.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from typing import Any

from django.conf import settings
from django.db import connection

logger = logging.getLogger(__name__)

#: this process's loop: its pid, task and worker, and the pid of a process refused the lock
_running: dict[str, Any] = {"pid": None, "task": None, "worker": None, "refused": None}

#: pg_try_advisory_lock(*LOCK_KEY): held by the process whose loop runs the computers in
#: process, or that is a database's only server without a shared layer ("mext", 1)
LOCK_KEY = (0x6D657874, 1)
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
    # A lock still held is asked again for a while (settings.COMPUTER_LOCK_WAIT): the session
    # of a process killed a moment ago ends, and its lock with it, once PostgreSQL sees its
    # connection closed.
    deadline = time.monotonic() + (settings.COMPUTER_LOCK_WAIT if wait is None else wait)
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
