"""The board a player sees: a presenter from an engine `SeatView` to a template context.

Everything a connection (a seat or a spectator) is shown of a match is built here
from one `SeatView` — the only thing a viewer may see (R24) — plus public seat
metadata (names, kinds; colours and shapes are assigned here) and a few flags.
`present()` is pure: no database, no request, no clock; it runs in the active
language. `render_board()` gathers those inputs for a `Match` and renders
``games/jinja2/games/board.html`` (`board_html()`), a Jinja2 template (see
games/jinja_env.py): a board is rendered per connection after every move, which
Jinja2 does about three times faster than Django's engine. Words with placeholders
("Pass the device to %(name)s") are filled in here, not in the templates.

Rules it shows: the round of 13 and its engine (R5), whose turn (R7), trains,
markers and the Mexican train (R10, R13, R15, R16), open doubles oldest first
(R11, R19), the legal actions only (R9, R10, R14, R15, R23), why a tile fits
nowhere (R7, R8, R13, R15, R19), hidden hands and the relay cover (R24), penalties
and the lowest of a round without a bonus (R21), winners sharing ties (R22), and
Undo / Redo / Restart / New match buttons only when offered (R27, R28, R29).

## Contract with the websocket consumer (games/consumers.py)

**Rendering.** ``render_board(*, match, seat_view, viewer) -> str`` renders the board
HTML for one connection. `viewer` is a `Viewer`: the seats this connection may act
for (``selectors.seats_controlled``), the relay seat last revealed on it, whether it
watches. Pick the seat with ``viewer.shown_seat(turn, over)`` and pass
``selectors.seat_view(match, that_seat)`` (``None``: a spectator view). While the
relay cover is up (``viewer.cover_seat(turn, over)`` is not None) the shown seat is
None, so no hand reaches the page. ``board_message(*, match, viewer)`` does all of
this and returns the whole server → client message. Render inside
``translation.override(<the connection's language>)``.

In the HTML (all computed on the server; the browser never applies a rule):
``#board[data-version][data-seat][data-turn][data-your-turn][data-phase]``; each hand
tile ``[data-tile="5-3"][data-targets="0 mexican"][data-why="…"]`` (targets from
``view.legal``, `why` a translated reason when it fits nowhere); each train
``[data-train="0"|"mexican"]``; buttons ``[data-act="engine|draw|pass|end"]`` only
for legal non-play actions; ``[data-cmd="undo|redo|restart|next_round|new_match|hint"]``
only when allowed; ``[data-reveal=<seat>]`` on the relay cover.

**Client → server** (JSON over ``ws(s)://<host>/ws/m/<id>/``, spectators add
``?watch=<token>``):

- ``{"type": "act", "seat": s, "action": {...replay-format action...}, "version": v, "request_id": uuid}``
- ``{"type": "undo"|"redo"|"restart"|"next_round"|"new_match", "version": v, "request_id": uuid}``
- ``{"type": "hint", "seat": s}``
- ``{"type": "panel", "open": true|false}`` — rules or log opened/closed: pause computers (R26)
- ``{"type": "reveal", "seat": s}`` — relay: "Show my tiles" (R24)
- ``{"type": "sync"}`` — send me a fresh board

**Server → client**:

- ``{"type": "board", "version": v, "html": "...", "title": "...", "your_turn": bool}``
  (``board_message``)
- ``{"type": "error", "code": ..., "message": ..., "request_id": ...}``
- ``{"type": "ack", "request_id": ..., "version": v}``
- ``{"type": "hint", "tile": "5-3", "train": "mexican"|0|null, "act": ..., "reason": "<one line>"}``
  (``hint_message``)
- ``{"type": "log", "html": ...}`` (``render_log``); the open log panel also
  refreshes itself from ``/m/<id>/log/`` (``games:table_log``) after each board
- ``{"type": "redirect", "url": ...}`` — after ``new_match``: the new match's table (R29)

A connection closed with code 4403 (may not watch) is not retried by the client.
The HTTP page (``games.table.views.table``) puts the same ``board_html(board_context(...))``
into ``templates/games/table.html`` on first load, so the table works before the socket
connects.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.safestring import SafeString, mark_safe

from engine.deal import ROUNDS
from engine.previews import end_preview, hint
from engine.state import MEXICAN, Action, TrainKey
from engine.tiles import Tile, is_double, points
from engine.views import SeatView, TrainView
from games.table.jinja_env import active_language as language
from games.table.jinja_env import fixed_language
from games.table.jinja_env import ntext as ngettext
from games.table.jinja_env import text as _  # Django's gettext, each word kept once translated

#: train tiles shown at full size before the older ones fold ("… 9 more")
SHOWN_WIDE = 7
#: on a phone only the last three tiles of a train are shown
SHOWN_NARROW = 3
#: from this many players on, the board uses its compact row height
COMPACT_FROM = 7

#: Seat colours (Okabe–Ito based, told apart by colour-blind players) and, because
#: colour alone is not enough, a shape per seat. Paths are in a 20 × 20 box.
SEAT_COLOURS: tuple[str, ...] = (
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00",
    "#56b4e9", "#7a4eab", "#8c6d1f", "#6b6b6b", "#b8a200",
)
SEAT_SHAPES: tuple[tuple[str, str], ...] = (
    ("circle", "M2 10a8 8 0 1 0 16 0a8 8 0 1 0-16 0Z"),
    ("square", "M3 3h14v14H3Z"),
    ("triangle", "M10 2l8.5 15h-17Z"),
    ("diamond", "M10 1l9 9-9 9-9-9Z"),
    ("star", "M10 1.5l2.6 5.4 5.9.8-4.3 4.1 1 5.9L10 14.9l-5.2 2.8 1-5.9L1.5 7.7l5.9-.8Z"),
    ("hexagon", "M5.5 2.2h9L19 10l-4.5 7.8h-9L1 10Z"),
    ("plus", "M7 2h6v5h5v6h-5v5H7v-5H2V7h5Z"),
    ("cross", "M4.2 1.4 10 7.2l5.8-5.8 2.8 2.8-5.8 5.8 5.8 5.8-2.8 2.8-5.8-5.8-5.8 5.8-2.8-2.8L7.2 10 1.4 4.2Z"),
    ("pentagon", "M10 1.5l8.5 6.2-3.2 10H4.7l-3.2-10Z"),
    ("triangle-down", "M1.5 3h17L10 18Z"),
)


# ---------------------------------------------------------------- inputs


@dataclass(frozen=True)
class SeatInfo:
    """Public metadata of a seat: what the table shows next to its train."""

    index: int
    name: str
    #: "human", "local" (pass-and-play) or "computer"
    kind: str = "human"


@dataclass(frozen=True)
class Viewer:
    """Who a connection (or an HTTP page) belongs to.

    `controlled`: the seats this user may act for (their own seat and their
    pass-and-play seats; empty for a spectator). `revealed`: on a shared device,
    the seat whose player last pressed "Show my tiles" (R24).
    """

    user: Any = None
    controlled: tuple[int, ...] = ()
    revealed: int | None = None

    @property
    def spectator(self) -> bool:
        return not self.controlled

    @property
    def relay(self) -> bool:
        """Several seats share this screen: hands hide between their turns (R24)."""
        return len(self.controlled) > 1

    def cover_seat(self, turn: int | None, over: bool) -> int | None:
        """The seat to pass the device to while the relay cover is up, else None."""
        if not self.relay or over or turn not in self.controlled or self.revealed == turn:
            return None
        return turn

    def shown_seat(self, turn: int | None, over: bool) -> int | None:
        """Whose view to render: None for spectators, under the cover, or before anyone revealed."""
        if not self.controlled:
            return None
        if not self.relay:
            return self.controlled[0]
        if over:
            # Every hand is face up now (R21); keep the perspective of who held the device.
            return self.revealed if self.revealed in self.controlled else self.controlled[0]
        if self.cover_seat(turn, over) is not None:
            return None
        return self.revealed if self.revealed in self.controlled else None


@dataclass(frozen=True)
class Flags:
    """What the caller knows beyond the view: versions, offers and history."""

    match_id: int = 0
    version: int = 0
    undo: bool = False
    redo: bool = False
    #: restart the round (R28), next round, new match at this table (R29)
    restart: bool = False
    next_round: bool = False
    new_match: bool = False
    #: someone at the table has the rules or the log open: computers wait (R26)
    paused: bool = False
    #: penalty points of each finished round of this match, oldest first (R21)
    history: tuple[tuple[int, ...], ...] = ()
    #: the latest log line, for the live region
    last_event: str = ""
    #: after a new match at this table (R29): where it is
    next_match_url: str = ""
    #: an undo or restart waiting for the others' answers (issue 13): `Ask`
    ask: Ask | None = None


@dataclass(frozen=True)
class Ask:
    """An undo or restart asked of the others at a shared table, as one viewer sees it."""

    id: int
    #: "undo" or "restart"
    change: str
    #: "Ana asks to restart the round."
    text: str
    #: this viewer asked: "waiting for the others"
    mine: bool
    #: this viewer is one of the others and has not accepted yet: Accept / Decline
    answer: bool
    #: when it expires (ISO 8601), so the page asks for a fresh board then
    expires: str


# ---------------------------------------------------------------- output pieces


@dataclass
class SeatCtx:
    index: int
    number: int
    name: str
    kind: str
    colour: str
    shape: str
    shape_path: str
    hand_size: int
    hand_size_text: str
    total: int
    is_turn: bool = False
    is_me: bool = False
    controlled: bool = False
    points: int | None = None
    points_text: str = ""
    lowest: bool = False
    winner: bool = False
    revealed: tuple[Tile, ...] | None = None
    hand_label: str = ""
    #: "total 42", once the round is over
    total_text: str = ""

    @property
    def is_computer(self) -> bool:
        return self.kind == "computer"


@dataclass
class TrainTileCtx:
    tile: Tile
    double: bool
    #: 1 = the oldest open double, the one to satisfy now (R19)
    badge: int | None = None
    #: hidden on a phone (only the last three are shown there)
    far: bool = False
    #: the badge's title, naming the open double ("" without a badge: a train's tiles are
    #: drawn decoratively, the train's own label says what matters)
    label: str = ""


@dataclass
class TrainCtx:
    key: str
    index: int
    mexican: bool
    owner: SeatCtx | None
    label: str
    #: what the row shows: the owner's name, "Your train", "Mexican train"
    short: str
    aria_label: str
    tiles: list[TrainTileCtx]
    folded_wide: int
    folded_narrow: int
    folded_wide_text: str
    folded_narrow_text: str
    marker: bool
    end: int
    started: bool
    mine: bool
    open_to_me: bool
    open_double: bool


@dataclass
class HandTileCtx:
    tile: Tile
    data: str
    label: str
    targets: list[str]
    targets_attr: str
    why: str
    drawn: bool
    double: bool
    points: int


@dataclass
class HandCtx:
    seat: int
    tiles: list[HandTileCtx]
    count_text: str
    points_text: str
    playable: int


@dataclass
class ActionsCtx:
    seat: int | None = None
    engine: bool = False
    draw: bool = False
    pass_: bool = False
    end: bool = False
    end_text: str = ""
    end_double: Tile | None = None
    hint: bool = False


@dataclass
class Board:
    """The template context of ``games/jinja2/games/board.html`` (the template calls it ``b``)."""

    match_id: int
    version: int
    round: int
    rounds: int
    phase: str
    players: int
    engine: Tile
    engine_placed: bool
    boneyard: int
    boneyard_text: str
    seats: list[SeatCtx]
    me: SeatCtx | None
    turn_seat: SeatCtx | None
    your_turn: bool
    #: the instruction of the moment ("Your first turn: build a chain on your own train.")
    status: str
    #: whose turn, in a few words, for the top bar
    turn_text: str
    title: str
    trains: list[TrainCtx]
    hand: HandCtx | None
    actions: ActionsCtx
    undo: bool
    redo: bool
    restart: bool
    next_round: bool
    new_match: bool
    paused: bool
    spectator: bool
    cover: SeatCtx | None
    relay: bool
    round_over: bool
    match_over: bool
    result_text: str
    winners_text: str
    history: list[dict[str, Any]]
    compact: bool
    last_event: str
    next_match_url: str = ""
    ask: Ask | None = None
    open_doubles_text: str = ""
    round_text: str = ""
    engine_label: str = ""
    engine_preview_label: str = ""
    engine_hint: str = ""
    #: the relay cover's heading and button (R24)
    cover_title: str = ""
    cover_button: str = ""
    #: the heading of the round's result and its "Next round (4 / 13)" button (R21)
    round_over_title: str = ""
    next_round_text: str = ""

    @property
    def ranking(self) -> list[SeatCtx]:
        """Seats by total, lowest first (R22: the lowest total wins)."""
        return sorted(self.seats, key=lambda s: (s.total, s.index))


# ---------------------------------------------------------------- words


def spoken(tile: Tile) -> str:
    """A tile as players say it, the higher number first ("6-4")."""
    a, b = tile
    return f"{max(a, b)}-{min(a, b)}"


def tiles_text(n: int) -> str:
    return ngettext("%(count)s tile", "%(count)s tiles", n) % {"count": n}


def points_text(n: int) -> str:
    return ngettext("%(count)s point", "%(count)s points", n) % {"count": n}


def train_label(key: TrainKey, seats: Sequence[SeatInfo], me: int | None) -> str:
    """A train's name on its own: "Mexican train", "Your train", "Ana's train"."""
    if key == MEXICAN:
        return _("Mexican train")
    if me is not None and key == me:
        return _("Your train")
    return _("%(name)s's train") % {"name": seats[int(key)].name}


