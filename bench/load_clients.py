"""The load benchmark's players: one websocket client per seat, as a browser would be,
and anonymous spectators.

Each seat's client opens ``/ws/m/<id>/`` with its user's session cookie and an Origin
the server accepts; each spectator opens ``/ws/m/<id>/?watch=<token>`` with no cookie
(games/table/consumers.py ``may_watch``). Clients react to ``board`` frames (the whole
board, games/table/board.py) and to ``update`` frames (``{"type": "update", "v": …,
"parts": {id: html}, "edits": {id: [[start, end, text], …]}, "board": {attr: value},
"events": […]}``: only the parts that changed, whole or as line edits of the part's text,
which the client splices into the board it holds by element id, as the page does, and
the board's attributes that changed). When its board says it is its turn a seat reads the legal moves from the board
HTML, as the page's script does — the playable tiles ``[data-tile][data-targets]`` and
the buttons ``[data-act]`` — and sends the first one: the engine double, else the first
tile on its first target, else end, draw or pass. When a round is over, seat 0 presses
Next round. Every connection also sends the page's periodic ``check`` (static/js/table.js:
every 20 s; here each connection's first one at a random moment within the period, as
pages opened at different times would).

Two ways to play:

- flat out (``pace=None``): a seat sends as soon as its board says it is its turn, so
  the server is saturated and the latency is the queue (Little's law);
- open loop (``pace=R`` actions per second per table): each table has its own seeded
  schedule of exponential gaps, the next time counted from the last scheduled time
  (not from the send), so tables × R actions per second are offered whatever the
  server's speed. A seat whose turn comes before its table's next scheduled time waits
  for it; one whose turn comes late (the server was slow) sends at once.

Latency of an action: from sending it to the moment every seat and every spectator of
the table holds a board of the version it produced (each action adds one to the match
version), measured here on the clients' clock; and the acting seat's ``ack``. Frame
sizes are counted per frame (board or update), apart for players and spectators. Every
``error`` frame, every connection lost while playing and every action still
unconfirmed at the end is counted as an error.

The clients do not measure themselves: `drive` freezes this process's garbage collector
for the play (everything alive is moved to the permanent generation, the collector is
off; a client's garbage is freed by reference counting) and reports the CPU the
clients used.
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
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

from games.board.parts import apply_edits, part_text

PHASE = re.compile(r'data-phase="(\w+)"')
HAND_TILE = re.compile(r'data-tile="(\d+)-(\d+)" data-targets="([^"]*)"')
ACT_BUTTON = re.compile(r'\bdata-act="(\w+)"')
NEXT_ROUND = 'data-cmd="next_round"'
#: the first tag of a board (the board element) and one attribute in it
FIRST_TAG = re.compile(r"<[a-zA-Z][^>]*>")
YOUR_TURN_ATTR = re.compile(r'\bdata-your-turn="(\w+)"')
#: elements without an end tag
VOID = frozenset(
    {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
    }
)
#: seconds between a page's "check" messages (static/js/table.js CHECK_EVERY)
CHECK_EVERY = 20.0
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


def frame_version(message: dict[str, Any]) -> int:
    """The version a board (``version``) or update (``v``) frame brings."""
    v = message.get("version", message.get("v"))
    return v if isinstance(v, int) else -1


def replace_part(html: str, part_id: str, new: str) -> str:
    """`html` with the element whose id is `part_id` replaced by `new` (appended when there is
    none yet, e.g. a train that opened since), as the page swaps a part in by its id."""
    found = re.search(r'<([a-zA-Z][\w-]*)\b[^>]*?\bid="' + re.escape(part_id) + '"', html)
    if found is None:
        return html + new
    start, tag = found.start(), found.group(1).lower()
    open_end = html.index(">", found.end()) + 1
    if tag in VOID or html[open_end - 2] == "/":
        return html[:start] + new + html[open_end:]
    depth = 1
    for t in re.finditer(rf"<(/?){tag}\b[^>]*>", html[open_end:], re.IGNORECASE):
        depth += -1 if t.group(1) else 1
        if depth == 0:
            return html[:start] + new + html[open_end + t.end() :]
    return html[:start] + new  # unclosed: the part ran to the end


class Document:
    """The board a client holds: the last whole board with every update's parts and board
    attributes applied since, and what the frames said about the viewer's turn."""

    def __init__(self) -> None:
        self.html = ""
        self.version = -1
        self.your_turn = False

    def apply(self, message: dict[str, Any]) -> None:
        if message.get("type") == "board":
            self.html = message["html"]
        else:
            for part_id, part in (message.get("parts") or {}).items():
                self.html = replace_part(self.html, part_id, part)
            for part_id, changes in (message.get("edits") or {}).items():
                self.html = replace_part(
                    self.html, part_id, apply_edits(part_text(self.html, part_id), changes)
                )
            attrs = message.get("board") or {}
            if attrs:
                first = FIRST_TAG.search(self.html)
                if first is not None:
                    tag = first.group(0)
                    for name, value in attrs.items():
                        attr = re.compile(rf'\s{re.escape(name)}="[^"]*"')
                        text = "" if value is None else f' {name}="{value}"'
                        tag = (
                            attr.sub(text, tag, count=1)
                            if attr.search(tag)
                            else tag[:-1] + f"{text}>"
                        )
                    self.html = self.html[: first.start()] + tag + self.html[first.end() :]
        self.version = max(self.version, frame_version(message))
        if isinstance(message.get("your_turn"), bool):
            self.your_turn = message["your_turn"]
        else:  # an update frame: the board element says it (data-your-turn)
            first = FIRST_TAG.search(self.html)
            said = YOUR_TURN_ATTR.search(first.group(0)) if first else None
            self.your_turn = said is not None and said.group(1) == "true"


