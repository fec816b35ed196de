"""The table's own words: what a page is told when it sends too much, the words its scripts
show, the away seats' buttons, and the protocol's refusals of a frame or a field (`FRAME`,
`FIELD`). The board's words (tiles, turns, hints, log lines) are games/board/words.py's.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from games.board.jinja_env import text as _  # Django's gettext, each word kept once translated


def too_many_frames() -> str:
    """The error a page is sent when it sends frames faster than its budget (games.table.budget)."""
    return _(
        "Your page is sending too many messages; some were ignored. Reload the page if the table looks wrong."
    )


def script_words() -> dict[str, str]:
    """Words the table's scripts show, translated here (games/table/views.py puts them on the page) (no English is hard-coded in JS)."""
    return {
        "connecting": _("Connecting…"),
        # the same words as games.board.presenter's presence_words, for static/js/localtime.js
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