def _train_aria(label: str, train: TrainView, open_double: bool) -> str:
    if not train.tiles:
        state = _("not started, starts with %(number)s") % {"number": train.end}
    else:
        state = _("ends in %(number)s") % {"number": train.end}
    parts = [label, state]
    if train.marker:
        parts.append(_("open"))
    if open_double:
        parts.append(_("open double"))
    return ", ".join(parts)


def why_not(view: SeatView, tile: Tile, seats: Sequence[SeatInfo]) -> str:
    """Why `tile` may not be played now, in words citing the rule; "" when it may.

    Computed from the view alone (the same facts the engine's legality uses), so
    a tile that fits nowhere can say why before the player even tries (R23).
    """
    if any(a.act == "play" and a.tile == tile for a in view.legal):
        return ""
    if view.phase in ("round_over", "match_over"):
        return _("The round is over (R20).")
    if not view.my_turn:
        if view.turn is None:
            return _("Wait for your turn (R7).")
        return _("Wait for your turn: it is %(name)s's turn (R7).") % {"name": seats[view.turn].name}
    if view.phase == "engine":
        return _("First place the engine double in the centre (R7).")
    assert view.seat is not None
    if view.phase == "first":
        if Action("pass", view.seat) in view.legal:
            return _("None of your tiles matches %(number)s: pass, and your train opens (R10).") % {
                "number": view.engine}
        return _("On your first turn you play only on your own train, which ends in %(number)s (R8).") % {
            "number": view.train(view.seat).end}
    if view.drawn_tile is not None and tile != view.drawn_tile:
        return _("After drawing, only the drawn tile may be played (R15).")
    if view.open_doubles and not view.owes:
        double, where = view.open_doubles[0]
        words = {"tile": spoken(double)}
        if where == MEXICAN:
            return _("The open double %(tile)s on the Mexican train must be satisfied first (R19).") % words
        if where == view.seat:
            return _("The open double %(tile)s on your train must be satisfied first (R19).") % words
        words["name"] = seats[int(where)].name
        return _("The open double %(tile)s on %(name)s's train must be satisfied first (R19).") % words
    closed = [t for t in view.trains if (t.end in tile) and t.owner is not None and t.owner != view.seat
              and not t.marker]
    if closed:
        return _("%(name)s's train ends in %(number)s but is not open to you (R13).") % {
            "name": seats[closed[0].owner].name, "number": closed[0].end}  # type: ignore[index]
    if is_double(tile):
        return _("No train open to you ends in %(a)s (R13).") % {"a": tile[0]}
    return _("No train open to you ends in %(a)s or %(b)s (R13).") % {"a": tile[1], "b": tile[0]}