@dataclass(frozen=True)
class TableSpec:
    match_id: int
    #: the session cookie of each seat's user, by seat index
    cookies: list[str]
    #: the server port each seat connects to, by seat index
    ports: list[int]
    #: the match's watch token (spectators connect with it)
    watch_token: str = ""
    #: anonymous spectators of this table, and the server port each connects to
    spectator_ports: list[int] = field(default_factory=list)


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    #: the action of each latency: (match id, the version it made), in the same order (bench/load.py
    #: joins them with the servers' spans, games/processes/trace.py)
    latency_keys: list[tuple[int, int]] = field(default_factory=list)
    #: send -> the acting seat's ack
    ack_latencies: list[float] = field(default_factory=list)
    #: open loop: how late each send was against its table's schedule (0 when on time)
    lateness: list[float] = field(default_factory=list)
    #: sizes of the board and update frames received during play, by role
    frame_sizes: dict[str, list[int]] = field(
        default_factory=lambda: {"player": [], "spectator": []}
    )
    #: bytes each connection received during play, by role
    connection_bytes: dict[str, list[int]] = field(
        default_factory=lambda: {"player": [], "spectator": []}
    )
    frame_types: Counter[str] = field(default_factory=Counter)
    checks_sent: int = 0
    #: open loop: the scheduled times that had come by the end (tables × pace × seconds, about)
    offered: int = 0
    client_cpu_seconds: float = 0.0
    acts_sent: int = 0
    acts_acked: int = 0
    next_rounds: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    error_samples: list[str] = field(default_factory=list)
    tables_finished: int = 0
    boards: int = 0
    board_bytes: int = 0
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
    #: open loop: actions per second per table (None: flat out)
    pace: float | None = None
    seed: int = 0
    go: float = 0.0
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
    """The clients of one match (its seats, then its spectators) and the actions on their
    way to all of them."""

    def __init__(self, spec: TableSpec, run: Run, index: int = 0) -> None:
        self.spec = spec
        self.run = run
        seats = len(spec.cookies)
        self.clients = [Client(self, seat) for seat in range(seats)] + [
            Client(self, seats + k, spectator=True) for k in range(len(spec.spectator_ports))
        ]
        self.held = [-1] * len(self.clients)
        #: version an action will produce -> (when it was sent, its request id)
        self.pending: dict[int, tuple[float, str]] = {}
        self.errors = 0
        self.finished = False
        #: open loop: this table's own schedule (seeded), and its next scheduled time
        self.rng = random.Random(run.seed * 100_003 + index)
        self.next_at = 0.0

    def start_schedule(self, go: float) -> None:
        if self.run.pace:
            self.next_at = go + self.rng.expovariate(self.run.pace)

    def take_slot(self) -> float:
        """Open loop: the scheduled time of this table's next action, and the one after it
        counted from it (not from the send)."""
        at = self.next_at
        assert self.run.pace
        self.next_at = at + self.rng.expovariate(self.run.pace)
        return at

    def sent(self, version: int, request_id: str) -> None:
        self.pending[version] = (time.perf_counter(), request_id)

    def holds(self, seat: int, version: int) -> None:
        """A seat (or spectator) now holds `version`: actions every one has seen are done."""
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
                self.run.stats.latency_keys.append((self.spec.match_id, v))
            self.run.check_drained()

    def refused(self, request_id: str | None) -> None:
        for v, (_t, rid) in list(self.pending.items()):
            if rid == request_id:
                del self.pending[v]
        self.errors += 1
        self.run.check_drained()


