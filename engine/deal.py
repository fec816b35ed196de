"""Dealing a round and searching for the engine double (R3–R6, R31).

Randomness comes only from the match seed: the shuffle of round ``r`` of a standard
match is a pure function of ``(seed, r)``, so a seeded match is reproducible round by
round (R4). A shorter match (R31) deals each round from the seed and the round's
engine double: the round with double ``e`` deals what the standard match's round
``13 - e`` deals (`deal_round`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .tiles import FULL_SET, Tile

MIN_PLAYERS = 2
MAX_PLAYERS = 10
ROUNDS = 13
#: R31: a match from double n has n + 1 rounds: from 1 (0-0 only) to the standard 13 (12-12 down)
MIN_ROUNDS = 1


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


def check_rounds(rounds: int) -> int:
    """R31: a match's length, 1 to 13 rounds (from 0-0 up to the standard 12-12)."""
    if (
        isinstance(rounds, bool)
        or not isinstance(rounds, int)
        or not MIN_ROUNDS <= rounds <= ROUNDS
    ):
        raise ValueError(f"a match has 1 to 13 rounds (R5, R31), not {rounds!r}")
    return rounds


def engine_value(round_no: int, rounds: int = ROUNDS) -> int:
    """R5/R31: round r of an n + 1 round match uses the double (rounds - r): 12-12 in round 1
    of the standard match down to 0-0 in its round 13; n-n down to 0-0 in a shorter one."""
    check_rounds(rounds)
    if not 1 <= round_no <= rounds:
        raise ValueError(
            f"a match of {rounds} rounds has rounds 1 to {rounds} (R5, R31), not {round_no}"
        )
    return rounds - round_no


def deal_round(round_no: int, rounds: int = ROUNDS) -> int:
    """R31: the standard round whose shuffle this round deals: the one with the same engine
    double, so a deal is a function of the seed and the engine double whatever the length."""
    return ROUNDS - engine_value(round_no, rounds)


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


def search_engine(deal: Deal, round_no: int, rounds: int = ROUNDS) -> SearchResult:
    """R6: find the engine holder, drawing complete equal batches when nobody holds it.

    Batches go one tile per seat clockwise from seat (r - 1) mod n. The search stops
    after the first complete batch in which the engine was drawn; when fewer tiles
    remain than a batch, they are drawn in the same order until the boneyard is empty.
    ``round_no`` is the round of the match (R6's r, whatever its length, R31).
    """
    engine = engine_value(round_no, rounds)
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
