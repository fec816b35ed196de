"""A websocket player for the fault tests: plays its seat as fast as the protocol allows and
reconnects whenever the connection drops, re-sending an unanswered command with its request id."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from websockets.exceptions import ConnectionClosed

from tests.servers import TableSocket, choose_from_board, rid

#: how long a player waits for more queued messages before acting on the newest board
DRAIN = 0.005


class Player:
    """Plays through `sock` until `stop` is set or `deadline` (monotonic) passes.

    `sent` records every command sent (request id -> message); `sock.acks` the
    acknowledged ones. `reconnects` holds, for each reconnection, (database version
    just before connecting, version of the first board received, database version
    just after it) when `version_now` is given."""

    def __init__(
        self,
        sock: TableSocket,
        *,
        stop: asyncio.Event,
        deadline: float,
        on_sent: Callable[[Player], None] | None = None,
        version_now: Callable[[], Awaitable[int]] | None = None,
        act: bool = True,
    ) -> None:
        self.sock = sock
        self.stop = stop
        self.deadline = deadline
        self.on_sent = on_sent
        self.version_now = version_now
        self.act = act
        self.sent: dict[str, dict[str, Any]] = {}
        self.pending: dict[str, Any] | None = None
        self.reconnects: list[tuple[int, int, int]] = []
        self.drops = 0
        self.resent = 0

    async def run(self) -> None:
        connected = self.sock.ws is not None
        while not self.stop.is_set() and time.monotonic() < self.deadline:
            if not connected:
                try:
                    await self._reconnect()
                    connected = True
                except ConnectionClosed:  # dropped again at once (the server is not healthy yet)
                    self.drops += 1
                    await asyncio.sleep(0.05)
                continue
            try:
                message = await self.sock.recv(timeout=0.2)
            except TimeoutError:
                continue
            except ConnectionClosed:
                self.drops += 1
                connected = False
                continue
            kind = message["type"]
            if (
                kind in ("ack", "error")
                and self.pending is not None
                and message.get("request_id") == self.pending["request_id"]
            ):
                self.pending = None
            if kind == "board" and self.pending is None and self.act:
                try:
                    await self._drain()
                    await self._maybe_act()
                except ConnectionClosed:
                    self.drops += 1
                    connected = False

    async def _drain(self) -> None:
        """Read what is already queued, so the player acts on the newest board."""
        while True:
            try:
                message = await self.sock.recv(timeout=DRAIN)
            except TimeoutError:
                return
            if self.pending is not None and message.get("request_id") == self.pending["request_id"]:
                self.pending = None

    async def _maybe_act(self) -> None:
        board = self.sock.last_board
        if board is None or self.pending is not None:
            return
        command = choose_from_board(board["html"])
        if command is None:
            return
        command = {**command, "version": board["version"], "request_id": rid()}
        self.pending = command
        self.sent[command["request_id"]] = command
        await self.sock.send(**command)
        if self.on_sent is not None:
            self.on_sent(self)

    async def _reconnect(self) -> None:
        before = await self.version_now() if self.version_now is not None else -1
        await self.sock.open_until(self.deadline)
        board = await self.sock.expect("board")
        after = await self.version_now() if self.version_now is not None else -1
        self.reconnects.append((before, board["version"], after))
        if self.pending is not None:
            # Sent before the drop and never answered: ask again with the same request id.
            # Either it was applied (a duplicate ack with the stored version) or it was not
            # (applied now, or refused as stale).
            self.resent += 1
            await self.sock.send(**self.pending)
        elif self.act:
            await self._maybe_act()  # it may be this player's turn already
