"""Dominoes drawn as inline SVG, with pips from 0 to 12 (R1: the double-twelve set).

Two tags:

- ``{% tile_defs %}`` renders, once per page, a hidden SVG holding one ``<symbol>``
  per number (``#mt-pips-0`` … ``#mt-pips-12``): the pips of one half of a tile.
- ``{% tile t %}`` renders one domino that ``<use>``s those symbols (and the face's,
  ``#mt-h`` / ``#mt-v``), so a board of a hundred tiles stays small (what changes of it
  is sent over the websocket after every move).

``t`` is a tile as the engine writes it: a pair ``(a, b)`` or a string ``"a-b"``.
The tile is drawn in the order given (a train's tiles are oriented near → far).
Options: ``vertical=True`` (hand tiles stand up), ``label="..."`` (the accessible
name; defaults to "Tile a-b" with the higher number first, as players say it),
``decorative=True`` (hidden from screen readers, when the surrounding control
already names it), ``css="..."`` (extra classes). ``{% tile_back %}`` draws a
face-down tile (the draw preview, R15: it shows nothing of the tile).

Pips use the 3 × 3 grid for 1–9 and a 3 × 4 grid for 10–12, each number in its
own colour (set per number in board.css as ``--pip-N``, drawn by ``.pips-N``), so high numbers read at
a glance; the colour is an aid, the count is always there.
"""

from __future__ import annotations

import re
from functools import cache

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from engine.tiles import HIGHEST, Tile, parse_tile
from engine.tiles import spoken as spoken  # the one tile speller

register = template.Library()

# Pip centres in a 100 × 100 half.
_L, _M, _R = 26, 50, 74
_GRID9 = {
    "tl": (_L, _L),
    "tc": (_M, _L),
    "tr": (_R, _L),
    "ml": (_L, _M),
    "c": (_M, _M),
    "mr": (_R, _M),
    "bl": (_L, _R),
    "bc": (_M, _R),
    "br": (_R, _R),
}
_LAYOUT9: dict[int, tuple[str, ...]] = {
    0: (),
    1: ("c",),
    2: ("tl", "br"),
    3: ("tl", "c", "br"),
    4: ("tl", "tr", "bl", "br"),
    5: ("tl", "tr", "c", "bl", "br"),
    6: ("tl", "ml", "bl", "tr", "mr", "br"),
    7: ("tl", "ml", "bl", "c", "tr", "mr", "br"),
    8: ("tl", "tc", "tr", "ml", "mr", "bl", "bc", "br"),
    9: ("tl", "tc", "tr", "ml", "c", "mr", "bl", "bc", "br"),
}
# 10–12: two side columns of four, and a middle column of two, three or four.
_ROWS4 = (18, 39, 61, 82)
_SIDES = [(x, y) for x in (24, 76) for y in _ROWS4]
_MIDDLE = {10: (39, 61), 11: (29, 50, 71), 12: _ROWS4}


def pip_positions(n: int) -> list[tuple[int, int]]:
    """Centres of the pips for number `n` (0–12) in a 100 × 100 half-tile."""
    if not 0 <= n <= HIGHEST:
        raise ValueError(f"no tile half shows {n} pips (R1: 0 to {HIGHEST})")
    if n <= 9:
        return [_GRID9[name] for name in _LAYOUT9[n]]
    return _SIDES + [(50, y) for y in _MIDDLE[n]]


def pip_radius(n: int) -> float:
    return 9 if n <= 9 else 7.5


#: a tile's face and its middle line, lying (h) and standing (v): drawn by every tile
_FACES = {
    "h": '<rect class="tile__face" x="3" y="3" width="194" height="94" rx="14"/>'
    '<line class="tile__line" x1="100" y1="14" x2="100" y2="86"/>',
    "v": '<rect class="tile__face" x="3" y="3" width="94" height="194" rx="14"/>'
    '<line class="tile__line" x1="14" y1="100" x2="86" y2="100"/>',
}


@cache
def _defs_svg() -> str:
    # No viewBox: a symbol draws in the user units of the tile that uses it (a half is 100 ×
    # 100 from the use's x, y), so a tile's <use>s need no width and height. overflow
    # visible: a highlighted face's wide edge is not clipped (on the pips too: a clip, even
    # one nothing reaches, changes their edges' antialiasing). Every page carries these: no
    # class the stylesheets do not use. No style attribute either (the Content-Security-Policy
    # refuses inline style): board.css colours each number's pips (.pips-N) and keeps the
    # svg out of the layout (.tile-defs).
    symbols = [
        f'<symbol id="mt-{k}" overflow="visible">{face}</symbol>' for k, face in _FACES.items()
    ]
    for n in range(HIGHEST + 1):
        r = pip_radius(n)
        circles = "".join(f'<circle cx="{x}" cy="{y}" r="{r}"/>' for x, y in pip_positions(n))
        pips = f'<g class="pips-{n}">{circles}</g>' if circles else ""
        symbols.append(f'<symbol id="mt-pips-{n}" overflow="visible">{pips}</symbol>')
    return (
        '<svg class="tile-defs" aria-hidden="true" focusable="false" width="0" height="0">'
        f"<defs>{''.join(symbols)}</defs></svg>"
    )


