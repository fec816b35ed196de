"""What the account pages say (sign-up, sign-out, a guest keeping their account): the one
place accounts/views.py and accounts/guest_views.py take their sentences from, as the
games' pages take theirs from games/words.py."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _

#: the account pages' sentences by key, each once (translated when said)
SITE: dict[str, Callable[[], str]] = {
    "signups_throttled": lambda: _("Too many accounts were made from your address in the last hour. "
                                   "Please try again later."),
    "welcome": lambda: _("Welcome, %(username)s! Your account is ready."),
    "logged_out": lambda: _("You have logged out. See you at the table!"),
    "name_taken": lambda: _("That name is taken. Choose another one."),
    "guest_kept": lambda: _("Your account %(username)s is ready, with all your matches."),
    "unknown_tip": lambda: _("Unknown tip."),
}


def sentence(key: str, **params: object) -> str:
    """The sentence for `key` (one of `SITE`) in the active language, `params` put in."""
    text = SITE[key]()
    return text % params if params else text