HINT_REASONS = {
    "engine": lambda: _("Place the engine double to start the round."),
    "draw": lambda: _("No tile fits: draw one from the boneyard."),
    "pass": lambda: _("Nothing fits and there is nothing to draw: pass."),
    "end": lambda: _("Nothing more fits your chain: end your first turn."),
    "chain": lambda: _("This tile starts the longest chain you can build on your train."),
    "satisfy": lambda: _("Satisfy the open double, shedding the heaviest tile that fits."),
    "close_train": lambda: _("Play on your own train to take its marker off."),
    "double": lambda: _("Play this double: you can follow it with another tile."),
    "go_out": lambda: _("Your last tile: play it and go out!"),
    "shed": lambda: _("Get rid of a heavy tile while keeping your options open."),
    "heaviest": lambda: _("Play your heaviest tile that fits."),
}


def hint_reason(key: str) -> str:
    words = HINT_REASONS.get(key)
    return words() if words is not None else _("A suggestion; nothing is played.")


def hint_message(view: SeatView) -> dict[str, Any]:
    """The server → client ``hint`` message for a seat's view (R23, R25): nothing is played."""
    choice = hint(view)
    if choice is None:
        return {"type": "hint", "tile": None, "train": None, "act": None,
                "reason": _("There is nothing to suggest: it is not your turn.")}
    action = choice.action
    return {
        "type": "hint",
        "tile": spoken(action.tile) if action.tile is not None else None,
        "train": action.train,
        "act": action.act,
        "reason": hint_reason(choice.reason),
    }


