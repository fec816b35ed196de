"""The board's words: tiles and counts as players say them, whose turn and what to do,
a hint's reason, the end of a round or match, a log line (the table's own words, as the
protocol's refusals, are games/table/words.py's).

Pure functions of a `SeatView` and the seats' names (games.board.presenter's
`SeatInfo`), in the active language (games.board.jinja_env keeps each word
translated once). Words with placeholders are filled in here, not in the templates.
Refusals are not said here: `why_not` only decides *which* reason keeps a tile from
being played (a `games.words.Reason`, with the engine's codes), and games/words/__init__.py,
which also says the engine's refusals, puts it into words.
Rules they say: whose turn (R7), the first turn (R8, R9, R10), open doubles (R11,
R19), open trains (R13), drawing and passing (R15), the round's and match's end
(R20, R21, R22), hints (R23, R25).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine.previews import hint
from engine.state import MEXICAN, Action, TrainKey
from engine.tiles import Tile
from engine.tiles import spoken as spoken  # the one tile speller
from engine.views import SeatView, TrainView
from games.board.jinja_env import ntext as ngettext
from games.board.jinja_env import text as _  # Django's gettext, each word kept once translated
from games.words import Reason

if TYPE_CHECKING:
    from games.board.presenter import SeatInfo


def tiles_text(n: int) -> str:
    return ngettext("%(count)s tile", "%(count)s tiles", n) % {"count": n}


def points_text(n: int) -> str:
    return ngettext("%(count)s point", "%(count)s points", n) % {"count": n}


def standin_name(name: str) -> str:
    """A seat's name while a computer plays it for its owner."""
    return _("%(name)s (a computer plays)") % {"name": name}


def train_label(key: TrainKey, seats: Sequence[SeatInfo], me: int | None) -> str:
    """A train's name on its own: "Mexican train", "Your train", "Ana's train"."""
    if key == MEXICAN:
        return _("Mexican train")
    if me is not None and key == me:
        return _("Your train")
    return _("%(name)s's train") % {"name": seats[int(key)].name}


def train_aria(label: str, train: TrainView, open_double: bool) -> str:
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


def why_not(view: SeatView, tile: Tile) -> Reason | None:
    """Why `tile` may not be played now (a `games.words.Reason`), or None when it may.

    Computed from the view alone (the same facts the engine's legality uses, and the
    engine's reason codes), so a tile that fits nowhere can say why before the player
    even tries (R23). `games.words` puts the reason into words.
    """
    if any(a.act == "play" and a.tile == tile for a in view.legal):
        return None
    if view.phase in ("round_over", "match_over"):
        return Reason("round_over", "R20")
    if not view.my_turn:
        # Not naming whose turn it is keeps the hand as it was while others play, so its
        # part is not sent again on every move (games/board/parts.py); the top bar says whose.
        return Reason("wait", "R7")
    if view.phase == "engine":
        return Reason("engine_first", "R7")
    assert view.seat is not None
    if view.phase == "first":
        if Action("pass", view.seat) in view.legal:
            return Reason("cannot_start", "R10", {"number": view.engine})
        return Reason("first_turn_own_train", "R8", {"end": view.train(view.seat).end})
    if view.drawn_tile is not None and tile != view.drawn_tile:
        return Reason("drawn_tile_only", "R15")
    if view.open_doubles and not view.owes:
        double, where = view.open_doubles[0]
        return Reason("open_double_first", "R19", {"tile": spoken(double), "train": where})
    closed = [
        t
        for t in view.trains
        if (t.end in tile) and t.owner is not None and t.owner != view.seat and not t.marker
    ]
    if closed:
        return Reason("train_not_open", "R13", {"train": closed[0].owner, "end": closed[0].end})
    return Reason("fits_nowhere", "R13", {"a": tile[1], "b": tile[0]})


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
        return {
            "type": "hint",
            "tile": None,
            "train": None,
            "act": None,
            "reason": _("There is nothing to suggest: it is not your turn."),
        }
    action = choice.action
    return {
        "type": "hint",
        "tile": spoken(action.tile) if action.tile is not None else None,
        "train": action.train,
        "act": action.act,
        "reason": hint_reason(choice.reason),
    }


def fold_text(n: int) -> str:
    return ngettext("… %(count)s more", "… %(count)s more", n) % {"count": n} if n else ""


def status_text(
    view: SeatView, seats: Sequence[SeatInfo], me: int | None, cover: int | None
) -> str:
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
                return _("Your first turn: you cannot start your train, so pass; it opens.")
            if view.placed:
                return _("Your first turn: add another tile to your chain, or end your turn.")
            return _("Your first turn: build a chain on your own train.")
        if "draw" in acts:
            return _("Your turn: no tile fits, so draw one.")
        if "play" not in acts:
            if view.train(me).marker:  # R15: a pass marks the train; one already open stays so
                return _("Your turn: nothing fits, so pass; your train stays open.")
            return _("Your turn: nothing fits, so pass; your train opens.")
        if view.drawn_tile is not None:
            return _("The drawn tile fits: play it.")
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


def result_text(view: SeatView, seats: Sequence[SeatInfo]) -> str:
    if view.ended_by == "blocked":
        return _("Round %(round)s is blocked: nobody can play and the boneyard is empty.") % {
            "round": view.round
        }
    if view.ended_by == "out":
        out = [s.name for s in seats if view.hand_sizes[s.index] == 0]
        if len(out) == 1:
            return _("%(name)s went out and ends round %(round)s.") % {
                "name": out[0],
                "round": view.round,
            }
        return _("Round %(round)s is over.") % {"round": view.round}
    return ""


def winners_text(view: SeatView, seats: Sequence[SeatInfo]) -> str:
    if view.winners is None:
        return ""
    names = [seats[i].name for i in view.winners]
    if len(names) == 1:
        return _("%(name)s wins the match!") % {"name": names[0]}
    # R22: equal lowest totals win together.
    return _("%(names)s and %(last)s win the match together!") % {
        "names": ", ".join(names[:-1]),
        "last": names[-1],
    }


def log_line(
    entry: Any, names: Sequence[str], viewer_seat: int | None, *, engine: int | None = None
) -> str:
    """One LogEntry in words (see games.log.words)."""
    from games.log.words import describe_entry

    actor = ""
    if entry.user is not None:
        actor = entry.user.get_username()
    return describe_entry(
        entry.kind,
        entry.action,
        names,
        viewer_seat,
        actor=actor,
        engine=engine if entry.kind == "action" else None,
    )
