"""One database-thread hop per table for the boards told of a version (issue 11).

Every connection at a table is told "version v" at the same moment (``match.changed``;
the acting one by its ack). Each used to hop to a database thread of its own, where all
but the first waited for the first one's reads (`board_reads.current`): a notice to a
table of five took the process's four database threads at once, and every other
table's work, a person's action included, queued behind them (bench/load.py, open loop:
the threads spent a quarter of their time waiting so).

Here the connections of a match that are told of a version join one *pass*: one call
in a database thread that makes each joined connection's board in turn (its job: the
consumer's `board_message`, in its language), the first on fresh reads of the version
and the others on those (`board_reads.current` keeps them). A pass takes connections
until its thread starts on it and finds none left waiting, so under load passes grow by
themselves and, idle, nothing waits for a window to close. Each connection gets back
its own board, or the exception making it raised, and sends it itself: Channels hands a
consumer one message at a time, so nothing else of that connection runs meanwhile, and
its frames stay in order.

What a viewer may see is not decided here: each job is that connection's own board
(R24, games.table.board).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from channels.db import database_sync_to_async
from django.db import close_old_connections

Job = Callable[[], Any]


class Pass:
    """The jobs of one match's boards, made one after another in one database thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: list[tuple[Job, asyncio.Future[Any]]] = []
        self._closed = False
        #: (future, ok, result or exception) of each job made, in the order made
        self.done: list[tuple[asyncio.Future[Any], bool, Any]] = []

    def join(self, job: Job, future: asyncio.Future[Any]) -> bool:
        """Add a job unless the pass's thread has finished taking them (False: start another)."""
        with self._lock:
            if self._closed:
                return False
            self._waiting.append((job, future))
            return True

    def _next(self) -> tuple[Job, asyncio.Future[Any]] | None:
        with self._lock:
            if not self._waiting:
                self._closed = True
                return None
            return self._waiting.pop(0)

    def work(self) -> None:
        """In a database thread: make every job, those joined meanwhile included."""
        try:
            while (taken := self._next()) is not None:
                job, future = taken
                try:
                    self.done.append((future, True, job()))
                except Exception as e:  # that connection's failure; the others' boards go on
                    self.done.append((future, False, e))
        finally:
            # As TableConsumer.call: database_sync_to_async does it too, unless a test harness
            # turned it off (channels.testing does), and a connection left open past
            # CONN_MAX_AGE would keep its database busy.
            close_old_connections()

    def abandon(self, error: BaseException) -> list[asyncio.Future[Any]]:
        """Close the pass (its thread never ran, or failed): the futures of every job not made."""
        with self._lock:
            self._closed = True
            left, self._waiting = self._waiting, []
        return [future for _job, future in left]


#: the pass of each (event loop, match) that still takes jobs; touched only in that loop
_open: dict[tuple[asyncio.AbstractEventLoop, int], Pass] = {}
#: the passes running (a task is kept only weakly by its loop)
_running: set[asyncio.Task[None]] = set()


async def run(match_id: int, job: Job, *, executor: Executor) -> Any:
    """`job()`'s result, made in `match_id`'s pass (a database thread of `executor`)."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()
    key = (loop, match_id)
    current = _open.get(key)
    if current is None or not current.join(job, future):
        current = _open[key] = Pass()
        current.join(job, future)
        task = loop.create_task(_drive(key, current, executor))
        _running.add(task)
        task.add_done_callback(_running.discard)
    return await future


async def _drive(key: tuple[asyncio.AbstractEventLoop, int], p: Pass, executor: Executor) -> None:
    failure: BaseException | None = None
    try:
        await database_sync_to_async(p.work, thread_sensitive=False, executor=executor)()
    except Exception as e:  # the executor refused (shut down): told to every caller below
        failure = e
    except BaseException as e:  # cancelled (the server stopping): the callers are told too
        failure = e
        raise
    finally:
        if _open.get(key) is p:
            del _open[key]
        for future, ok, value in p.done:
            if not future.done():  # its connection may have stopped waiting (closed)
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)
        for future in p.abandon(failure or RuntimeError("the pass ended")):
            if not future.done():
                future.set_exception(RuntimeError(f"the board pass failed: {failure!r}"))
