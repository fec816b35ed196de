"""One connection's outgoing frames (games.table.hub): a bounded queue drained by a task of its
own, so its frames go in order and a slow or dead socket never holds up the table's others.
Past its limit, its board updates are dropped and the whole board asked for instead once it
drains (a resync); if even its other frames pile up that far, the socket is dead to us."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from games.processes import trace

logger = logging.getLogger(__name__)

#: frames a connection may have waiting before it is resynced (its board updates dropped)
OUTBOX_LIMIT = 64


class Outbox:
    """One connection's frames, sent in order by a task of its own (`send`: the socket's)."""

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        *,
        on_resync: Callable[[], None],
        on_dead: Callable[[], Coroutine[Any, Any, None]],
        limit: int = OUTBOX_LIMIT,
    ) -> None:
        self._send = send
        self._on_resync = on_resync
        self._on_dead = on_dead
        self.limit = limit
        #: (text, is it a board frame (droppable on a resync), trace key)
        self._queue: deque[tuple[str, bool, Any]] = deque()
        self._ready = asyncio.Event()
        self._task: asyncio.Task[None] | None = asyncio.get_running_loop().create_task(
            self._drain()
        )
        self.resyncs = 0
        self.closed = False

    def put(self, text: str, *, board: bool = False, key: Any = None) -> None:
        """Queue one frame. Past the limit: drop the queued board frames and ask for the whole
        board (`on_resync`); if that frees nothing, the socket is dead to us: `on_dead`."""
        if self.closed:
            return
        if len(self._queue) >= self.limit:
            kept = deque(item for item in self._queue if not item[1])
            if len(kept) >= self.limit:
                self.closed = True
                self._queue.clear()
                asyncio.get_running_loop().create_task(self._on_dead())
                return
            self._queue = kept
            self.resyncs += 1
            if board:
                self._on_resync()
                return
            self._on_resync()
        self._queue.append((text, board, key))
        self._ready.set()

    def waiting(self) -> int:
        return len(self._queue)

    async def _drain(self) -> None:
        while True:
            await self._ready.wait()
            self._ready.clear()
            while self._queue:
                text, _board, key = self._queue.popleft()
                try:
                    await self._send(text)
                except Exception:  # the socket is gone; its consumer's ending cleans up
                    logger.debug("a table frame could not be sent", exc_info=True)
                if key is not None:
                    trace.mark(key, "send")

    async def close(self) -> None:
        self.closed = True
        self._queue.clear()
        task, self._task = self._task, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
