"""Turning a view into the board's template context: `present(view, seats, viewer=, flags=)`.

Everything a connection (a seat or a spectator) is shown of a match is built here from
one `SeatView` — the only thing a viewer may see (R24) — plus public seat metadata
(`SeatInfo`: names, kinds; colours and shapes are assigned here) and `Flags` (what the
caller knows beyond the view: versions, offers, history). Pure: no database, no request,
no clock; it runs in the active language (the words come from games.table.words).
`present_public` presents the spectator's board of the same moment, which the shared
parts are rendered from (games.table.parts).

Rules it shows: the round of the match's length and its engine (R5, R31), whose turn (R7), trains, markers and
the Mexican train (R10, R13, R15, R16), open doubles oldest first (R11, R19), the legal
actions only (R9, R10, R14, R15, R23), why a tile fits nowhere (R7, R8, R13, R15, R19),
hidden hands and the relay cover (R24), penalties and the lowest of a round without a
bonus (R21), winners sharing ties (R22), and Undo / Redo / Restart / New match buttons
only when offered (R27, R28, R29).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape

from engine.previews import end_preview
from engine.state import MEXICAN
from engine.tiles import Tile, is_double, points
from engine.views import SeatView, public
from games import charts
from games.table.jinja_env import active_language
from games.table.jinja_env import ntext as ngettext
from games.table.jinja_env import text as _  # Django's gettext, each word kept once translated
from games.table.viewer import Viewer
from games.table.words import (
    fold_text,
    points_text,
    result_text,
    spoken,
    status_text,
    tiles_text,
    train_aria,
    train_label,
    why_not,
    winners_text,
)
from games.words import rule_url, say

#: train tiles shown at full size before the older ones fold ("… 9 more")
SHOWN_WIDE = 7
#: on a phone only the last three tiles of a train are shown
SHOWN_NARROW = 3
#: from this many players on, the board uses its compact row height
COMPACT_FROM = 7

#: Seat colours (Okabe–Ito based, told apart by colour-blind players) and, because
#: colour alone is not enough, a shape per seat. Paths are in a 20 × 20 box. The board's
#: templates give a seat its colour by class (`SeatCtx.tint`): board.css holds the same
#: colours, in this order, as ``.tint-0`` … ``.tint-9``; the charts draw with them directly.
SEAT_COLOURS: tuple[str, ...] = (
    "#0072b2",
    "#d55e00",
    "#009e73",
    "#cc79a7",
    "#e69f00",
    "#56b4e9",
    "#7a4eab",
    "#8c6d1f",
    "#6b6b6b",
    "#b8a200",
)
SEAT_SHAPES: tuple[tuple[str, str], ...] = (
    ("circle", "M2 10a8 8 0 1 0 16 0a8 8 0 1 0-16 0Z"),
    ("square", "M3 3h14v14H3Z"),
    ("triangle", "M10 2l8.5 15h-17Z"),
    ("diamond", "M10 1l9 9-9 9-9-9Z"),
    ("star", "M10 1.5l2.6 5.4 5.9.8-4.3 4.1 1 5.9L10 14.9l-5.2 2.8 1-5.9L1.5 7.7l5.9-.8Z"),
    ("hexagon", "M5.5 2.2h9L19 10l-4.5 7.8h-9L1 10Z"),
    ("plus", "M7 2h6v5h5v6h-5v5H7v-5H2V7h5Z"),
    (
        "cross",
        "M4.2 1.4 10 7.2l5.8-5.8 2.8 2.8-5.8 5.8 5.8 5.8-2.8 2.8-5.8-5.8-5.8 5.8-2.8-2.8L7.2 10 1.4 4.2Z",
    ),
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
    #: the level of the computer playing it, in words ("Strong"), "" when a person plays
    level: str = ""
    #: a person's seat at a match being played (games.presence): "here" or "away" ("" otherwise),
    #: and since when away (None: never at this table)
    presence: str = ""
    away_since: datetime | None = None


@dataclass(frozen=True)
class Flags:
    """What the caller knows beyond the view: versions, offers and history."""

    match_id: int = 0
    version: int = 0
    undo: bool = False
    redo: bool = False
    #: restart the round (R28), next round
    restart: bool = False
    next_round: bool = False
    #: someone at the table has the rules or the log open: computers wait (R26)
    paused: bool = False
    #: penalty points of each finished round of this match, oldest first (R21)
    history: tuple[tuple[int, ...], ...] = ()
    #: the latest log line, for the live region
    last_event: str = ""
    #: the current round's latest restart (R28): which one (its log line's number, "" if none)
    #: and who restarted it, in words, for every page to announce once
    restarted: str = ""
    restarted_text: str = ""
    #: the train the last move played on ("0", "mexican"), "" when the last move was no play
    last_train: str = ""
    #: after a new match at this table (R29): where it is (games.table.commands.play_again)
    next_match_url: str = ""
    #: how many tiles the round's engine search drew (R6: nobody was dealt the engine double)
    searched: int = 0
    #: the computers' pace (games.models.Match.Pace) and whether they hurry to a person's turn
    pace: str = "normal"
    hurry: bool = False
    #: the viewer is seated at a match still being played: may change the pace, skip to their turn
    may_pace: bool = False
    #: what Undo would take back, in words ("" when there is no Undo)
    undo_text: str = ""
    #: an undo or restart waiting for the others' answers: `Ask`
    ask: Ask | None = None
    #: to the asker of a request just declined or expired: who declined, or that time ran out
    answered: str = ""
    #: the commands the table's menu offers this viewer (games.table.commands.Offer)
    offers: tuple[Any, ...] = ()
    #: R32: the players agreed that this round is the match's last
    final: bool = False
    #: seats handed to a computer while their owners are away (games.table.away.Away)
    away: Any = None


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
    #: "Answers close at <time>12:04:31 UTC</time>." (HTML; the page shows its own time zone)
    until: str = ""


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
    #: the commands the table's menu offers (games.table.commands.Offer), each with its template
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


# ---------------------------------------------------------------- the presenter


def seat_style(index: int) -> tuple[str, str, str]:
    """(colour, shape name, shape path) of a seat."""
    shape, path = SEAT_SHAPES[index % len(SEAT_SHAPES)]
    return SEAT_COLOURS[index % len(SEAT_COLOURS)], shape, path


def _seats(
    view: SeatView, seats: Sequence[SeatInfo], me: int | None, controlled: Sequence[int]
) -> list[SeatCtx]:
    out = []
    over = view.phase in ("round_over", "match_over")
    lowest = min(view.round_points) if over and view.round_points else None
    for info in seats:
        i = info.index
        colour, shape, path = seat_style(i)
        pts = view.round_points[i] if over and view.round_points is not None else None
        out.append(
            SeatCtx(
                index=i,
                number=i + 1,
                name=info.name,
                kind=info.kind,
                colour=colour,
                shape=shape,
                shape_path=path,
                level=info.level,
                presence=info.presence,
                presence_text=presence_words(info),
                away_since=info.away_since.isoformat()
                if info.presence == "away" and info.away_since is not None
                else "",
                hand_size=view.hand_sizes[i],
                hand_size_text=ngettext(
                    "%(count)s in hand", "%(count)s in hand", view.hand_sizes[i]
                )
                % {"count": view.hand_sizes[i]},
                total=view.totals[i],
                is_turn=view.turn == i,
                is_me=me == i,
                controlled=i in controlled,
                points=pts,
                points_text=points_text(pts) if pts is not None else "",
                lowest=pts is not None and pts == lowest,
                winner=view.winners is not None and i in view.winners,
                # R21, R24: hands are face up only once the round is over.
                revealed=view.revealed[i] if over and view.revealed is not None else None,
                hand_label=_("Your hand")
                if me == i
                else _("%(name)s's hand") % {"name": info.name},
                total_text=_("total %(total)s") % {"total": view.totals[i]} if over else "",
            )
        )
    return out


def _trains(
    view: SeatView,
    seats: Sequence[SeatInfo],
    seat_ctx: list[SeatCtx],
    me: int | None,
    last_train: str = "",
) -> list[TrainCtx]:
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
        first_shown = max(0, n - SHOWN_WIDE)
        tiles = list(
            _train_tiles(
                train.tiles,
                badge[1] if badge is not None else None,
                key == last_train,
                active_language(),
            )
        )
        folded_wide = first_shown
        folded_narrow = max(0, n - SHOWN_NARROW)
        out.append(
            TrainCtx(
                key=key,
                index=index,
                mexican=mexican,
                owner=seat_ctx[train.owner] if train.owner is not None else None,
                label=label,
                short=label
                if train.owner is None or train.owner == me
                else seats[train.owner].name,
                aria_label=train_aria(label, train, badge is not None),
                tiles=tiles,
                folded_wide=folded_wide,
                folded_narrow=folded_narrow,
                folded_wide_text=fold_text(folded_wide),
                folded_narrow_text=fold_text(folded_narrow),
                marker=train.marker,
                end=train.end,
                started=bool(train.tiles),
                mine=me is not None and train.owner == me,
                open_to_me=open_to_me
                and any(a.act == "play" and str(a.train) == key for a in view.legal),
                open_double=badge is not None,
            )
        )
    return out


@lru_cache(maxsize=1024)
def _train_tiles(
    tiles: tuple[Tile, ...], badge: int | None, last_move: bool, language: str | None
) -> tuple[TrainTileCtx, ...]:
    """The tiles a train's row shows (its newest `SHOWN_WIDE`): the same for every viewer,
    so worked out once per train, its open double's order (`badge`), whether the last move
    was on it, and language (a row changes on a move on it only)."""
    n = len(tiles)
    first_shown = max(0, n - SHOWN_WIDE)
    out = []
    for position in range(first_shown, n):
        t = tiles[position]
        b = badge if badge is not None and position == n - 1 and is_double(t) else None
        tile_label = ""
        if b is not None:
            tile_label = _("Tile %(tile)s, open double number %(order)s") % {
                "tile": spoken(t),
                "order": b,
            }
        out.append(
            TrainTileCtx(
                tile=t,
                double=is_double(t),
                badge=b,
                far=position < n - SHOWN_NARROW,
                label=tile_label,
                last_move=position == n - 1 and last_move,
            )
        )
    return tuple(out)


@dataclass(frozen=True)
class _Why:
    words: str
    url: str


def _why(
    view: SeatView, tile: Tile, names: list[str], said: dict[Any, _Why] | None = None
) -> _Why | None:
    """Why `tile` may not be played, in words (`said`: the words of the hand's reasons so far,
    by reason: while others play every tile of a hand has the same one)."""
    reason = why_not(view, tile)
    if reason is None:
        return None
    key = (reason.code, reason.rule, tuple(sorted(reason.params.items())))
    if said is not None and key in said:
        return said[key]
    why = _Why(say(reason, names=names, me=view.seat), rule_url(reason.rule))
    if said is not None:
        said[key] = why
    return why


def _hand(view: SeatView, seats: Sequence[SeatInfo]) -> HandCtx | None:
    if view.hand is None or view.seat is None:
        return None
    names = [s.name for s in seats]
    tiles = []
    playable = 0
    placing = view.phase == "engine" and any(a.act == "engine" for a in view.legal)
    said: dict[Any, _Why] = {}
    for t in view.hand:
        targets = [str(a.train) for a in view.legal if a.act == "play" and a.tile == t]
        why = None if targets else _why(view, t, names, said)
        if targets:
            playable += 1
        tiles.append(
            HandTileCtx(
                tile=(max(t), min(t)),
                data=spoken(t),
                label=_("Tile %(tile)s") % {"tile": spoken(t)},
                targets=targets,
                targets_attr=" ".join(targets),
                why=why.words if why is not None else "",
                why_url=why.url if why is not None else "",
                drawn=view.drawn_tile is not None and t == view.drawn_tile,
                double=is_double(t),
                points=points(t),
                after_engine=str(view.seat)
                if placing and view.engine in t and t != (view.engine, view.engine)
                else "",
            )
        )
    total = sum(points(t) for t in view.hand)
    return HandCtx(
        seat=view.seat,
        tiles=tiles,
        count_text=tiles_text(len(view.hand)),
        points_text=points_text(total),
        playable=playable,
        columns=phone_columns(len(view.hand)),
    )


def presence_words(info: SeatInfo) -> str:
    """ "At the table", "Away since 14:05 UTC" or "Not at the table yet", for the dot by
    a person's name; "" for a computer's seat or a board with no presence (replays). The time is
    in UTC here (the server does not know the reader's zone): the page says it in the reader's
    own time (static/js/localtime.js, from SeatCtx.away_since and script_words "away_since")."""
    if info.presence == "here":
        return _("At the table")
    if info.presence != "away":
        return ""
    if info.away_since is None:
        return _("Not at the table yet")
    from django.utils import timezone
    from django.utils.dateformat import time_format

    return _("Away since %(time)s") % {
        "time": time_format(timezone.localtime(info.away_since), "H:i T")
    }


def phone_columns(count: int) -> int:
    """How many tiles a row of the hand holds on a phone (board.css): every tile in
    view without sideways scrolling. Up to 8 tiles one row of large tiles; up to 20 two rows of 10
    (15 tiles keep the hand within a third of a 375 x 667 screen); then rows of 11 or more, at
    most three rows (a two-player round can leave a hand of 30 tiles and more)."""
    if count <= 8:
        return 8
    if count <= 20:
        return 10
    return max(11, -(-count // 3))


def _actions(view: SeatView) -> ActionsCtx:
    if view.seat is None or not view.my_turn:
        return ActionsCtx(seat=view.seat)
    acts = {a.act for a in view.legal}
    out = ActionsCtx(
        seat=view.seat,
        engine="engine" in acts,
        draw="draw" in acts,
        pass_="pass" in acts,
        end="end" in acts,
        hint=bool(view.legal),
    )
    if len(view.legal) == 1 and view.legal[0].act in ("draw", "pass"):
        out.only = view.legal[0].act
    preview = end_preview(view)
    if preview is not None:
        # R9, R11: show what ending leaves behind before it is confirmed.
        chain = ngettext(
            "You placed %(count)s tile on your train.",
            "You placed %(count)s tiles on your train.",
            preview.placed,
        ) % {"count": preview.placed}
        if preview.open_double is not None:
            out.end_double = preview.open_double
            chain += " " + _(
                "The double %(tile)s stays open at its end; it must be satisfied once the first "
                "turns are over."
            ) % {"tile": spoken(preview.open_double)}
        out.end_text = chain
    return out


def _history(flags: Flags) -> list[dict[str, Any]]:
    rows = []
    for number, pts in enumerate(flags.history, start=1):
        low = min(pts) if pts else None
        rows.append({"number": number, "cells": [{"points": p, "lowest": p == low} for p in pts]})
    return rows


def present(
    view: SeatView,
    seats: Sequence[SeatInfo],
    *,
    viewer: Viewer | None = None,
    flags: Flags | None = None,
) -> Board:
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
    status = status_text(view, seats, me, cover)
    # The top bar says whose turn it is in a few words; the hand's line carries the instruction.
    turn_words = ("", "", "")
    if your_turn:
        turn_text = _("Your turn")
    elif view.turn is not None and cover is None and not over:
        name = seats[view.turn].name
        turn_text = _("%(name)s's turn.") % {"name": name}
        before, _mark, after = (_("%(name)s's turn.") % {"name": "\0"}).partition("\0")
        turn_words = (before, name, after)
    else:
        turn_text = status
    round_words = _("Round %(round)s / %(rounds)s") % {"round": view.round, "rounds": view.rounds}
    if your_turn:
        title = _("Your turn") + " · " + round_words
    elif cover is not None:
        title = status + " · " + round_words
    else:
        title = round_words + " · " + _("Mexican Train")
    seated = bool(viewer.controlled)
    board = Board(
        match_id=flags.match_id,
        version=flags.version,
        round=view.round,
        rounds=view.round if flags.final else view.rounds,
        phase=view.phase,
        players=view.players,
        engine=(view.engine, view.engine),
        engine_placed=view.phase != "engine",
        boneyard=view.boneyard,
        boneyard_text=tiles_text(view.boneyard),
        seats=seat_ctx,
        me=seat_ctx[me] if me is not None else None,
        turn_seat=seat_ctx[view.turn] if view.turn is not None else None,
        your_turn=your_turn,
        status=status,
        turn_text=turn_text,
        turn_words=turn_words,
        title=title,
        trains=_trains(view, seats, seat_ctx, me, flags.last_train),
        # Once the round is over every hand lies face up on its row instead (R21).
        hand=_hand(view, seats) if cover is None and not over else None,
        actions=_actions(view) if cover is None else ActionsCtx(),
        undo=flags.undo,
        redo=flags.redo,
        restart=flags.restart and not over,
        next_round=flags.next_round and view.phase == "round_over",
        paused=flags.paused,
        spectator=not seated,
        autodraw=seated and viewer.autodraw,
        cover=seat_ctx[cover] if cover is not None else None,
        relay=viewer.relay,
        round_over=view.phase == "round_over",
        match_over=view.phase == "match_over",
        result_text=result_text(view, seats) if over else "",
        winners_text=winners_text(view, seats),
        history=_history(flags),
        compact=view.players >= COMPACT_FROM,
        last_event=flags.last_event,
        next_match_url=flags.next_match_url,
        restarted=flags.restarted,
        restarted_text=flags.restarted_text,
        ask=flags.ask if not over else None,
        answered=flags.answered if not over else "",
        # Once the round is over only the match-end panel's offers stand (R29: play again).
        offers=tuple(o for o in flags.offers if not over or o.where == "end"),
        away=flags.away,
    )
    e = spoken((view.engine, view.engine))
    board.round_text = (
        _("Round %(round)s, the match's last") % {"round": view.round}
        if flags.final
        else _("Round %(round)s of %(rounds)s") % {"round": view.round, "rounds": view.rounds}
    )
    board.engine_label = _("Engine double %(tile)s") % {"tile": e}
    board.engine_preview_label = _("Engine double %(tile)s, not placed yet") % {"tile": e}
    starters = board.hand is not None and any(h.after_engine for h in board.hand.tiles)
    # Under the double: its name never breaks at its hyphen ("12-" / "12"); the rest is escaped.
    e_whole = Markup('<span class="nobr">{}</span>').format(e)
    if board.actions.engine:
        board.engine_hint = Markup(escape(_("Place %(tile)s in the centre?"))) % {"tile": e_whole}
        # The hand's line says what a tap does while the engine waits for its holder (hand.js).
        if starters:  # a lit tile confirms the engine (R7) and starts the train (R8)
            board.status = _(
                "Your turn: confirm the engine double, or tap a lit tile: "
                "that places it and starts your train."
            )
        elif board.hand is not None:  # no tile starts the train: the first turn is a pass (R10)
            board.status = _(
                "Your turn: none of your tiles can start your train, so confirming "
                "the engine double also passes."
            )
            board.engine_then = "pass"
    else:
        board.engine_hint = Markup(escape(_("%(name)s holds %(tile)s"))) % {
            "name": seats[view.holder].name,
            "tile": e_whole,
        }
    if flags.searched and view.phase in ("engine", "first"):
        board.search_text = ngettext(
            "Nobody was dealt the %(tile)s, so everyone drew one tile at a time until "
            "%(name)s drew it. The %(count)s tile drawn went into the hands.",
            "Nobody was dealt the %(tile)s, so everyone drew one tile at a time until "
            "%(name)s drew it. The %(count)s tiles drawn went into the hands: that is why "
            "they hold more than usual and the boneyard has fewer left.",
            flags.searched,
        ) % {"tile": e, "name": seats[view.holder].name, "count": flags.searched}
    if board.cover is not None:
        board.cover_title = _("Pass the device to %(name)s") % {"name": board.cover.name}
        board.cover_button = _("%(name)s: show my tiles") % {"name": board.cover.name}
    if board.round_over:
        board.round_over_title = _("Round %(round)s is over") % {"round": view.round}
        board.next_round_text = _("Next round (%(next)s / %(rounds)s)") % {
            "next": view.round + 1,
            "rounds": view.rounds,
        }
    board.undo_text = flags.undo_text if flags.undo else ""
    _pace(board, view, seats, flags, over)
    if view.open_doubles and not over:
        board.open_doubles_text = ngettext(
            "%(count)s open double", "%(count)s open doubles", len(view.open_doubles)
        ) % {"count": len(view.open_doubles)}
    board.source = (view, seats, flags)
    return board


def pace_words() -> dict[str, str]:
    """The paces' names in the active language (games.models.Match.Pace)."""
    from games.models import Match

    return {value: str(label) for value, label in Match.Pace.choices}


def _pace(
    board: Board, view: SeatView, seats: Sequence[SeatInfo], flags: Flags, over: bool
) -> None:
    """The computers' pace for everyone; the choice of pace and "Skip to my turn" for the seated."""
    board.has_computers = any(s.kind == "computer" for s in seats)
    if not board.has_computers:
        return
    words = pace_words()
    board.pace, board.hurry = flags.pace, flags.hurry
    board.pace_text = _("Computers: %(pace)s") % {"pace": words.get(flags.pace, flags.pace)}
    if flags.may_pace and view.phase != "match_over":
        board.pace_options = [
            {"value": value, "label": label, "current": value == flags.pace}
            for value, label in words.items()
        ]
    computer_turn = view.turn is not None and seats[view.turn].kind == "computer"
    board.skip = flags.may_pace and computer_turn and not over and not flags.hurry
    board.skip_shown = flags.may_pace and not over


def public_flags(flags: Flags) -> Flags:
    """The flags every viewer shares (no offers, no requests: those are a viewer's own)."""
    return Flags(
        match_id=flags.match_id,
        version=flags.version,
        paused=flags.paused,
        history=flags.history,
        next_match_url=flags.next_match_url,
        pace=flags.pace,
        hurry=flags.hurry,
        last_train=flags.last_train,
        final=flags.final,
        restarted=flags.restarted,
        restarted_text=flags.restarted_text,
    )


def present_public(view: SeatView, seats: Sequence[SeatInfo], flags: Flags) -> Board:
    """The board of a spectator at the moment of `view` (whoever's view it is): what the
    shared parts are rendered from (R24: no hand, no legal action)."""
    return present(public(view), seats, viewer=Viewer(), flags=public_flags(flags))
