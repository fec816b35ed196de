"""The table phrases and reactions: sent and stored as codes, shown in the
READER's language, so a German and a Spanish player each read their own words.

A phrase is a short sentence; a reaction is a symbol with a name (the name is what a
screen reader says, and the title the page shows). A new phrase is a line here, its
Spanish and German words in locale/, and nothing else: the table's menu lists them in
this order. Codes are kept forever (stored messages name them).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

#: code -> its words (in the active language when read)
PHRASES: dict[str, Any] = {
    "hello": _("Hello!"),
    "good_luck": _("Good luck!"),
    "have_fun": _("Have fun!"),
    "your_turn": _("Your turn."),
    "good_move": _("Good move!"),
    "nice_double": _("Nice double!"),
    "nice_train": _("Nice train!"),
    "lucky": _("Lucky you!"),
    "well_played": _("Well played!"),
    "close_one": _("That was close!"),
    "oops": _("Oops!"),
    "sorry": _("Sorry!"),
    "thanks": _("Thank you!"),
    "no_problem": _("No problem."),
    "thinking": _("Let me think…"),
    "hurry_up": _("Hurry up, please."),
    "take_your_time": _("Take your time."),
    "brb": _("Be right back."),
    "back": _("I'm back."),
    "need_to_go": _("I have to go soon."),
    "one_more_round": _("One more round?"),
    "another_match": _("Another match?"),
    "yes": _("Yes."),
    "no": _("No."),
    "maybe": _("Maybe."),
    "wait": _("Please wait a moment."),
    "ready": _("Ready!"),
    "congratulations": _("Congratulations!"),
    "thanks_for_game": _("Thanks for the game!"),
    "good_game": _("Good game!"),
    "bye": _("Bye!"),
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

#: the longest code a frame may carry
MAX_CODE = 32


def is_code(code: str) -> bool:
    return code in PHRASES or code in REACTIONS


def words(code: str) -> str:
    """A phrase's words, or a reaction's symbol, in the active language ('' for an unknown code)."""
    if code in PHRASES:
        return str(PHRASES[code])
    if code in REACTIONS:
        return REACTIONS[code][0]
    return ""


def label(code: str) -> str:
    """What a screen reader says for a reaction (its name); a phrase's words for a phrase."""
    if code in REACTIONS:
        return str(REACTIONS[code][1])
    return words(code)


def menu() -> dict[str, list[dict[str, str]]]:
    """The phrases and reactions for the table's chat menu, in the active language."""
    return {
        "phrases": [{"code": code, "text": str(text)} for code, text in PHRASES.items()],
        "reactions": [
            {"code": code, "text": symbol, "label": str(name)}
            for code, (symbol, name) in REACTIONS.items()
        ],
    }
