"""Learning as you play: the "How to play" page and the table's first-time tips.

The tips are shown by static/js/tips.js when the board the server rendered shows the
moment (its data attributes and classes: the phase, whose turn, a marker on your train,
an open double, the end-of-turn preview, one tile left, the round's result); the
browser never works out a rule itself. Which tips a player has dismissed, and "don't
show tips again", are kept on the account (`accounts.models.Preferences`, guests too).
A tip about the match's length says the match's own (R31): "after 7 rounds", "the double 6
in round 1" in a shorter match.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from games import length
from games.words import TIP_WORDS

#: (tip id, title, text, rule id of the rules page's anchor); the order is the order of a round.
#: The ids are what the account keeps and what static/js/tips.js looks for on the board.
TIPS: list[tuple[str, Promise, Promise, str]] = [
    # R5, R6, R7: shown while the engine double waits to be placed, or during the first turns
    ("engine", *TIP_WORDS["engine"], "R6"),
    # R8, R9: the viewer's first turn of a round
    ("first_chain", *TIP_WORDS["first_chain"], "R8"),
    # R11: the end-of-turn preview leaves a double open
    ("end_open_double", *TIP_WORDS["end_open_double"], "R11"),
    # R10, R15, R16: a marker on the viewer's train
    ("marker", *TIP_WORDS["marker"], "R16"),
    # R19: an open double to satisfy
    ("open_double", *TIP_WORDS["open_double"], "R19"),
    # R20, R18: one tile left in the viewer's hand
    ("going_out", *TIP_WORDS["going_out"], "R20"),
    # R21, R22, R31: the round's result, and the match's real length
    ("scoring", *TIP_WORDS["scoring"], "R21"),
]
TIP_IDS = frozenset(t[0] for t in TIPS)


def tips_context(user: Any, *, rounds: int = length.STANDARD) -> dict[str, Any]:
    """What static/js/tips.js needs: the tips still to show this user, and the words; a
    tip's words about the match's length say `rounds` (R31: the match's number of rounds)."""
    from accounts.models import Preferences

    prefs = (
        Preferences.objects.filter(user_id=user.pk).first()
        if getattr(user, "is_authenticated", False)
        else None
    )
    seen = set(prefs.tips_seen) if prefs else set()
    off = bool(prefs and prefs.tips_off)
    return {
        "off": off,
        "tips": []
        if off
        else [
            {"id": tid, "title": str(title), "text": _words(text, rounds), "rule": rule}
            for tid, title, text, rule in TIPS
            if tid not in seen
        ],
        "ok": str(_("Got it")),
        "read": str(_("Read")),
        "never": str(_("Don't show tips again")),
        "more": str(_("The exact rule")),
        "label": str(_("Tip")),
    }


def _words(text: Promise, rounds: int) -> str:
    """A tip's text for a match of `rounds` rounds (R31): its length and its first double."""
    return str(text % {"rounds": rounds, "first": length.first_double(rounds)})


@require_safe
def how_to_play(request: HttpRequest) -> HttpResponse:
    """One example round drawn step by step, each step linked to its rule."""
    return render(request, "games/how_to_play.html")