# ---------------------------------------------------------------- the presenter


def seat_style(index: int) -> tuple[str, str, str]:
    """(colour, shape name, shape path) of a seat."""
    shape, path = SEAT_SHAPES[index % len(SEAT_SHAPES)]
    return SEAT_COLOURS[index % len(SEAT_COLOURS)], shape, path


def _seats(view: SeatView, seats: Sequence[SeatInfo], me: int | None, controlled: Sequence[int]) -> list[SeatCtx]:
    out = []
    over = view.phase in ("round_over", "match_over")
    lowest = min(view.round_points) if over and view.round_points else None
    for info in seats:
        i = info.index
        colour, shape, path = seat_style(i)
        pts = view.round_points[i] if over and view.round_points is not None else None
        out.append(SeatCtx(
            index=i, number=i + 1, name=info.name, kind=info.kind, colour=colour, shape=shape, shape_path=path,
            hand_size=view.hand_sizes[i], hand_size_text=tiles_text(view.hand_sizes[i]),
            total=view.totals[i], is_turn=view.turn == i, is_me=me == i, controlled=i in controlled,
            points=pts, points_text=points_text(pts) if pts is not None else "",
            lowest=pts is not None and pts == lowest,
            winner=view.winners is not None and i in view.winners,
            # R21, R24: hands are face up only once the round is over.
            revealed=view.revealed[i] if over and view.revealed is not None else None,
            hand_label=_("Your hand") if me == i else _("%(name)s's hand") % {"name": info.name},
            total_text=_("total %(total)s") % {"total": view.totals[i]} if over else "",
        ))
    return out


