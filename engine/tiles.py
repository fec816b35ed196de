"""Tiles of the double-twelve set and how they are written (R1).

A tile in a hand is a normalised pair ``(low, high)``. A tile on a train is an
oriented pair ``(near, far)`` whose near number matches the previous end; its far
number is the train's new open end. Tiles are written ``"a-b"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

Tile = tuple[int, int]

HIGHEST: Final = 12

#: R1: the 91 tiles a-b with 0 <= a <= b <= 12, in a fixed order.
FULL_SET: Final[tuple[Tile, ...]] = tuple(
    (a, b) for a in range(HIGHEST + 1) for b in range(a, HIGHEST + 1)
)


class BadTile(ValueError):
    """A string or value that does not name a tile of the double-twelve set."""


def norm(a: int, b: int) -> Tile:
    """The hand form of a tile: low number first."""
    return (a, b) if a <= b else (b, a)


def parse_tile(text: object) -> Tile:
    """Read ``"a-b"`` (either order) into the normalised tile; raise :class:`BadTile`."""
    if not isinstance(text, str):
        raise BadTile(f"a tile is written as a string like '5-3', not {text!r}")
    parts = text.strip().split("-")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise BadTile(f"'{text}' is not a tile (write it like '5-3')")
    a, b = (int(p) for p in parts)
    if not (0 <= a <= HIGHEST and 0 <= b <= HIGHEST):
        raise BadTile(f"'{text}' is not in the double-twelve set (R1)")
    return norm(a, b)


def tile_str(tile: Tile) -> str:
    """Write a tile (keeps its orientation)."""
    return f"{tile[0]}-{tile[1]}"


def spoken(tile: Tile | Sequence[int]) -> str:
    """A tile as players say and the site writes it, the higher number first ("6-4"): the one
    tile speller (the rules' refusals, the events, the board, the log and the tile drawings)."""
    a, b = tile
    return f"{max(a, b)}-{min(a, b)}"


def points(tile: Tile) -> int:
    """R1: a tile is worth the sum of its numbers; 0-0 is worth 0."""
    return tile[0] + tile[1]


def is_double(tile: Tile) -> bool:
    return tile[0] == tile[1]
