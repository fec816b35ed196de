"""The table's own words: what a page is told when it sends too much, the words its scripts
show, the away seats' buttons, and the protocol's refusals of a frame (`FRAME`; a field's are
games/commands/words.py's `FIELD`). The board's words (tiles, turns, hints, log lines) are
games/board/words.py's.
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
#: command and which fields it carries), by key. Lazy, as the fields' words (games/commands/words.py).
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