def _trains(view: SeatView, seats: Sequence[SeatInfo], seat_ctx: list[SeatCtx], me: int | None) -> list[TrainCtx]:
    badges: dict[str, tuple[Tile, int]] = {}  # train key -> (its open double, order: 1 first, R19)
    for order, (tile, on) in enumerate(view.open_doubles, start=1):
        badges[str(on)] = (tile, order)
    open_to_me = me is not None and view.my_turn
    out = []
    for index, train in enumerate(view.trains):
        key = str(train.key)
        mexican = train.key == MEXICAN
        label = train_label(train.key, seats, me)
        badge = badges.get(key)
        n = len(train.tiles)
        shown = train.tiles[-SHOWN_WIDE:]
        first_shown = n - len(shown)
        tiles = []
        for j, t in enumerate(shown):
            position = first_shown + j
            b = badge[1] if badge is not None and position == n - 1 and is_double(t) else None
            tile_label = ""
            if b is not None:
                tile_label = _("Tile %(tile)s, open double number %(order)s") % {"tile": spoken(t), "order": b}
            tiles.append(TrainTileCtx(tile=t, double=is_double(t), badge=b, far=position < n - SHOWN_NARROW,
                                      label=tile_label))
        folded_wide = first_shown
        folded_narrow = max(0, n - SHOWN_NARROW)
        out.append(TrainCtx(
            key=key, index=index, mexican=mexican,
            owner=seat_ctx[train.owner] if train.owner is not None else None,
            label=label, short=label if train.owner is None or train.owner == me else seats[train.owner].name,
            aria_label=_train_aria(label, train, badge is not None),
            tiles=tiles,
            folded_wide=folded_wide, folded_narrow=folded_narrow,
            folded_wide_text=_fold_text(folded_wide), folded_narrow_text=_fold_text(folded_narrow),
            marker=train.marker, end=train.end, started=bool(train.tiles),
            mine=me is not None and train.owner == me,
            open_to_me=open_to_me and any(a.act == "play" and str(a.train) == key for a in view.legal),
            open_double=badge is not None,
        ))
    return out


def _fold_text(n: int) -> str:
    return ngettext("… %(count)s more", "… %(count)s more", n) % {"count": n} if n else ""


def _hand(view: SeatView, seats: Sequence[SeatInfo]) -> HandCtx | None:
    if view.hand is None or view.seat is None:
        return None
    tiles = []
    playable = 0
    for t in view.hand:
        targets = [str(a.train) for a in view.legal if a.act == "play" and a.tile == t]
        if targets:
            playable += 1
        tiles.append(HandTileCtx(
            tile=(max(t), min(t)), data=spoken(t), label=_("Tile %(tile)s") % {"tile": spoken(t)},
            targets=targets, targets_attr=" ".join(targets),
            why="" if targets else why_not(view, t, seats),
            drawn=view.drawn_tile is not None and t == view.drawn_tile,
            double=is_double(t), points=points(t),
        ))
    total = sum(points(t) for t in view.hand)
    return HandCtx(seat=view.seat, tiles=tiles, count_text=tiles_text(len(view.hand)),
                   points_text=points_text(total), playable=playable)


def _actions(view: SeatView) -> ActionsCtx:
    if view.seat is None or not view.my_turn:
        return ActionsCtx(seat=view.seat)
    acts = {a.act for a in view.legal}
    out = ActionsCtx(seat=view.seat, engine="engine" in acts, draw="draw" in acts, pass_="pass" in acts,
                     end="end" in acts, hint=bool(view.legal))
    preview = end_preview(view)
    if preview is not None:
        # R9, R11: show what ending leaves behind before it is confirmed.
        chain = ngettext("You placed %(count)s tile on your train.", "You placed %(count)s tiles on your train.",
                         preview.placed) % {"count": preview.placed}
        if preview.open_double is not None:
            out.end_double = preview.open_double
            chain += " " + _("The double %(tile)s stays open at its end; it must be satisfied once the first "
                             "turns are over (R11, R19).") % {"tile": spoken(preview.open_double)}
        out.end_text = chain
    return out


