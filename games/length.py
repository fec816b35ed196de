"""How long a match is (R31): the lengths a table may choose and the words for them.

The standard match has 13 rounds, from 12-12 down to 0-0 (R5). A table may choose, at
creation, a shorter match from a lower double n: n + 1 rounds, n-n down to 0-0. The
engine takes the length as `RoundStart.rounds` (engine.deal.engine_value); the site
stores it on `Match.length`. This module turns a length into a choice and into words
("7 rounds from 6-6"), and reads a chosen length from a form or a request.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.deal import MIN_ROUNDS, ROUNDS
from games.words import sentence

#: the standard match (R5): 13 rounds from 12-12
STANDARD = ROUNDS


def first_double(rounds: int) -> int:
    """R31: the double a match of `rounds` rounds starts from (12 for the standard match)."""
    return rounds - 1


def is_standard(rounds: int) -> bool:
    return rounds == STANDARD


def label(rounds: int) -> str:
    """The length in words: "13 rounds from 12-12", "7 rounds from 6-6", "1 round from 0-0"."""
    n = first_double(rounds)
    return ngettext(
        "%(rounds)s round from %(double)s", "%(rounds)s rounds from %(double)s", rounds
    ) % {"rounds": rounds, "double": f"{n}-{n}"}


def choices() -> list[tuple[int, str]]:
    """Every length a table may choose, the standard one first (the default), then shorter
    ones down to a match of one round from 0-0 (R31)."""
    return [
        (r, _("%(length)s (standard)") % {"length": label(r)} if is_standard(r) else label(r))
        for r in range(ROUNDS, MIN_ROUNDS - 1, -1)
    ]


def parse(value: object) -> int | None:
    """A chosen length (a whole number 1..13, or its digits), or None when it is none."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, int) and MIN_ROUNDS <= value <= ROUNDS:
        return value
    return None


def refused() -> str:
    """What a request with a length that is none says."""
    return sentence("rounds_range")
