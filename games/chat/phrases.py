"""The table phrases and reactions: sent and stored as codes, shown in the
READER's language, so a German and a Spanish player each read their own words.

A phrase is a short sentence; a reaction is a symbol with a name (the name is what a
screen reader says, and the title the page shows). Their words are games/chat/words.py's
(`PHRASES`, `REACTIONS`): a new phrase is a line there, its Spanish and German words in
locale/, and nothing else: the table's menu lists them in this order. Codes are kept
forever (stored messages name them).
"""

from __future__ import annotations

from games.chat.words import PHRASES, REACTIONS

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