def _status(view: SeatView, seats: Sequence[SeatInfo], me: int | None, cover: int | None) -> str:
    if view.phase == "match_over":
        return _("The match is over.")
    if view.phase == "round_over":
        return _("Round %(round)s is over.") % {"round": view.round}
    if cover is not None:
        return _("Pass the device to %(name)s.") % {"name": seats[cover].name}
    if view.turn is None:
        return ""
    if me is not None and view.turn == me:
        acts = {a.act for a in view.legal}
        if view.phase == "engine":
            return _("Your turn: place the engine double.")
        if view.phase == "first":
            if "end" in acts and "play" not in acts:
                # R9: the chain is started and nothing more fits it: end, not pass.
                return _("Nothing more fits your chain: end your first turn.")
            if "play" not in acts:
                return _("Your first turn: you cannot start your train, so pass; it opens (R10).")
            if view.placed:
                return _("Your first turn: add another tile to your chain, or end your turn (R9).")
            return _("Your first turn: build a chain on your own train.")
        if "draw" in acts:
            return _("Your turn: no tile fits, so draw one (R15).")
        if "play" not in acts:
            return _("Your turn: nothing fits, so pass; your train opens (R15).")
        if view.drawn_tile is not None:
            return _("The drawn tile fits: play it (R15).")
        if view.owes:
            return _("You played a double: play again.")
        if view.open_doubles:
            return _("Your turn: satisfy the open double.")
        return _("Your turn: choose a tile, then a glowing train.")
    name = seats[view.turn].name
    if view.phase == "engine":
        return _("%(name)s places the engine double.") % {"name": name}
    if view.phase == "first":
        return _("%(name)s's first turn.") % {"name": name}
    return _("%(name)s's turn.") % {"name": name}


def _result_text(view: SeatView, seats: Sequence[SeatInfo]) -> str:
    if view.ended_by == "blocked":
        return _("Round %(round)s is blocked: nobody can play and the boneyard is empty.") % {"round": view.round}
    if view.ended_by == "out":
        out = [s.name for s in seats if view.hand_sizes[s.index] == 0]
        if len(out) == 1:
            return _("%(name)s went out and ends round %(round)s.") % {"name": out[0], "round": view.round}
        return _("Round %(round)s is over.") % {"round": view.round}
    return ""


def _winners_text(view: SeatView, seats: Sequence[SeatInfo]) -> str:
    if view.winners is None:
        return ""
    names = [seats[i].name for i in view.winners]
    if len(names) == 1:
        return _("%(name)s wins the match!") % {"name": names[0]}
    # R22: equal lowest totals win together.
    return _("%(names)s and %(last)s win the match together!") % {"names": ", ".join(names[:-1]),
                                                                   "last": names[-1]}


def _history(flags: Flags) -> list[dict[str, Any]]:
    rows = []
    for number, pts in enumerate(flags.history, start=1):
        low = min(pts) if pts else None
        rows.append({"number": number, "cells": [{"points": p, "lowest": p == low} for p in pts]})
    return rows


