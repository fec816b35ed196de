"""Dealing a round and searching for the engine double (R3–R6).

Randomness comes only from the match seed: the shuffle of round ``r`` is a pure
function of ``(seed, r)``, so a seeded match is reproducible round by round (R4).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .tiles import FULL_SET, Tile

MIN_PLAYERS = 2
MAX_PLAYERS = 10
ROUNDS = 13


def hand_size(players: int) -> int:
    """R3: 15 tiles with 2–4 players, 12 with 5–6, 10 with 7–8, 8 with 9–10."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"a match has 2 to 10 players (R2), not {players}")
    if players <= 4:
        return 15
    if players <= 6:
        return 12
    if players <= 8:
        return 10
    return 8


def engine_value(round_no: int) -> int:
    """R5: round r uses the double (13 - r): 12-12 in round 1 down to 0-0 in round 13."""
    if not 1 <= round_no <= ROUNDS:
        raise ValueError(f"a match has rounds 1 to 13 (R5), not {round_no}")
    return ROUNDS - round_no


@dataclass(frozen=True, slots=True)
class Deal:
    """The hands as dealt and the boneyard, top first. Tiles in neither are out of play."""

    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]


def seeded_deal(seed: int, round_no: int, players: int) -> Deal:
    """R3/R4: shuffle all 91 tiles from (seed, round) and deal seat by seat."""
    size = hand_size(players)
    tiles = list(FULL_SET)
    # A string seed is hashed with SHA-512 by `random`, stable across Python versions.
    # The shuffle is `random.Random.shuffle` written out (Fisher-Yates from the end, each
    # index drawn with getrandbits and rejection, as `_randbelow_with_getrandbits` does):
    # the same tiles in the same order (tests/engine/test_deal.py), without two Python
    # calls per tile — a seventh of a random playout's time went to dealing.
    getrandbits = random.Random(f"mextrain/{seed}/{round_no}").getrandbits
    for i in range(len(tiles) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    hands = tuple(tuple(tiles[i * size : (i + 1) * size]) for i in range(players))
    return Deal(hands=hands, boneyard=tuple(tiles[players * size :]))


@dataclass(frozen=True, slots=True)
class SearchResult:
    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    holder: int | None
    drawn: tuple[tuple[int, Tile], ...]  # (seat, tile) in drawing order, for the log


def search_engine(deal: Deal, round_no: int) -> SearchResult:
    """R6: find the engine holder, drawing complete equal batches when nobody holds it.

    Batches go one tile per seat clockwise from seat (r - 1) mod n. The search stops
    after the first complete batch in which the engine was drawn; when fewer tiles
    remain than a batch, they are drawn in the same order until the boneyard is empty.
    """
    engine = engine_value(round_no)
    double = (engine, engine)
    n = len(deal.hands)
    hands = [list(h) for h in deal.hands]
    for seat, hand in enumerate(hands):
        if double in hand:
            return SearchResult(deal.hands, deal.boneyard, seat, ())
    boneyard = list(deal.boneyard)
    start = (round_no - 1) % n
    order = [(start + i) % n for i in range(n)]
    drawn: list[tuple[int, Tile]] = []
    holder: int | None = None
    while boneyard and holder is None:
        for seat in order:
            if not boneyard:
                break
            tile = boneyard.pop(0)
            hands[seat].append(tile)
            drawn.append((seat, tile))
            if tile == double:
                holder = seat
    return SearchResult(tuple(tuple(h) for h in hands), tuple(boneyard), holder, tuple(drawn))
