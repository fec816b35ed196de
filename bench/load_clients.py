"""The load benchmark's players: one websocket client per seat, as a browser would be.

Each client opens ``/ws/m/<id>/`` with its user's session cookie and an Origin
the server accepts, and then only reacts to ``board`` messages (the contract in
games/board.py's docstring). When its board says it is its turn it reads the
legal moves from the board HTML, as the page's script does — the playable tiles
``[data-tile][data-targets]`` and the buttons ``[data-act]`` — and sends the first
one: the engine double, else the first tile on its first target, else end, draw
or pass. When a round is over, seat 0 presses Next round. Nothing else is sent.

Latency of an action: from sending it to the moment every seat of the table
holds a board of the version it produced (each action adds one to the match
version), measured here on the clients' clock. Every ``error`` frame, every
connection lost while playing and every action still unconfirmed at the end is
counted as an error.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.typing import Origin

from games.table import parts

PHASE = re.compile(r'data-phase="(\w+)"')
HAND_TILE = re.compile(r'data-tile="(\d+)-(\d+)" data-targets="([^"]*)"')
ACT_BUTTON = re.compile(r'\bdata-act="(\w+)"')
NEXT_ROUND = 'data-cmd="next_round"'
#: a table that keeps being refused stops playing (the errors are counted)
MAX_TABLE_ERRORS = 5


def choose(html: str, seat: int) -> dict[str, Any] | None:
    """The first legal action the board offers this seat, as a replay-format action."""
    acts = ACT_BUTTON.findall(html)
    if "engine" in acts:
        return {"act": "engine", "seat": seat}
    for high, low, targets in HAND_TILE.findall(html):
        if targets.split():
            train: int | str = targets.split()[0]
            train = int(train) if str(train).isdigit() else train
            return {"act": "play", "seat": seat, "tile": f"{high}-{low}", "train": train}
    for act in acts:
        if act in ("end", "draw", "pass"):
            return {"act": act, "seat": seat}
    return None


@dataclass(frozen=True)
class TableSpec:
    match_id: int
    #: the session cookie of each seat's user, by seat index
    cookies: list[str]
    #: the server port each seat connects to, by seat index
    ports: list[int]


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    acts_sent: int = 0
    acts_acked: int = 0
    next_rounds: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    error_samples: list[str] = field(default_factory=list)
    tables_finished: int = 0
    boards: int = 0
    board_bytes: int = 0
    #: update frames among the boards, and the size of every board or update frame
    updates: int = 0
    frame_sizes: list[int] = field(default_factory=list)
    connect_seconds: float = 0.0
    connect_retries: int = 0
    elapsed: float = 0.0

    def error(self, code: str, sample: str) -> None:
        self.errors[code] += 1
        if len(self.error_samples) < 10:
            self.error_samples.append(f"{code}: {sample}"[:300])


@dataclass
class Run:
    """What all clients share: whether to play, and the bounds."""

    stats: Stats
    max_actions: int
    playing: bool = False
    stopping: bool = False
    closing: bool = False
    drained: asyncio.Event = field(default_factory=asyncio.Event)
    tables: list[Table] = field(default_factory=list)

    def pending(self) -> int:
        return sum(len(t.pending) for t in self.tables)

    def check_drained(self) -> None:
        if self.stopping and self.pending() == 0:
            self.drained.set()


class Table:
    """The four clients of one match and the actions on their way to all of them."""

    def __init__(self, spec: TableSpec, run: Run) -> None:
        self.spec = spec
        self.run = run
        self.held = [-1] * len(spec.cookies)
        #: version an action will produce -> (when it was sent, its request id)
        self.pending: dict[int, tuple[float, str]] = {}
        self.errors = 0
        self.finished = False
        self.clients = [Client(self, seat) for seat in range(len(spec.cookies))]

    def sent(self, version: int, request_id: str) -> None:
        self.pending[version] = (time.perf_counter(), request_id)

    def holds(self, seat: int, version: int) -> None:
        """A seat now holds `version`: actions every seat has seen are done."""
        if version <= self.held[seat]:
            return
        self.held[seat] = version
        low = min(self.held)
        done = [v for v in self.pending if v <= low]
        if done:
            now = time.perf_counter()
            for v in done:
                started, _rid = self.pending.pop(v)
                self.run.stats.latencies.append(now - started)
            self.run.check_drained()

    def refused(self, request_id: str | None) -> None:
        for v, (_t, rid) in list(self.pending.items()):
            if rid == request_id:
                del self.pending[v]
        self.errors += 1
        self.run.check_drained()


class Client:
    def __init__(self, table: Table, seat: int) -> None:
        self.table = table
        self.seat = seat
        self.ws: ClientConnection | None = None
        self.board: dict[str, Any] | None = None
        self.first_board = asyncio.Event()
        #: the board version this client last acted on (it acts at most once per version)
        self.acted = -1

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.table.spec.ports[self.seat]}/ws/m/{self.table.spec.match_id}/"

    async def open(self) -> None:
        port = self.table.spec.ports[self.seat]
        self.ws = await connect(
            self.url, origin=Origin(f"http://127.0.0.1:{port}"),
            additional_headers={"Cookie": f"sessionid={self.table.spec.cookies[self.seat]}"},
            compression=None, ping_interval=None, max_size=2**23, open_timeout=120, close_timeout=5,
        )

    async def listen(self) -> None:
        assert self.ws is not None
        run = self.table.run
        stats = run.stats
        try:
            async for raw in self.ws:
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "update":
                    # Only the parts that changed (games/table/parts.py): applied to the board
                    # held, as the page morphs them in.
                    stats.updates += 1
                    if self.board is None or message["base"] != self.board["version"]:
                        stats.error("gap", f"match {self.table.spec.match_id} seat {self.seat}")
                        await self.ws.send(json.dumps({"type": "sync"}))
                        continue
                    message = parts.as_board(self.board, message)
                    kind = "board"
                if kind == "board":
                    stats.boards += 1
                    stats.board_bytes += len(raw)
                    stats.frame_sizes.append(len(raw))
                    self.board = message
                    self.first_board.set()
                    self.table.holds(self.seat, message["version"])
                    await self.act()
                elif kind == "ack":
                    if not message.get("duplicate"):
                        stats.acts_acked += 1
                elif kind == "error":
                    stats.error(str(message.get("code")), str(message.get("message")))
                    self.table.refused(message.get("request_id"))
                    self.acted = -1  # the server sends the board again: look at it afresh
                elif kind == "redirect":
                    pass
        except ConnectionClosed as e:
            if not run.closing:
                stats.error("closed", f"match {self.table.spec.match_id} seat {self.seat}: {e}")

    async def act(self) -> None:
        """Send this seat's move if its board says so (once per board version)."""
        run = self.table.run
        board = self.board
        if board is None or not run.playing or run.stopping or self.table.finished or self.ws is None:
            return
        version = board["version"]
        if version <= self.acted or self.table.errors >= MAX_TABLE_ERRORS:
            return
        html = board["html"]
        phase_match = PHASE.search(html)
        phase = phase_match.group(1) if phase_match else ""
        if phase == "match_over":
            self.table.finished = True
            run.stats.tables_finished += 1
            return
        request_id = uuid.uuid4().hex
        if board.get("your_turn"):
            action = choose(html, self.seat)
            if action is None:
                run.stats.error("no_action", f"match {self.table.spec.match_id} seat {self.seat} v{version}")
                self.table.errors += 1
                return
            self.acted = version
            self.table.sent(version + 1, request_id)
            run.stats.acts_sent += 1
            if run.stats.acts_sent >= run.max_actions:
                run.stopping = True
            await self.ws.send(json.dumps({"type": "act", "seat": self.seat, "action": action,
                                           "version": version, "request_id": request_id}))
        elif phase == "round_over" and self.seat == 0 and NEXT_ROUND in html:
            self.acted = version
            run.stats.next_rounds += 1
            await self.ws.send(json.dumps({"type": "next_round", "version": version, "request_id": request_id}))


