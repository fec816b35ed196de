"""What the presenter gives the templates: the board (`Board`, the template's ``b``) and its
pieces, a seat, a train and its tiles, the hand and its tiles, the actions' buttons."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.tiles import Tile
from engine.views import SeatView
from games import charts

from .colours import SEAT_COLOURS
from .inputs import Ask, Flags, SeatInfo


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
    #: the level of the computer playing the seat, in words, shown at the table
    level: str = ""
    #: "here" or "away" for a person's seat at a match being played (a dot by the name), and in words
    presence: str = ""
    presence_text: str = ""
    #: since when away, ISO 8601 in UTC ("" when not away or never here): the browser says it in
    #: the reader's own time (static/js/localtime.js), presence_text's UTC time being the fallback
    away_since: str = ""

    @property
    def is_computer(self) -> bool:
        return self.kind == "computer"

    @property
    def tint(self) -> str:
        """The class that gives what the seat marks its colour (board.css ``.tint-N`` sets
        ``--seat``): a class, not a style attribute, as the Content-Security-Policy allows
        no inline style."""
        return f"tint-{self.index % len(SEAT_COLOURS)}"


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
    #: the tile of the last move at the table (highlighted)
    last_move: bool = False


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
    why_url: str
    drawn: bool
    double: bool
    points: int
    #: while the engine double waits for this seat, its holder (R7): the train this tile would
    #: start once the engine is placed (R8: the first turn's first tile matches the engine
    #: number, on your own train), else "". A tap on it confirms the engine and lays it.
    after_engine: str = ""


@dataclass
class HandCtx:
    seat: int
    tiles: list[HandTileCtx]
    count_text: str
    points_text: str
    playable: int
    #: on a phone the hand wraps to rows of this many tiles (board.css, from the list's
    #: data-cols), so every tile is in view
    columns: int = 8


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
    #: "draw" or "pass" when that is the seat's only legal action: no tile to play (R10, R15);
    #: the page's opt-in "draw and pass for me" sends it and nothing else
    only: str = ""


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
    #: the round's latest restart and its words (Flags.restarted)
    restarted: str = ""
    restarted_text: str = ""
    #: the computers' pace, shown to everyone at a table with computers
    has_computers: bool = False
    pace: str = "normal"
    pace_text: str = ""
    #: the paces a seated person may choose, in the table's menu ({value, label, current})
    pace_options: list[dict[str, Any]] | None = None
    #: "Skip to my turn" is offered (a computer is to play, a seated person is looking)
    skip: bool = False
    #: "Skip to my turn" stands in the bar (disabled unless `skip`) while the seated play with computers
    skip_shown: bool = False
    #: the viewer's "draw and pass for me when I have no play" is on (shown in the menu, acted on by pace.js)
    autodraw: bool = False
    hurry: bool = False
    undo_text: str = ""
    ask: Ask | None = None
    #: to the asker: their request was declined (by whom) or expired (games.consent words)
    answered: str = ""
    #: the commands the table's menu offers (games.commands.Offer), each with its template
    offers: tuple[Any, ...] = ()
    #: hand an away seat to a computer, take one's own back, the away limit (games.table.away.Away)
    away: Any = None
    open_doubles_text: str = ""
    round_text: str = ""
    engine_label: str = ""
    engine_preview_label: str = ""
    #: "pass" when the engine's holder has no tile to start their train with: confirming the
    #: engine (R7) also makes the pass their first turn must be (R10)
    engine_then: str = ""
    engine_hint: str = ""
    #: while the engine waits and in the first turns, after an engine search (R6): why the hands
    #: are bigger and the boneyard smaller than after a usual deal, in plain words
    search_text: str = ""
    #: the relay cover's heading and button (R24)
    cover_title: str = ""
    cover_button: str = ""
    #: the heading of the round's result and its "Next round (4 / 13)" button (R21)
    round_over_title: str = ""
    next_round_text: str = ""
    #: whose turn it is as (words before the name, the name, words after it), so the top bar can
    #: cut the name (a .pname) and keep the words whole; ("", "", "") when `turn_text` names no one
    turn_words: tuple[str, str, str] = ("", "", "")
    #: draw the running-totals chart in the scores (`chart`); a replay's board does not (its page has its own)
    charted: bool = True
    #: what it was presented from (view, seats, flags), for its shared parts (`shared_of`)
    source: tuple[SeatView, Sequence[SeatInfo], Flags] | None = field(
        default=None, repr=False, compare=False
    )

    @property
    def ranking(self) -> list[SeatCtx]:
        """Seats by total, lowest first (R22: the lowest total wins)."""
        return sorted(self.seats, key=lambda s: (s.total, s.index))

    @property
    def chart(self) -> Any:
        """The running totals after each ended round as an SVG chart (games.charts; R21, R22),
        None before the first round has ended. Drawn once per (scores, names, language)."""
        if not self.history or not self.charted:
            return None
        points = [[cell["points"] for cell in row["cells"]] for row in self.history]
        return charts.totals_chart(
            [s.name for s in self.seats],
            [(s.colour, s.shape_path) for s in self.seats],
            charts.running_totals(points),
            rounds=self.rounds,
        )
