"""Table talk's reason codes in words (the one place they become sentences).

Services raise `Refused(code, **params)`; the table's websocket says `sentence(refused)`
in the reader's language (games.chat.live). Codes are stable (tests and clients read them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

#: the codes of a refused chat command
CHAT_OFF = "chat_off"
BLOCKED = "chat_blocked"
FLOOD = "chat_flood"
TOO_LONG = "chat_too_long"
EMPTY = "chat_empty"
INVISIBLE = "chat_invisible"
GUEST_TEXT = "chat_guest_text"
NO_ROOM = "chat_no_room"
NOT_SIGNED_IN = "chat_not_signed_in"
UNKNOWN_PHRASE = "chat_unknown_phrase"
NO_MESSAGE = "chat_no_message"
OWN_MESSAGE = "chat_own_message"
NOT_CREATOR = "chat_not_creator"
NOT_PLAYER = "chat_not_player"


class Refused(Exception):
    """A chat command refused: nothing was stored. `code` is one of this module's codes."""

    def __init__(self, code: str, /, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


_SENTENCES: dict[str, Callable[[dict[str, Any]], str]] = {
    CHAT_OFF: lambda p: _("The table's creator has turned the chat off."),
    BLOCKED: lambda p: _(
        "You can no longer write in table chats. Staff blocked your account from them."
    ),
    FLOOD: lambda p: (
        ngettext(
            "You are writing too fast: at most %(count)d messages in %(seconds)d seconds. "
            "Wait a moment and try again.",
            "You are writing too fast: at most %(count)d messages in %(seconds)d seconds. "
            "Wait a moment and try again.",
            p["count"],
        )
        % p
    ),
    TOO_LONG: lambda p: (
        ngettext(
            "A message is at most %(limit)d character long.",
            "A message is at most %(limit)d characters long.",
            p["limit"],
        )
        % p
    ),
    EMPTY: lambda p: _("Write something first."),
    INVISIBLE: lambda p: (
        _("A message cannot contain invisible or control characters (such as U+%(code)04X).") % p
    ),
    GUEST_TEXT: lambda p: _(
        "Guests can send the table phrases. Create an account to write your own words."
    ),
    NO_ROOM: lambda p: _("You cannot write in this room."),
    NOT_SIGNED_IN: lambda p: _("Sign in or play as a guest to talk at this table."),
    UNKNOWN_PHRASE: lambda p: _("This phrase does not exist."),
    NO_MESSAGE: lambda p: _("This message does not exist."),
    OWN_MESSAGE: lambda p: _("This is your own message."),
    NOT_CREATOR: lambda p: _("Only the table's creator can turn the chat on or off."),
    NOT_PLAYER: lambda p: _("Only the players at this match can open the spectators' room."),
}


def sentence(refused: Refused) -> str:
    """The refusal in words, in the active language."""
    return _SENTENCES[refused.code](refused.params)


def notice_muted(name: str) -> str:
    return _("You no longer read %(name)s at any table. Unmute them from the chat's menu.") % {
        "name": name
    }


def notice_unmuted(name: str) -> str:
    return _("You read %(name)s again.") % {"name": name}


def notice_reported() -> str:
    return _("Thank you. Staff will look at this message.")


# ---------------------------------------------------------------- phrases and reactions

#: The table's phrases and reactions by code (games/chat/phrases.py: sent and stored as
#: codes, shown in each reader's language). Lazy: read in the reader's language.
#: code -> its words (in the active language when read)
PHRASES: dict[str, Any] = {
    "hello": gettext_lazy("Hello!"),
    "good_luck": gettext_lazy("Good luck!"),
    "have_fun": gettext_lazy("Have fun!"),
    "your_turn": gettext_lazy("Your turn."),
    "good_move": gettext_lazy("Good move!"),
    "nice_double": gettext_lazy("Nice double!"),
    "nice_train": gettext_lazy("Nice train!"),
    "lucky": gettext_lazy("Lucky you!"),
    "well_played": gettext_lazy("Well played!"),
    "close_one": gettext_lazy("That was close!"),
    "oops": gettext_lazy("Oops!"),
    "sorry": gettext_lazy("Sorry!"),
    "thanks": gettext_lazy("Thank you!"),
    "no_problem": gettext_lazy("No problem."),
    "thinking": gettext_lazy("Let me think…"),
    "hurry_up": gettext_lazy("Hurry up, please."),
    "take_your_time": gettext_lazy("Take your time."),
    "brb": gettext_lazy("Be right back."),
    "back": gettext_lazy("I'm back."),
    "need_to_go": gettext_lazy("I have to go soon."),
    "one_more_round": gettext_lazy("One more round?"),
    "another_match": gettext_lazy("Another match?"),
    "yes": gettext_lazy("Yes."),
    "no": gettext_lazy("No."),
    "maybe": gettext_lazy("Maybe."),
    "wait": gettext_lazy("Please wait a moment."),
    "ready": gettext_lazy("Ready!"),
    "congratulations": gettext_lazy("Congratulations!"),
    "thanks_for_game": gettext_lazy("Thanks for the game!"),
    "good_game": gettext_lazy("Good game!"),
    "bye": gettext_lazy("Bye!"),
}

#: code -> (symbol, its name)
REACTIONS: dict[str, tuple[str, Any]] = {
    "thumbs_up": ("\U0001f44d", pgettext_lazy("reaction", "Thumbs up")),
    "clap": ("\U0001f44f", pgettext_lazy("reaction", "Applause")),
    "laugh": ("\U0001f602", pgettext_lazy("reaction", "Laughing")),
    "wow": ("\U0001f62e", pgettext_lazy("reaction", "Surprised")),
    "sad": ("\U0001f622", pgettext_lazy("reaction", "Sad")),
    "heart": ("\u2764\ufe0f", pgettext_lazy("reaction", "Heart")),
}

# ---------------------------------------------------------------- its commands' fields

#: What a chat command's own field says when a frame's value for it is refused, by the
#: field's name (games/chat/commands.py; the fields chat shares with other commands say theirs
#: in games/commands/words.py). Lazy: read in the connection's language.
FIELD: dict[str, Any] = {
    "room": gettext_lazy("A room is players or spectators."),
    "say": gettext_lazy("A phrase is a short code."),
    "text": gettext_lazy("A message is text."),
}

# ---------------------------------------------------------------- the chat's admin


def admin_done(action: str, count: int) -> str:
    """What the chat's admin tells a staff member after an action on `count` messages,
    reports or accounts (games/chat/admin.py): "hidden", "blocked", "dismissed", "unblocked"."""
    if action == "hidden":
        text = ngettext("%(count)d message hidden.", "%(count)d messages hidden.", count)
    elif action == "blocked":
        text = ngettext(
            "%(count)d account blocked from chat.", "%(count)d accounts blocked from chat.", count
        )
    elif action == "dismissed":
        text = ngettext("%(count)d report dismissed.", "%(count)d reports dismissed.", count)
    else:
        text = ngettext("%(count)d account unblocked.", "%(count)d accounts unblocked.", count)
    return text % {"count": count}