class Client:
    def __init__(self, table: Table, seat: int, *, spectator: bool = False) -> None:
        self.table = table
        #: the seat index, or (spectators) an index after the seats
        self.seat = seat
        self.spectator = spectator
        self.role = "spectator" if spectator else "player"
        self.ws: ClientConnection | None = None
        self.doc = Document()
        self.first_board = asyncio.Event()
        #: the board version this client last acted on (it acts at most once per version)
        self.acted = -1
        #: request id -> when it was sent (for the ack latency)
        self.sent_at: dict[str, float] = {}
        self.bytes = 0
        self.waiting: asyncio.Task[None] | None = None

    @property
    def port(self) -> int:
        spec = self.table.spec
        return (
            spec.spectator_ports[self.seat - len(spec.cookies)]
            if self.spectator
            else spec.ports[self.seat]
        )

    @property
    def url(self) -> str:
        url = f"ws://127.0.0.1:{self.port}/ws/m/{self.table.spec.match_id}/"
        return f"{url}?watch={self.table.spec.watch_token}" if self.spectator else url

    async def open(self) -> None:
        headers = (
            {} if self.spectator else {"Cookie": f"sessionid={self.table.spec.cookies[self.seat]}"}
        )
        self.ws = await connect(
            self.url,
            origin=Origin(f"http://127.0.0.1:{self.port}"),
            additional_headers=headers,
            compression=None,
            ping_interval=None,
            max_size=2**23,
            open_timeout=120,
            close_timeout=5,
        )

    async def listen(self) -> None:
        assert self.ws is not None
        run = self.table.run
        stats = run.stats
        try:
            async for raw in self.ws:
                message = json.loads(raw)
                kind = message.get("type")
                if kind in ("board", "update"):
                    if run.playing:
                        stats.frame_types[kind] += 1
                        stats.frame_sizes[self.role].append(len(raw))
                        self.bytes += len(raw)
                    self.doc.apply(message)
                    self.first_board.set()
                    self.table.holds(self.seat, self.doc.version)
                    if not self.spectator:
                        await self.act()
                elif kind == "ack":
                    started = self.sent_at.pop(str(message.get("request_id")), None)
                    if started is not None:
                        stats.ack_latencies.append(time.perf_counter() - started)
                    if not message.get("duplicate"):
                        stats.acts_acked += 1
                elif kind == "error":
                    stats.error(str(message.get("code")), str(message.get("message")))
                    self.sent_at.pop(str(message.get("request_id")), None)
                    self.table.refused(message.get("request_id"))
                    self.acted = -1  # the server sends the board again: look at it afresh
                elif kind == "redirect":
                    pass
        except ConnectionClosed as e:
            if not run.closing:
                stats.error("closed", f"match {self.table.spec.match_id} seat {self.seat}: {e}")

    async def check_periodically(self, every: float, rng: random.Random) -> None:
        """The page's ``check``: every `every` seconds, the first at a random moment within the period."""
        assert self.ws is not None
        await asyncio.sleep(rng.uniform(0, every))
        while not self.table.run.closing:
            try:
                await self.ws.send('{"type": "check"}')
            except ConnectionClosed:
                return
            self.table.run.stats.checks_sent += 1
            await asyncio.sleep(every)

    async def act(self) -> None:
        """Send this seat's move if its board says so (once per board version); open loop:
        at its table's next scheduled time, or at once when that has passed."""
        run = self.table.run
        doc = self.doc
        if (
            not doc.html
            or not run.playing
            or run.stopping
            or self.table.finished
            or self.ws is None
        ):
            return
        version = doc.version
        if version <= self.acted or self.table.errors >= MAX_TABLE_ERRORS:
            return
        html = doc.html
        phase_match = PHASE.search(html)
        phase = phase_match.group(1) if phase_match else ""
        if phase == "match_over":
            self.table.finished = True
            run.stats.tables_finished += 1
            return
        request_id = uuid.uuid4().hex
        if doc.your_turn:
            action = choose(html, self.seat)
            if action is None:
                run.stats.error(
                    "no_action", f"match {self.table.spec.match_id} seat {self.seat} v{version}"
                )
                self.table.errors += 1
                return
            frame = {
                "type": "act",
                "seat": self.seat,
                "action": action,
                "version": version,
                "request_id": request_id,
            }
        elif phase == "round_over" and self.seat == 0 and NEXT_ROUND in html:
            frame = {"type": "next_round", "version": version, "request_id": request_id}
        else:
            return
        self.acted = version
        if run.pace:
            wait = self.table.take_slot() - time.perf_counter()
            run.stats.lateness.append(max(0.0, -wait))
            if wait > 0:
                self.waiting = asyncio.create_task(self.send_later(wait, frame))
                return
        await self.send_action(frame)

    async def send_later(self, wait: float, frame: dict[str, Any]) -> None:
        await asyncio.sleep(wait)
        if not self.table.run.stopping:
            await self.send_action(frame)

    async def send_action(self, frame: dict[str, Any]) -> None:
        run = self.table.run
        assert self.ws is not None
        if frame["type"] == "act":
            self.table.sent(frame["version"] + 1, frame["request_id"])
            run.stats.acts_sent += 1
            if run.stats.acts_sent >= run.max_actions:
                run.stopping = True
        else:
            run.stats.next_rounds += 1
        self.sent_at[frame["request_id"]] = time.perf_counter()
        await self.ws.send(json.dumps(frame))