@register.simple_tag
def tile_defs() -> SafeString:
    """The pip symbols every ``{% tile %}`` on the page refers to (render once per page)."""
    return mark_safe(_defs_svg())


def _as_tile(value: object) -> Tile:
    """A tile as given (orientation kept): a pair or an "a-b" string."""
    if isinstance(value, str):
        low, high = parse_tile(value)
        first, _sep, _rest = value.strip().partition("-")
        return (low, high) if int(first) == low else (high, low)
    if isinstance(value, (tuple, list)) and len(value) == 2:
        a, b = int(value[0]), int(value[1])
        parse_tile(f"{a}-{b}")  # range check (R1)
        return (a, b)
    raise template.TemplateSyntaxError(f"{value!r} is not a tile")


@cache
def _tile_svg(a: int, b: int, vertical: bool, label: str, decorative: bool, css: str) -> str:
    # Short: a train's or a hand's tiles are re-sent when they change (games/board/parts.py).
    # The face is a symbol, so its edge is styled through custom properties that the use
    # inherits (--face-edge, --face-width…, board.css), not by selectors on .tile__face.
    k = "v" if vertical else "h"
    size = "0 0 100 200" if vertical else "0 0 200 100"
    second = 'y="100"' if vertical else 'x="100"'
    classes = f"tile tile--{k}" + (" tile--double" if a == b else "") + (f" {css}" if css else "")
    names = 'aria-hidden="true"' if decorative else f'role="img" aria-label="{escape(label)}"'
    return (
        f'<svg class="{escape(classes)}" viewBox="{size}" {names} data-pips="{a}-{b}">'
        f'<use href="#mt-{k}"/><use href="#mt-pips-{a}"/><use href="#mt-pips-{b}" {second}/></svg>'
    )


@register.simple_tag
def tile(
    value: object,
    vertical: bool = False,
    label: str | None = None,
    decorative: bool = False,
    css: str = "",
) -> SafeString:
    """One domino as inline SVG (see the module docstring)."""
    a, b = _as_tile(value)
    if label is None:
        label = _("Tile %(tile)s") % {"tile": spoken((a, b))}
    return mark_safe(_tile_svg(a, b, bool(vertical), str(label), bool(decorative), css))


@register.simple_tag
def tile_back(vertical: bool = False, label: str | None = None, css: str = "") -> SafeString:
    """A face-down tile: the draw preview shows only this (R15, R23)."""
    w, h = (100, 200) if vertical else (200, 100)
    name = label if label is not None else _("A face-down tile")
    classes = f"tile tile--back tile--{'v' if vertical else 'h'}" + (f" {css}" if css else "")
    names = (
        f'role="img" aria-label="{escape(name)}"'
        if name
        else 'aria-hidden="true" focusable="false"'
    )
    return mark_safe(
        f'<svg class="{escape(classes)}" viewBox="0 0 {w} {h}" {names}>'
        f'<rect class="tile__back" x="3" y="3" width="{w - 6}" height="{h - 6}" rx="14"/>'
        # an inset frame and a diamond in the middle: the back of a tile, also at icon size
        f'<rect class="tile__backframe" x="16" y="16" width="{w - 32}" height="{h - 32}" rx="8"/>'
        f'<rect class="tile__backmark" x="{w / 2 - 16}" y="{h / 2 - 16}" width="32" height="32" rx="4" '
        f'transform="rotate(45 {w / 2} {h / 2})"/>'
        "</svg>"
    )


#: a tile as a sentence names it ("12-11"), or a span of numbers ("2–4"), not inside a longer
#: word or number
_TILE_NAME = re.compile(r"(?<![\w\-–])(\d{1,2}[-–]\d{1,2})(?![\w\-–])")


@register.filter
def unbroken_tiles(text: object) -> SafeString:
    """`text` escaped, each tile or span of numbers it names kept on one line (a line may
    break at a hyphen or a dash, and "12-" above "11" reads as two numbers)."""
    return mark_safe(_TILE_NAME.sub(r'<span class="nobreak">\1</span>', str(escape(text))))  # noqa: S308  # escaped first
