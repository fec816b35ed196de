"""The board's words: tiles and counts as players say them, whose turn and what to do,
a hint's reason, the end of a round or match, a log line; and, each in a section below,
the away seats' buttons and the protocol's refusals of a frame or a field (`FRAME`, `FIELD`).

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

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

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


def too_many_frames() -> str:
    """The error a page is sent when it sends frames faster than its budget (games.table.budget)."""
    return _(
        "Your page is sending too many messages; some were ignored. Reload the page if the table looks wrong."
    )


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


def script_words() -> dict[str, str]:
    """Words the table's scripts show, translated here (games/table/views.py puts them on the page) (no English is hard-coded in JS)."""
    return {
        "connecting": _("Connecting…"),
        # the same words as presenter.presence_words, for static/js/localtime.js
        "away_since": _("Away since %(time)s"),
        "reconnecting": _("Connection lost. Reconnecting…"),
        "connected": _("Connected."),
        "selected": _("Tile {tile} selected. Choose a glowing train."),
        "selected_one": _(
            "Tile {tile} selected. It fits one train: press Enter or tap it again to play."
        ),
        "deselected": _("Nothing selected."),
        "not_target": _("The selected tile does not fit this train."),
        "select_first": _("Select a tile first."),
        "fits_nowhere": _("This tile fits nowhere now."),
        "hint": _("Hint:"),
        "why": _("why?"),
        "hint_none": _("No hint now."),
        "sorted_pips": _("Sorted by pips."),
        "sorted_suit": _("Sorted by suit."),
        "moved": _("Tile {tile} moved in your hand."),
        "error": _("That did not work. The board is up to date again."),
        "stale": _("The table changed meanwhile; here is the current board."),
        "your_turn": _("Your turn"),
        "refused": _("This table cannot be shown to you. Reload the page to sign in again."),
        "offline": _("Offline: wait for the connection to come back, then play."),
        "close_message": _("Close this message"),
        "sound_on": _("A sound will say when it is your turn."),
        "sound_off": _("No sound on your turn."),
        "notify_on": _("When this tab is hidden, a notification will say it is your turn."),
        "notify_off": _("No notifications."),
        "notify_denied": _("This browser does not allow notifications from this site."),
    }


# ---------------------------------------------------------------- away seats (games/table/away.py)


def hand_over(name: str) -> str:
    """The button that lets a computer play for `name`, who is away past the table's limit."""
    return _("Let a computer play for %(name)s") % {"name": name}


def played_while_away(name: str) -> str:
    """To a person back at the table whose seat (`name`) a computer played meanwhile."""
    return _("While you were away, a computer has been playing %(name)s's seat.") % {"name": name}


# ---------------------------------------------------------------- the features' offers


# ---------------------------------------------------------------- the protocol's refusals

#: What a refused frame is told (games.table.protocol: the frame's size, its JSON, its
#: command and which fields it carries), by key. Lazy, as the fields' words below.
FRAME: dict[str, Promise] = {
    "too_long": gettext_lazy("That message is too long."),
    "not_text": gettext_lazy("Send commands as JSON text."),
    "too_deep": gettext_lazy("That message is nested too deeply."),
    "not_json": gettext_lazy("That message is not valid JSON."),
    "not_a_command": gettext_lazy("A command is a JSON object with a type."),
    "unknown_command": gettext_lazy("Unknown command."),
    "extra_field": gettext_lazy("This command does not take the field %(field)s."),
    "missing_field": gettext_lazy("This command needs the field %(field)s."),
}

#: What a command's field says when a frame's value for it is refused, by the field's name
#: (games.table.commands.fields, and chat.py's own; a feature module's own field says its
#: refusal in its words). Lazy: the fields are made once, at start-up, and a refusal is read in
#: its connection's language.
FIELD: dict[str, Promise] = {
    "request_id": gettext_lazy("A request id is 1 to 64 letters, digits or . _ : -"),
    "version": gettext_lazy("A version is a whole number."),
    "seat": gettext_lazy("A seat is a number from 0 to 9."),
    "ask": gettext_lazy("A request is a whole number."),
    "ref": gettext_lazy("A reference is a whole number."),
    "open": gettext_lazy("Open is true or false."),
    "on": gettext_lazy("On is true or false."),
    "pace": gettext_lazy("A pace is a short name."),
    "limit": gettext_lazy("A limit is a short name."),
    "action": gettext_lazy("An action is an object with the fields act, seat, tile and train."),
    "action_field": gettext_lazy("An action's %(field)s is not valid."),
    "action_act": gettext_lazy("An action needs its act (engine, play, draw, pass or end)."),
    "room": gettext_lazy("A room is players or spectators."),
    "say": gettext_lazy("A phrase is a short code."),
    "text": gettext_lazy("A message is text."),
}
