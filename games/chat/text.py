"""What free text at a table may be: the name rules (accounts.names) for a line.

NFKC-normalised, stripped of surrounding spaces, not empty, at most `MAX_TEXT` characters,
and free of control, bidi, zero-width and other invisible characters (a bidi override
would turn the text around it backwards for every reader). Scripts may mix (a name may
not; a sentence may quote another language). Links stay text: pages set it as text
(never HTML) inside ``<bdi>``, so nothing in it is ever markup or a link.
"""

from __future__ import annotations

from accounts.names import invisible_character, normalise
from games.chat.words import EMPTY, INVISIBLE, TOO_LONG, Refused

#: the longest message, in characters after NFKC
MAX_TEXT = 200


def clean(value: str) -> str:
    """The text as stored, or `Refused` saying what is wrong with it."""
    text = normalise(value).strip()
    if not text:
        raise Refused(EMPTY)
    if len(text) > MAX_TEXT:
        raise Refused(TOO_LONG, limit=MAX_TEXT)
    ch = invisible_character(text)
    if ch is not None:
        raise Refused(INVISIBLE, code=ord(ch))
    return text