def present(view: SeatView, seats: Sequence[SeatInfo], *, viewer: Viewer | None = None,
            flags: Flags | None = None) -> Board:
    """The board context for `view`, as seen by `viewer` (default: the view's own seat)."""
    flags = flags or Flags()
    if len(seats) != view.players:
        raise ValueError("one SeatInfo per seat is needed")
    over = view.phase in ("round_over", "match_over")
    if viewer is None:
        viewer = Viewer(controlled=(view.seat,) if view.seat is not None else ())
    if view.seat is not None and view.seat not in viewer.controlled:
        # R24: a hand is only ever rendered for a viewer who plays that seat.
        raise PermissionError(f"this viewer does not play seat {view.seat}")
    cover = viewer.cover_seat(view.turn, over)
    if cover is not None and view.seat is not None:
        raise PermissionError("the relay cover is up: render a view without a hand (seat None)")
    me = view.seat
    seat_ctx = _seats(view, seats, me, viewer.controlled)
    your_turn = view.my_turn and cover is None
    status = _status(view, seats, me, cover)
    # The top bar says whose turn it is in a few words; the hand's line carries the instruction.
    if your_turn:
        turn_text = _("Your turn")
    elif view.turn is not None and cover is None and not over:
        turn_text = _("%(name)s's turn.") % {"name": seats[view.turn].name}
    else:
        turn_text = status
    round_words = _("Round %(round)s / %(rounds)s") % {"round": view.round, "rounds": ROUNDS}
    if your_turn:
        title = _("Your turn") + " · " + round_words
    elif cover is not None:
        title = status + " · " + round_words
    else:
        title = round_words + " · " + _("Mexican Train")
    seated = bool(viewer.controlled)
    board = Board(
        match_id=flags.match_id, version=flags.version, round=view.round, rounds=ROUNDS, phase=view.phase,
        players=view.players, engine=(view.engine, view.engine), engine_placed=view.phase != "engine",
        boneyard=view.boneyard, boneyard_text=tiles_text(view.boneyard),
        seats=seat_ctx, me=seat_ctx[me] if me is not None else None,
        turn_seat=seat_ctx[view.turn] if view.turn is not None else None,
        your_turn=your_turn, status=status, turn_text=turn_text, title=title,
        trains=_trains(view, seats, seat_ctx, me),
        # Once the round is over every hand lies face up on its row instead (R21).
        hand=_hand(view, seats) if cover is None and not over else None,
        actions=_actions(view) if cover is None else ActionsCtx(),
        undo=flags.undo, redo=flags.redo,
        restart=flags.restart and not over,
        next_round=flags.next_round and view.phase == "round_over",
        new_match=flags.new_match and view.phase == "match_over",
        paused=flags.paused, spectator=not seated,
        cover=seat_ctx[cover] if cover is not None else None, relay=viewer.relay,
        round_over=view.phase == "round_over", match_over=view.phase == "match_over",
        result_text=_result_text(view, seats) if over else "",
        winners_text=_winners_text(view, seats),
        history=_history(flags),
        compact=view.players >= COMPACT_FROM,
        last_event=flags.last_event, next_match_url=flags.next_match_url,
        ask=flags.ask if not over else None,
    )
    e = spoken((view.engine, view.engine))
    board.round_text = _("Round %(round)s of %(rounds)s") % {"round": view.round, "rounds": ROUNDS}
    board.engine_label = _("Engine double %(tile)s") % {"tile": e}
    board.engine_preview_label = _("Engine double %(tile)s, not placed yet") % {"tile": e}
    if board.actions.engine:
        board.engine_hint = _("Place %(tile)s in the centre?") % {"tile": e}
    else:
        board.engine_hint = _("%(name)s holds %(tile)s") % {"name": seats[view.holder].name, "tile": e}
    if board.cover is not None:
        board.cover_title = _("Pass the device to %(name)s") % {"name": board.cover.name}
        board.cover_button = _("%(name)s: show my tiles") % {"name": board.cover.name}
    if board.round_over:
        board.round_over_title = _("Round %(round)s is over") % {"round": view.round}
        board.next_round_text = _("Next round (%(next)s / %(rounds)s)") % {"next": view.round + 1, "rounds": ROUNDS}
    if view.open_doubles and not over:
        board.open_doubles_text = ngettext("%(count)s open double", "%(count)s open doubles",
                                           len(view.open_doubles)) % {"count": len(view.open_doubles)}
    return board


# ---------------------------------------------------------------- rendering a match


def seat_infos(match: Any) -> list[SeatInfo]:
    """Names and kinds of a match's seats (a Match with its seats)."""
    out = []
    for s in sorted(match.seats.all(), key=lambda s: s.index):
        name = s.display_name
        if not name:
            words = _("Computer %(number)s") if s.kind == "computer" else _("Seat %(number)s")
            name = words % {"number": s.index + 1}
        out.append(SeatInfo(index=s.index, name=isolated(name), kind=s.kind))
    return out


def isolated(name: str) -> str:
    """`name` between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: what <bdi> does, for
    the sentences and attributes a name is put into (a right-to-left name cannot reorder the
    words around it, issue 13)."""
    return f"\u2068{name}\u2069"


def match_flags(match: Any, viewer: Viewer, view: SeatView, reads: Any = None,
                seats: Sequence[SeatInfo] | None = None) -> Flags:
    """What the presenter needs beyond the view: offers, pause, history, last line.

    From `reads` (a `games.table.board_reads.BoardReads` of this match, which every viewer
    of one version shares), or read now when not given; `seats`: ``seat_infos(match)``
    when the caller has it already."""
    from django.urls import reverse

    from games import selectors
    from games.table import board_reads

    if reads is None:
        reads = board_reads.read(match)
    user = viewer.user
    over = view.phase in ("round_over", "match_over")
    history = tuple(points for number, points in reads.history if number < view.round or over)
    last = reads.last
    following = reads.following if view.phase == "match_over" else None
    signed_in = user is not None and getattr(user, "is_authenticated", False)
    undo, redo = (selectors.undo_redo_in(reads.folded, selectors.seats_controlled(match, user))
                  if signed_in else (False, False))
    ask = ask_for(match, reads.ask, user if signed_in else None)
    waiting = ask is not None  # one request at a time: no other undo or restart meanwhile
    return Flags(
        match_id=match.pk, version=match.version,
        undo=undo and not waiting, redo=redo,
        restart=signed_in and not waiting and selectors.restart_available(match, user),
        next_round=signed_in and selectors.next_round_available(match, user),
        new_match=signed_in and following is None and selectors.new_match_available(match, user),
        next_match_url=reverse("games:table", args=[following.pk]) if following is not None else "",
        paused=reads.paused,
        ask=ask,
        history=history,
        last_event=log_line(last, [s.name for s in (seats if seats is not None else seat_infos(match))],
                            view.seat, engine=view.engine)
        if last is not None else "",
    )


