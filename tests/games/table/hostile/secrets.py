"""Finding tiles in what a connection or a page was sent, in every form the site writes one.

The forms (games/jinja2/games/board/*.html, games/templatetags/tiles.py, games/board/,
games/log/words.py): ``data-tile="5-3"``, ``data-pips="3-5"`` on a tile's SVG (either
orientation), accessible names ("Tile 5-3", "Ficha 5-3", "Stein 5-3"), titles and
log lines ("played 5-3"), a hint's ``"tile": "5-3"``, and the SVG itself: two
``<use href="#mt-pips-a">`` / ``#mt-pips-b`` in one ``<svg>`` draw the tile a-b even
with no text at all. A why-not text names a hand tile's numbers ("ends in 5 or 3"):
it is only ever written on a hand tile (``data-why``), so a page may carry it only
inside the hand of the seat it shows.
"""

from __future__ import annotations

import re

from engine.tiles import Tile

#: "a-b" with a hyphen or a dash, standing alone (not inside a word, number or token)
_PAIR = re.compile(
    r"(?<![\w.\-\u2013\u2014])(\d{1,2})[-\u2013\u2014](\d{1,2})(?![\w.\-\u2013\u2014])"
)
#: SVG path data: numbers and dashes that are not tiles (a seat's diamond is "…9 9-9 9-9-9Z")
_PATH_DATA = re.compile(r'\sd="[^"]*"')
_SVG = re.compile(r"<svg\b[^>]*>.*?</svg>", re.S)
_USE = re.compile(r'href="#mt-pips-(\d{1,2})"')
_HAND = re.compile(r'<section class="hand[ "][^>]*>.*?</section>', re.S)
_HAND_SEAT = re.compile(r'<section class="hand[^"]*"[^>]*\bdata-seat="(\d+)"')
_BOARD_SEAT = re.compile(r'<div class="board[^"]*"[^>]*?\bdata-seat="(\d*)"', re.S)


def _tile(a: int, b: int) -> Tile | None:
    if 0 <= a <= 12 and 0 <= b <= 12:
        return (min(a, b), max(a, b))
    return None


def tiles_written(text: str) -> set[Tile]:
    """Every tile written in `text` (HTML, JSON or plain words), normalised (low, high)."""
    text = _PATH_DATA.sub("", text)
    found: set[Tile] = set()
    for a, b in _PAIR.findall(text):
        tile = _tile(int(a), int(b))
        if tile is not None:
            found.add(tile)
    for svg in _SVG.findall(text):
        halves = [int(n) for n in _USE.findall(svg)]
        if len(halves) == 2:
            tile = _tile(*halves)
            if tile is not None:
                found.add(tile)
    return found


def shown_seat(html: str) -> int | None:
    """The seat whose hand the board claims to show (``#board``'s data-seat), None for no hand."""
    found = _BOARD_SEAT.search(html)
    return int(found.group(1)) if found and found.group(1) else None


def hand_sections(html: str) -> list[tuple[int | None, str]]:
    """Each hand section of a page (there is at most one) with its data-seat."""
    out = []
    for section in _HAND.findall(html):
        seat = _HAND_SEAT.search(section)
        out.append((int(seat.group(1)) if seat else None, section))
    return out


def outside_hand(html: str) -> str:
    return _HAND.sub("", html)