async def drive(specs: list[TableSpec], *, seconds: float, max_actions: int, grace: float = 60.0,
                connect_concurrency: int = 8, on_start: Callable[[], None] | None = None) -> Stats:
    """Connect every seat, play until `seconds` pass or `max_actions` are sent, then let
    the actions on their way arrive (at most `grace` seconds) and close everything.
    `on_start` is called when play starts (every seat connected and holding its board)."""
    stats = Stats()
    run = Run(stats=stats, max_actions=max_actions)
    run.tables = [Table(spec, run) for spec in specs]
    clients = [c for t in run.tables for c in t.clients]
    gate = asyncio.Semaphore(connect_concurrency)

    async def open_one(client: Client) -> None:
        # A server busy with earlier connections may drop a handshake it could not finish
        # in time (daphne's websocket_connect_timeout): try again, as the page's script does.
        async with gate:
            for attempt in range(5):
                try:
                    await client.open()
                    return
                except (OSError, InvalidHandshake, TimeoutError):
                    if attempt == 4:
                        raise
                    stats.connect_retries += 1
                    await asyncio.sleep(0.5 * (attempt + 1))

    started = time.perf_counter()
    listeners: list[asyncio.Task[None]] = []
    try:
        await asyncio.gather(*(open_one(c) for c in clients))
        listeners = [asyncio.create_task(c.listen()) for c in clients]
        await asyncio.wait_for(asyncio.gather(*(c.first_board.wait() for c in clients)), timeout=120)
        stats.connect_seconds = time.perf_counter() - started

        if on_start is not None:
            on_start()
        go = time.perf_counter()
        run.playing = True
        for c in clients:
            await c.act()
        # Play until the time is up, the action budget is spent, or every table is over.
        deadline = go + seconds
        while time.perf_counter() < deadline and not run.stopping:
            if all(t.finished or t.errors >= MAX_TABLE_ERRORS for t in run.tables):
                break
            await asyncio.sleep(0.05)
        run.stopping = True
        run.check_drained()
        try:
            await asyncio.wait_for(run.drained.wait(), timeout=grace)
        except TimeoutError:
            pass
        stats.elapsed = time.perf_counter() - go
        for t in run.tables:
            for _v, (_t, rid) in t.pending.items():
                stats.error("unconfirmed", f"match {t.spec.match_id}: request {rid} not seen by every seat")
    finally:
        run.closing = True
        await asyncio.gather(*(c.ws.close() for c in clients if c.ws is not None), return_exceptions=True)
        for task in listeners:
            task.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)
    return stats