def ask_for(match: Any, ask: Any, user: Any) -> Ask | None:
    """The open undo or restart request (`games.models.ChangeRequest`) as `user` sees it."""
    from games import permissions

    if ask is None or ask.round_number != match.round_number:
        return None
    name = isolated(ask.asked_by.get_username())
    text = (_("%(name)s asks to take back their last move.") if ask.change == "undo"
            else _("%(name)s asks to restart the round.")) % {"name": name}
    uid = permissions.user_id(user)
    mine = uid is not None and uid == ask.asked_by_id
    answer = (uid is not None and not mine and uid not in ask.accepted
              and permissions.may(user, permissions.Action.ANSWER, match))
    return Ask(id=ask.pk, change=ask.change, text=text, mine=mine, answer=answer,
               expires=ask.expires_at.isoformat())


def log_line(entry: Any, names: Sequence[str], viewer_seat: int | None, *, engine: int | None = None) -> str:
    """One LogEntry in words (see games.logtext)."""
    from games.logtext import describe_entry

    actor = ""
    if entry.user is not None:
        actor = entry.user.get_username()
    return describe_entry(entry.kind, entry.action, names, viewer_seat, actor=actor,
                          engine=engine if entry.kind == "action" else None)


def _render(name: str, context: dict[str, Any]) -> SafeString:
    """A Jinja2 template of ``games/jinja2/`` (games/jinja_env.py) rendered; it autoescapes, so
    the HTML is safe to put into a Django page as it is."""
    from django.template import engines

    with fixed_language():
        return mark_safe(engines["jinja2"].get_template(name).render(context))


def board_html(board: Board) -> SafeString:
    """The board HTML (``games/jinja2/games/board.html``) of a presented `Board`."""
    return _render("games/board.html", {"b": board})


def render_board(*, match: Any, seat_view: SeatView, viewer: Viewer, flags: Flags | None = None) -> str:
    """The board HTML for one connection; see the module docstring."""
    if flags is None:
        flags = match_flags(match, viewer, seat_view)
    return board_html(present(seat_view, seat_infos(match), viewer=viewer, flags=flags))


def board_context(*, match: Any, viewer: Viewer, reads: Any = None) -> Board:
    """The presenter's output for one viewer of a started match, the seat chosen by the relay
    (`reads`: see `match_flags`)."""
    from engine.views import view as view_of
    from games import selectors

    def once(key: Any, make: Any) -> Any:
        # What every viewer of this version shares is worked out for the first one only.
        return reads.once(key, make) if reads is not None and reads.match is match else make()

    state = once("state", lambda: selectors.match_state(match))  # parsed once for both views
    public = once("public", lambda: view_of(state, None))
    over = public.phase in ("round_over", "match_over")
    seat = viewer.shown_seat(public.turn, over)
    view = public if seat is None else view_of(state, seat)
    seats = once(("seats", language()), lambda: seat_infos(match))  # computers' names are translated
    return present(view, seats, viewer=viewer, flags=match_flags(match, viewer, view, reads, seats=seats))


def board_message(*, match: Any, viewer: Viewer, reads: Any = None) -> dict[str, Any]:
    """The whole ``{"type": "board", …}`` message for one connection (see the module docstring)."""
    with fixed_language():  # the board's words, looked up in this language only once
        board = board_context(match=match, viewer=viewer, reads=reads)
        return {
            "type": "board", "version": board.version,
            "html": board_html(board),
            "title": board.title, "your_turn": board.your_turn,
        }


def render_log(*, match: Any, viewer_seat: int | None) -> SafeString:
    """The log panel (``games/jinja2/games/board/log.html``): every round of the match, every entry
    in words."""
    from engine.deal import engine_value
    from games.models import LogEntry

    names = [s.name for s in seat_infos(match)]
    rounds: dict[int, list[str]] = {}
    entries = (LogEntry.objects.filter(round__match=match).select_related("user", "round")
               .order_by("round__number", "seq"))
    for entry in entries:
        number = entry.round.number
        rounds.setdefault(number, []).append(
            log_line(entry, names, viewer_seat, engine=engine_value(number)))
    groups = [{"title": _("Round %(round)s") % {"round": n}, "lines": lines[::-1]}  # newest first
              for n, lines in sorted(rounds.items(), reverse=True)]
    return _render("games/board/log.html", {"groups": groups})
