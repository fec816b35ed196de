"""Each table connection's budget of frames: a token bucket.

One spectator's 10,000 ``sync`` frames queued minutes of board work on its server
(five such sockets slowed the computers of every table from 5.4 to 3.6 versions a
second). A connection may now send `BURST` frames at once and `RATE` a second on
average, far above what a table page sends (a ``check`` every 20 s, the panel's
renewal, a person's clicks; tests that play whole rounds through the socket send
10–20 a second). Past that, each frame is dropped before it is even
decoded (no database, no board): the first one dropped in a run is answered with one
error frame (``too_many``, in words by games/table/words.py); once `TOLERANCE`
frames have been dropped in a row the connection is closed with `CLOSE_CODE`
(the page reconnects after its back-off and is sent the whole board once).

Frames are counted as they *arrive*, not as they are handled: `Metered` reads the
connection's incoming messages as soon as the server hands them over (a task of its
own), spends the budget on each, queues the accepted ones for the consumer and drops
the rest. The consumer handles one frame at a time, so a flood counted only when its
frames were handled was never "too fast" once handling a frame took longer than
1/`RATE` (a busy server): it got a board for every frame. `Budget` itself is pure
bookkeeping; the consumer (games.table.consumers.TableConsumer.__call__) reads through
`Metered(receive, for_connection())` and is handed a ``table.over_budget`` message
(`OVER_BUDGET`) when a frame is refused with something to say or do, which `answer` does. ``settings.TABLE_FRAME_BUDGET = (rate, burst, tolerance)``
replaces the defaults (the fuzz tests send hundreds of frames a second on purpose).
"""

from __future__ import annotations

import asyncio
import enum
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from games.table import words as table_words

logger = logging.getLogger(__name__)

#: frames a second a connection may send on average
RATE = 20.0
#: frames a connection may send at once (the bucket's size); a new connection starts full
BURST = 100
#: frames dropped in a row (each past the budget) before the connection is closed
TOLERANCE = 100
#: the application's close code for a connection that kept sending past its budget
#: (HTTP's 429 "too many requests" in the application's range, like consumers.LAYER_RESTART)
CLOSE_CODE = 4029
#: the error code of the frame that says the budget is spent
TOO_MANY = "too_many"
#: the message `Metered` hands the consumer for a refused frame it must answer (its
#: ``verdict``: a `Verdict` value, "warn" or "close"); dispatched to ``table_over_budget``
OVER_BUDGET = "table.over_budget"


class Verdict(enum.Enum):
    """What the consumer does with a frame."""

    #: handle it
    ACCEPT = "accept"
    #: drop it and answer with one error frame (the first frame dropped in a run)
    WARN = "warn"
    #: drop it silently (the client was told already)
    DROP = "drop"
    #: drop it and close the connection with `CLOSE_CODE`
    CLOSE = "close"


@dataclass
class Budget:
    """A token bucket of `burst` frames refilled at `rate` a second, closing after
    `tolerance` refusals in a row."""

    rate: float = RATE
    burst: int = BURST
    tolerance: int = TOLERANCE
    clock: Callable[[], float] = time.monotonic
    tokens: float = field(init=False)
    at: float = field(init=False)
    #: frames dropped since the last one accepted
    dropped: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.tokens = float(self.burst)
        self.at = self.clock()

    def spend(self) -> Verdict:
        """Count one frame received now; what to do with it."""
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.dropped = 0
            return Verdict.ACCEPT
        self.dropped += 1
        if self.dropped >= self.tolerance:
            return Verdict.CLOSE
        return Verdict.WARN if self.dropped == 1 else Verdict.DROP


def for_connection() -> Budget:
    """A new connection's budget: the defaults, or ``settings.TABLE_FRAME_BUDGET``."""
    rate, burst, tolerance = getattr(settings, "TABLE_FRAME_BUDGET", (RATE, BURST, TOLERANCE))
    return Budget(rate=float(rate), burst=int(burst), tolerance=int(tolerance))


class Metered:
    """A connection's incoming messages, read as they arrive and counted against its budget.

    `receive` is what the consumer awaits instead of the server's: the messages in order,
    less the frames past the budget; in their place, for the first of a run and for the
    one that ends the connection, an `OVER_BUDGET` message. Once that one is handed over,
    later frames are dropped unread. The reader task ends with the connection (`stop`)."""

    def __init__(self, receive: Callable[[], Awaitable[dict[str, object]]], budget: Budget) -> None:
        self._receive = receive
        self.budget = budget
        self._queue: asyncio.Queue[dict[str, object]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._error: BaseException | None = None
        self._closed = False

    async def receive(self) -> dict[str, object]:
        if self._task is None:
            self._task = asyncio.create_task(self._read())
        message = await self._queue.get()
        if self._error is not None and message.get("type") == "":
            raise self._error
        return message

    async def _read(self) -> None:
        try:
            while True:
                message = await self._receive()
                if message.get("type") == "websocket.receive":
                    if self._closed:
                        continue
                    verdict = self.budget.spend()
                    if verdict is Verdict.DROP:
                        continue
                    if verdict is not Verdict.ACCEPT:
                        self._closed = verdict is Verdict.CLOSE
                        message = {"type": OVER_BUDGET, "verdict": verdict.value}
                self._queue.put_nowait(message)
                if message.get("type") == "websocket.disconnect":
                    return
        except asyncio.CancelledError:
            raise
        except BaseException as e:  # the server's receive failed: the consumer sees it raised
            self._error = e
            self._queue.put_nowait({"type": ""})

    async def stop(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass


async def answer(conn: Any, event: dict[str, Any]) -> None:
    """An `OVER_BUDGET` message's answer on table connection `conn`: the first frame dropped in
    a run gets one error frame; a connection that goes on is closed with `CLOSE_CODE`."""
    verdict = Verdict(event["verdict"])
    if verdict is Verdict.WARN:
        await conn.send_json(
            {
                "type": "error",
                "code": TOO_MANY,
                "message": conn.words(table_words.too_many_frames),
                "request_id": None,
            }
        )
    elif verdict is Verdict.CLOSE:
        logger.warning(
            "table %s: closing a connection that kept sending past its budget", conn.match_id
        )
        conn.ended = True  # the frames still queued behind this one are not acted on
        await conn.close(code=CLOSE_CODE)