async def drive(
    specs: list[TableSpec],
    *,
    seconds: float,
    max_actions: int,
    grace: float = 60.0,
    connect_concurrency: int = 8,
    on_start: Callable[[], None] | None = None,
    on_end: Callable[[], None] | None = None,
    pace: float | None = None,
    seed: int = 0,
    check_every: float = CHECK_EVERY,
) -> Stats:
    """Connect every seat and spectator, play until `seconds` pass or `max_actions` are
    sent, then let the actions on their way arrive (at most `grace` seconds) and close
    everything. `pace`: open loop at that many actions per second per table (None: flat
    out); `check_every`: seconds between each connection's ``check`` (0: none).
    `on_start` is called when play starts (every connection open and holding its board),
    `on_end` when it has ended (the last action arrived or `grace` passed), before any
    connection closes: what the servers do between the two is the play's alone."""
    stats = Stats()
    run = Run(stats=stats, max_actions=max_actions, pace=pace, seed=seed)
    run.tables = [Table(spec, run, index) for index, spec in enumerate(specs)]
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
    checkers: list[asyncio.Task[None]] = []
    frozen = gc.isenabled()
    try:
        await asyncio.gather(*(open_one(c) for c in clients))
        listeners = [asyncio.create_task(c.listen()) for c in clients]
        await asyncio.wait_for(
            asyncio.gather(*(c.first_board.wait() for c in clients)), timeout=120
        )
        stats.connect_seconds = time.perf_counter() - started

        # The client must not measure itself: no collection pauses during play. What is
        # alive now moves to the permanent generation; what play leaves is freed by
        # reference counting (the few cycles wait for the end of the run).
        gc.collect()
        gc.freeze()
        gc.disable()
        cpu_start = time.process_time()
        if on_start is not None:
            on_start()
        go = time.perf_counter()
        run.go = go
        run.playing = True
        if check_every > 0:
            check_rng = random.Random(seed)
            checkers = [
                asyncio.create_task(c.check_periodically(check_every, check_rng)) for c in clients
            ]
        for t in run.tables:
            t.start_schedule(go)
        for c in clients:
            if not c.spectator:
                await c.act()
        # Play until the time is up, the action budget is spent, or every table is over.
        deadline = go + seconds
        while time.perf_counter() < deadline and not run.stopping:
            if all(t.finished or t.errors >= MAX_TABLE_ERRORS for t in run.tables):
                break
            await asyncio.sleep(0.05)
        run.stopping = True
        if pace:
            end = time.perf_counter()
            for index in range(len(run.tables)):  # the scheduled times that came, taken or not
                rng = random.Random(seed * 100_003 + index)
                at, n = go, 0
                while True:
                    at += rng.expovariate(pace)
                    if at > end:
                        break
                    n += 1
                stats.offered += n
        run.check_drained()
        try:
            await asyncio.wait_for(run.drained.wait(), timeout=grace)
        except TimeoutError:
            pass
        stats.elapsed = time.perf_counter() - go
        stats.client_cpu_seconds = time.process_time() - cpu_start
        for t in run.tables:
            for _v, (_t, rid) in t.pending.items():
                stats.error(
                    "unconfirmed", f"match {t.spec.match_id}: request {rid} not seen by every seat"
                )
        for c in clients:
            stats.connection_bytes[c.role].append(c.bytes)
        if on_end is not None:
            on_end()
    finally:
        run.closing = True
        waiting = [c.waiting for c in clients if c.waiting is not None]
        for task in checkers + waiting:
            task.cancel()
        await asyncio.gather(
            *(c.ws.close() for c in clients if c.ws is not None), return_exceptions=True
        )
        for task in listeners:
            task.cancel()
        await asyncio.gather(*listeners, *checkers, *waiting, return_exceptions=True)
        if frozen:
            gc.unfreeze()
            gc.enable()
    return stats
