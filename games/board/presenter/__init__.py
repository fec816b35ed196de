"""Turning a view into the board's template context: `present(view, seats, viewer=, flags=)`.

Everything a connection (a seat or a spectator) is shown of a match is built here from
one `SeatView` — the only thing a viewer may see (R24) — plus public seat metadata
(`SeatInfo`: names, kinds; colours and shapes are assigned here) and `Flags` (what the
caller knows beyond the view: versions, offers, history). Pure: no database, no request,
no clock; it runs in the active language (the words come from games.board.words).
`present_public` presents the spectator's board of the same moment, which the shared
parts are rendered from (games.board.parts).

Rules it shows: the round of the match's length and its engine (R5, R31), whose turn (R7), trains, markers and
the Mexican train (R10, R13, R15, R16), open doubles oldest first (R11, R19), the legal
actions only (R9, R10, R14, R15, R23), why a tile fits nowhere (R7, R8, R13, R15, R19),
hidden hands and the relay cover (R24), penalties and the lowest of a round without a
bonus (R21), winners sharing ties (R22), and Undo / Redo / Restart / New match buttons
only when offered (R27, R28, R29).

The pieces, a module each: `inputs` (`SeatInfo`, `Flags`, `Ask`), `contexts` (`Board` and
its pieces), `colours` (each seat's colour and shape), `seats`, `trains`, `hand` (the hand,
its "why", its actions), `pace`; here, `present` puts them together. Their public names are
imported here, so callers say `from games.board.presenter import present, Board`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markupsafe import Markup, escape

from engine.views import SeatView, public
from games.board.jinja_env import ntext as ngettext
from games.board.jinja_env import text as _  # Django's gettext, each word kept once translated
from games.board.viewer import Viewer
from games.board.words import result_text, spoken, status_text, tiles_text, winners_text

from .colours import SEAT_COLOURS, SEAT_SHAPES, seat_style
from .contexts import (
    ActionsCtx,
    Board,
    HandCtx,
    HandTileCtx,
    SeatCtx,
    TrainCtx,
    TrainTileCtx,
)
from .hand import _actions, _hand, phone_columns
from .inputs import Ask, Flags, SeatInfo
from .pace import _pace, pace_words
from .seats import _seats, presence_words
from .trains import SHOWN_NARROW, SHOWN_WIDE, _trains

__all__ = [
    "COMPACT_FROM",
    "SEAT_COLOURS",
    "SEAT_SHAPES",
    "SHOWN_NARROW",
    "SHOWN_WIDE",
    "ActionsCtx",
    "Ask",
    "Board",
    "Flags",
    "HandCtx",
    "HandTileCtx",
    "SeatCtx",
    "SeatInfo",
    "TrainCtx",
    "TrainTileCtx",
    "pace_words",
    "phone_columns",
    "presence_words",
    "present",
    "present_public",
    "public_flags",
    "seat_style",
]

#: from this many players on, the board uses its compact row height
COMPACT_FROM = 7


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
