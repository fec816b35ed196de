"""Driving the table page (/m/<id>/) in a real browser, through its UI only.

`Table(page)` records every websocket frame the page sends and receives (before
the page is opened: ``Table(page).open(url)``) and offers the moves a person
makes: click a tile, click a glowing train, press a button, confirm a dialog, ask
for a hint (`first_fit` reads the move to make off the page). It reads the board the server rendered (``#board > .board`` and its
``data-*`` attributes, see games/table/board.py) and never calls a service.

`tiles_in(text)` finds every tile a text names ("5-3", SVG ``data-pips`` …), the
tool for "no hand reaches anyone but its owner" (R24). `pick_seed` chooses a deal
by simulating a round with the engine (the computers' policy and ours: the first
tile that fits, `first_fit_policy`), so a test can count on the situations it wants
to show without a hard-coded seed. `resize(page, viewport)` looks at a loaded page at
another size.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any

from engine import bots, rules
from engine.state import Action, RoundState
from engine.tiles import Tile
from engine.views import SeatView, view
from games.services import SeatSpec
from tests import frames, seeded

BOARD = "#board > .board"
OVER = ("round_over", "match_over")

#: what a tap in the middle of a hand tile would hit instead of the tile (None: the tile)
COVERING = """(tile) => {
  const el = document.querySelector(`.htile[data-tile="${tile}"]`);
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return !hit || el.contains(hit) ? null : (hit.id || String(hit.className));
}"""

_SVG_PATH = re.compile(r'\sd="[^"]*"')
_TILE = re.compile(r"(?<![\w.\-])(\d{1,2})-(\d{1,2})(?![\w.\-])")


def tiles_in(text: str) -> set[Tile]:
    """Every tile written as "a-b" in `text` (either order; SVG path data ignored), normalised."""
    found = set()
    for a, b in _TILE.findall(_SVG_PATH.sub("", text)):
        x, y = int(a), int(b)
        if x <= 12 and y <= 12:
            found.add((min(x, y), max(x, y)))
    return found


#: waits for two frames: what a resize sets off in the page's scripts (the top bar's fitting,
#: the chat's and a tip's places, each run in the next frame) has run
TWO_FRAMES = """() => new Promise((done) =>
  requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"""


def resize(page: Any, viewport: Mapping[str, int]) -> None:
    """The window at `viewport` under the loaded page (a person on that device), the page's
    scripts done with the new size: a page looked at at several sizes is loaded once."""
    page.set_viewport_size(dict(viewport))
    # The renderer may take the new size after the call returns: its window has that size
    # first, then two frames pass, which run what the page does on a resize.
    page.wait_for_function(
        "([w, h]) => innerWidth === w && innerHeight === h",
        arg=[viewport["width"], viewport["height"]],
    )
    page.evaluate(TWO_FRAMES)


def spoken(tile: Tile) -> str:
    return f"{max(tile)}-{min(tile)}"


class Table:
    """One table page and the frames of its websocket(s)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        #: (monotonic time, decoded message) of every frame the server sent this page
        self.received: list[tuple[float, dict[str, Any]]] = []
        #: every frame this page sent
        self.sent: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.sockets: list[Any] = []
        page.on("websocket", self._socket)
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _socket(self, ws: Any) -> None:
        if "/ws/m/" not in ws.url:
            return
        self.sockets.append(ws)
        ws.on(
            "framereceived",
            lambda payload: self.received.append((time.monotonic(), json.loads(payload))),
        )
        ws.on("framesent", lambda payload: self.sent.append(json.loads(payload)))

    def open(self, url: str) -> Table:
        self.page.goto(url)
        self.wait_connected()
        return self

    def wait_connected(self) -> None:
        """The socket is open and its first board arrived and is in place (the server sends it as
        the socket opens; the client swaps the page's board for it)."""
        deadline = time.monotonic() + 10
        while not any(m["type"] == "board" for _, m in self.received):  # the first is whole
            if time.monotonic() > deadline:
                raise AssertionError(f"no board over the websocket; page errors: {self.errors}")
            self.page.wait_for_timeout(20)
        # The page has put that board in place (#board's data-synced), not only received it: the
        # server-rendered board it replaces would otherwise be measured as it leaves the page.
        self.page.wait_for_function(
            "() => document.querySelector('#board[data-synced] > .board') !== null"
        )  # no eval under the CSP

    # ------------------------------------------------------------ reading the board

    @property
    def board(self) -> Any:
        return self.page.locator(BOARD)

    def data(self, name: str) -> str:
        return self.board.get_attribute(f"data-{name}") or ""

    def version(self) -> int:
        return int(self.data("version"))

    def phase(self) -> str:
        return self.data("phase")

    def your_turn(self) -> bool:
        return self.data("your-turn") == "true"

    def html(self) -> str:
        return self.page.inner_html("#board")

    def hand(self) -> list[str]:
        """The hand tiles in the DOM, as their data-tile ("6-4")."""
        return self.page.eval_on_selector_all(".htile", "els => els.map(e => e.dataset.tile)")

    def playable(self) -> dict[str, list[str]]:
        return self.page.eval_on_selector_all(
            ".htile",
            "els => Object.fromEntries(els.filter(e => e.dataset.targets)"
            ".map(e => [e.dataset.tile, e.dataset.targets.split(' ')]))",
        )

    def boards(self) -> list[dict[str, Any]]:
        """Every board this page had, in order: the whole ones sent, and the ones each update
        frame made of the board before it (games/board/parts.py; the page morphs the same
        parts in). An update that does not follow its board is skipped: the page asks for a
        sync then."""
        out: list[dict[str, Any]] = []
        last: dict[str, Any] | None = None
        for _, m in self.received:
            if m["type"] == "board":
                last = m
                out.append(m)
            elif m["type"] == "update" and last is not None and m["base"] == last["version"]:
                last = frames.as_board(last, m)
                out.append(last)
        return out

    def resync(self) -> None:
        """Ask for the board again ("sync": the same version, swapped in whole) and wait
        until it has come and been swapped in."""
        count = len(self.boards())
        self.page.evaluate("MT.sync()")
        deadline = time.monotonic() + 10
        while len(self.boards()) <= count:
            if time.monotonic() > deadline:
                raise AssertionError("no board came after sync")
            self.page.wait_for_timeout(25)
        self.page.wait_for_timeout(100)  # the swap follows the message at once; let it run

    def wait(self, condition: str, timeout: float = 15_000) -> None:
        """Wait until `condition` (JS, `b` is the board element) holds."""
        self.page.wait_for_function(
            f"() => {{ const b = document.querySelector('{BOARD}'); return !!b && ({condition}); }}",
            timeout=timeout,
        )

    def wait_version_above(self, version: int, timeout: float = 15_000) -> None:
        self.wait(f"parseInt(b.dataset.version, 10) > {version}", timeout)

    def wait_turn_or_over(self, timeout: float = 20_000) -> None:
        self.wait(
            "b.dataset.yourTurn === 'true' || b.dataset.phase === 'round_over' || b.dataset.phase === 'match_over'",
            timeout,
        )

    def assert_no_errors(self) -> None:
        errors = [m for _, m in self.received if m["type"] == "error"]
        assert not errors, errors
        assert not self.errors, self.errors

    # ------------------------------------------------------------ moves, through the UI

    def _done(self, before: int) -> None:
        """The action was sent: its board (a newer version) arrives, or the server's refusal fails the test."""
        deadline = time.monotonic() + 15
        while self.version() <= before:
            self.assert_no_errors()
            if time.monotonic() > deadline:
                raise AssertionError("the board did not change after the action")
            self.page.wait_for_timeout(15)

    def click_tile(self, tile: str) -> None:
        self.page.click(f'.htile[data-tile="{tile}"]')

    def play(self, tile: str, train: str) -> None:
        """Click a tile, see its trains glow, click the glowing train (R23, R30). In our first
        turn a tile has one place, our own train (R8): one click on it lays it there."""
        before = self.version()
        if self.phase() == "first" and self.your_turn():
            assert self.playable()[tile] == [train], (tile, train, self.playable())
            self.click_tile(tile)
            self._done(before)
            return
        self.click_tile(tile)
        expected = sorted(self.playable()[tile])
        glowing = self.page.eval_on_selector_all(
            ".train.is-target", "els => els.map(e => e.dataset.train)"
        )
        assert sorted(glowing) == expected, (tile, glowing, expected)
        assert (
            self.page.locator(f'.htile[data-tile="{tile}"]').get_attribute("aria-pressed") == "true"
        )
        self.page.click(f'.train.is-target[data-train="{train}"]')
        self._done(before)

    def press(self, act: str) -> None:
        """A button without a dialog: Confirm engine (R7), Draw and Pass (R15). A Confirm
        engine that also passes (the holder has no tile to start a train: R10, data-then) is
        done when that pass has come too."""
        before = self.version()
        button = f'[data-act="{act}"]'
        then = self.page.get_attribute(button, "data-then")
        self.page.click(button)
        self._done(before)
        if then:
            self.wait(
                f"!b.querySelector('[data-act=\"{act}\"]') && !b.querySelector('.hand__actions [data-act=\"{then}\"]')"
            )
            self.assert_no_errors()

    def confirm(self, act: str) -> str:
        """End first turn (R9): open the preview, check it, confirm. Returns its text.
        Draw (R15) shows its face-down preview on the button itself and draws at one click."""
        before = self.version()
        if act == "draw":
            button = self.page.locator('.hand__actions [data-act="draw"]')
            assert button.locator(".tile--back").count() == 1  # the preview names no tile (R15)
            assert not tiles_in(button.inner_html()), button.inner_html()
            text = button.inner_text()
            button.click()
            self._done(before)
            return text
        self.page.click(f'.hand__actions [data-act="{act}"]')
        dialog = self.page.locator(f"#{act}-dialog")
        dialog.wait_for(state="visible")
        text = dialog.inner_text()
        self.page.click(f'#{act}-dialog [data-confirm-act="{act}"]')
        self._done(before)
        return text

    def ask_hint(self) -> dict[str, Any]:
        """Press Hint; the suggestion is marked on the board and nothing is played (R23)."""
        before, count = self.version(), len(self.received)
        self.page.click('.hand__actions [data-cmd="hint"]')
        deadline = time.monotonic() + 10
        while True:
            found = [m for _, m in self.received[count:] if m["type"] == "hint"]
            if found:
                break
            self.assert_no_errors()
            if time.monotonic() > deadline:
                raise AssertionError("no hint came")
            self.page.wait_for_timeout(15)
        msg = found[0]
        if msg["tile"]:
            self.page.wait_for_selector(f'.htile.is-hint[data-tile="{msg["tile"]}"]')
            # The suggested tile can be tapped at once: nothing (the hint's toast) lies over it.
            over = self.page.evaluate(COVERING, msg["tile"])
            assert over is None, f"the hinted tile is covered by {over}"
        if msg["act"] and msg["act"] != "play":
            self.page.wait_for_selector(f'[data-act="{msg["act"]}"].is-hint')
        assert msg["reason"]
        assert self.version() == before  # a hint plays nothing
        return msg

    def first_fit(self) -> tuple[str, str | None, str | None]:
        """The action `first_fit_policy` chooses, read off the page: Confirm engine, else the
        first tile that may be played on the first train it fits, else Draw / Pass / End.
        Returns (act, tile, train)."""
        if self.page.locator('[data-act="engine"]').count():
            return "engine", None, None
        playable = self.playable()
        if playable:
            tile, targets = next(iter(playable.items()))
            order = self.page.eval_on_selector_all(".train", "els => els.map(e => e.dataset.train)")
            return "play", tile, min(targets, key=order.index)
        for act in ("draw", "pass", "end"):
            if self.page.locator(f'.hand__actions [data-act="{act}"]').count():
                return act, None, None
        raise AssertionError(f"nothing to do on this board: {self.data('status')}")

    def do(self, act: str, tile: str | None = None, train: str | None = None) -> str:
        """Make a move by clicking (previews confirmed). Returns the preview's text, if any."""
        if act == "play":
            assert tile is not None and train is not None
            self.play(tile, train)
        elif act in ("draw", "end"):
            return self.confirm(act)
        else:
            self.press(act)
        return ""

    def act_first_fit(self) -> tuple[str, str | None, str | None]:
        """Make the `first_fit` move by clicking. Returns (act, tile, train)."""
        move = self.first_fit()
        self.do(*move)
        return move


# ---------------------------------------------------------------- choosing a deal


Policy = Callable[[SeatView], Action]


def first_fit_policy(v: SeatView) -> Action:
    """The first playable tile of the hand in its order on the first train it fits (what
    Right-arrow to it, Enter, Enter does), else Draw / Pass / End / Confirm engine."""
    plays = [a for a in v.legal if a.act == "play"]
    assert v.hand is not None
    order = [t.key for t in v.trains]
    for tile in v.hand:
        fits = [a for a in plays if a.tile == tile]
        if fits:
            return min(fits, key=lambda a: order.index(a.train))  # type: ignore[arg-type]
    return next(a for a in v.legal if a.act != "play")


def simulate(
    players: int,
    seed: int,
    me: Policy | Mapping[int, Policy],
    *,
    level: str = "casual",
    limit: int = 400,
) -> list[tuple[str, Action]] | None:
    """Round 1 of a match of `players` seats: seat 0 plays by `me` (or each seat in a
    {seat: policy} map by its policy), the others as computers of `level`. Returns
    (phase before, action) for every action, or None when it did not end within `limit`."""
    policies = me if isinstance(me, Mapping) else {0: me}
    state: RoundState = rules.new_match_round(players, seed)
    out: list[tuple[str, Action]] = []
    for _ in range(limit):
        if state.phase in OVER:
            return out
        seat = state.turn
        assert seat is not None
        v = view(state, seat)
        policy = policies.get(seat)
        action = policy(v) if policy is not None else bots.choose(v, level)  # type: ignore[arg-type]
        out.append((state.phase, action))
        state = rules.apply(state, action)
    return None


def pick_seed(
    players: int,
    me: Policy | Mapping[int, Policy],
    wanted: Callable[[list[tuple[str, Action]]], bool],
    *,
    cost: Callable[[list[tuple[str, Action]]], int] = len,
    seeds: Iterable[int] = range(1, 300),
) -> int:
    """Among `seeds`, the cheapest (by `cost`, default: actions in the round) whose round 1, played
    by `me` and casual computers, shows what `wanted` asks: the test then runs as short as it can."""
    best: tuple[int, int] | None = None
    for seed in seeds:
        actions = simulate(players, seed, me)
        if actions is not None and wanted(actions):
            key = (cost(actions), seed)
            best = key if best is None else min(best, key)
    if best is None:
        raise AssertionError("no seed shows the wanted situation")
    return best[1]


def mine(actions: list[tuple[str, Action]], seat: int = 0) -> list[tuple[str, Action]]:
    return [(phase, a) for phase, a in actions if a.seat == seat]


def we_hold_the_engine(actions: list[tuple[str, Action]]) -> bool:
    first = actions[0][1]
    return first.act == "engine" and first.seat == 0 and actions[1][1].act == "play"


@cache
def _engine_seed() -> int:
    return pick_seed(2, first_fit_policy, we_hold_the_engine, seeds=range(1, 60), cost=lambda a: 0)


def against_a_computer(user: Any) -> Any:
    """A match of `user` against a casual computer, dealt so that `user` holds the engine
    double (R7) and then has a tile to play: the table tests' usual start."""
    return seeded.match_create(
        creator=user,
        seed=_engine_seed(),
        seats=[SeatSpec("me"), SeatSpec("computer", level="casual")],
    )
