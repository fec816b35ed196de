"""Each change asked of the other people at a shared table, in words, by its consent kind
(games.consent.Kind): the banners, the log's lines and what the asker reads after a decline
or an expiry (`CHANGES`, `change_words`).

A module of the words package beside its __init__.py (whose words are the refusals and the
site's sentences by key), which imports these too, so a command module may say
``from games.words import change_words``.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

#: Each consent kind's words (games.consent.Kind), by the kind's name: the banner the asker
#: reads (``mine``) and the others read (``theirs``), the log's line for each step of the
#: request, and what the asker reads after a decline or an expiry. Lazy: a kind is made once,
#: when its command module is imported, and read in each reader's language.
CHANGES: dict[str, dict[str, Promise]] = {
    "undo": {
        "mine": gettext_lazy("You asked to take back your last move."),
        "theirs": gettext_lazy("%(name)s asks to take back their last move."),
        "log_ask": gettext_lazy("%(name)s asks to take back their last move (undo)"),
        "log_accept": gettext_lazy("%(name)s accepted the undo"),
        "log_decline": gettext_lazy("%(name)s declined the undo"),
        "log_expire": gettext_lazy("Nobody answered the undo request in time"),
        "log_void": gettext_lazy("The undo request is no longer possible"),
        "declined": gettext_lazy("%(name)s declined your request to take back your last move."),
        "expired": gettext_lazy(
            "Nobody answered your request to take back your last move in time."
        ),
    },
    "restart": {
        "mine": gettext_lazy("You asked to restart the round."),
        "theirs": gettext_lazy("%(name)s asks to restart the round."),
        "log_ask": gettext_lazy("%(name)s asks to restart the round"),
        "log_accept": gettext_lazy("%(name)s accepted the restart"),
        "log_decline": gettext_lazy("%(name)s declined the restart"),
        "log_expire": gettext_lazy("Nobody answered the restart request in time"),
        "log_void": gettext_lazy("The restart request is no longer possible"),
        "declined": gettext_lazy("%(name)s declined your request to restart the round."),
        "expired": gettext_lazy("Nobody answered your request to restart the round in time."),
    },
    "last_round": {
        "mine": gettext_lazy("You asked to end the match after this round."),
        "theirs": gettext_lazy("%(name)s asks to end the match after this round."),
        "log_ask": gettext_lazy("%(name)s asks to end the match after this round"),
        "log_accept": gettext_lazy("%(name)s accepted ending the match after this round"),
        "log_decline": gettext_lazy("%(name)s declined ending the match after this round"),
        "log_expire": gettext_lazy(
            "Nobody answered the request to end the match after this round in time"
        ),
        "log_void": gettext_lazy(
            "The request to end the match after this round is no longer possible"
        ),
        "declined": gettext_lazy(
            "%(name)s declined your request to end the match after this round."
        ),
        "expired": gettext_lazy(
            "Nobody answered your request to end the match after this round in time."
        ),
    },
    "away_limit": {
        "mine": gettext_lazy("You asked to change how long a seat may stay away."),
        "theirs": gettext_lazy("%(name)s asks to change how long a seat may stay away."),
        "log_ask": gettext_lazy("%(name)s asks to change how long a seat may stay away"),
        "log_accept": gettext_lazy("%(name)s accepted the new away limit"),
        "log_decline": gettext_lazy("%(name)s declined the new away limit"),
        "log_expire": gettext_lazy("Nobody answered the request to change the away limit in time"),
        "log_void": gettext_lazy("The request to change the away limit is no longer possible"),
        "declined": gettext_lazy(
            "%(name)s declined your request to change how long a seat may stay away."
        ),
        "expired": gettext_lazy(
            "Nobody answered your request to change how long a seat may stay away in time."
        ),
    },
}


def change_words(kind: str) -> dict[str, Any]:
    """The words of the consent kind `kind`, as `games.consent.Kind`'s fields take them
    (``consent.Kind(name=…, label=…, **change_words(name), done=…)``)."""
    return dict(CHANGES[kind])
