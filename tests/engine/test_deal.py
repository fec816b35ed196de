"""R1–R6: the set, players, hand sizes, seeded deals, the engine per round, the engine search."""

from __future__ import annotations

import random

import pytest

from engine.deal import Deal, engine_value, hand_size, search_engine, seeded_deal
from engine.rules import new_match_round
from engine.tiles import FULL_SET, BadTile, is_double, parse_tile, points, tile_str

from .engine_helpers import deal, hand, table, tile

# ------------------------------------------------------------------ R1 the set


def test_r1_double_twelve_set_has_91_distinct_tiles() -> None:
    assert len(FULL_SET) == 91
    assert len(set(FULL_SET)) == 91
    assert set(FULL_SET) == {(a, b) for a in range(13) for b in range(13) if a <= b}
    assert sum(1 for t in FULL_SET if is_double(t)) == 13


def test_r1_tile_points_are_the_sum_and_double_blank_is_worth_0() -> None:
    assert points(tile("0-0")) == 0
    assert points(tile("12-12")) == 24
    assert points(tile("5-3")) == 8
    assert points(tile("0-7")) == 7
    assert sum(points(t) for t in FULL_SET) == 14 * sum(range(13))  # each number shows 14 times


def test_r1_a_tile_is_the_same_whichever_way_it_is_written() -> None:
    assert parse_tile("12-5") == parse_tile("5-12") == (5, 12)
    assert parse_tile(" 3-3 ") == (3, 3)


@pytest.mark.parametrize("bad", ["13-1", "1-13", "-1-2", "a-b", "1-2-3", "12", "", "5_3", "1.0-2"])
def test_r1_names_outside_the_set_are_not_tiles(bad: str) -> None:
    with pytest.raises(BadTile):
        parse_tile(bad)


@pytest.mark.parametrize("bad", [None, 12, (1, 2), ["1-2"]])
def test_r1_a_tile_is_written_as_a_string(bad: object) -> None:
    with pytest.raises(BadTile):
        parse_tile(bad)


def test_r1_tiles_are_written_a_dash_b() -> None:
    assert tile_str((5, 12)) == "5-12"
    assert tile_str((12, 5)) == "12-5"  # a train tile keeps its orientation


# ------------------------------------------------------------------ R2 players


@pytest.mark.parametrize("n", [0, 1, 11, 12])
def test_r2_a_match_has_two_to_ten_players(n: int) -> None:
    with pytest.raises(ValueError):
        hand_size(n)
    with pytest.raises(ValueError):
        seeded_deal(1, 1, n)


@pytest.mark.parametrize("n", range(2, 11))
def test_r2_seats_are_numbered_0_to_n_minus_1(n: int) -> None:
    s = new_match_round(n, 7)
    assert s.players == n
    assert len(s.hands) == n
    assert len(s.trains) == n + 1  # one train per seat and the Mexican train
    assert 0 <= s.holder < n


# ------------------------------------------------------------------ R3 hand sizes


@pytest.mark.parametrize(
    ("n", "size"), [(2, 15), (3, 15), (4, 15), (5, 12), (6, 12), (7, 10), (8, 10), (9, 8), (10, 8)]
)
def test_r3_hand_size_for_each_player_count(n: int, size: int) -> None:
    assert hand_size(n) == size
    for seed in (0, 1, 99):
        d = seeded_deal(seed, 1, n)
        assert [len(h) for h in d.hands] == [size] * n
        assert len(d.boneyard) == 91 - n * size  # R3: the rest is the boneyard
        everything = [t for h in d.hands for t in h] + list(d.boneyard)
        assert sorted(everything) == sorted(FULL_SET)


# ------------------------------------------------------------------ R4 randomness


def test_r4_same_seed_same_players_same_deal_every_round() -> None:
    for r in range(1, 14):
        assert seeded_deal(424242, r, 4) == seeded_deal(424242, r, 4)
        assert new_match_round(4, 424242, r) == new_match_round(4, 424242, r)


def test_r4_different_rounds_of_one_match_are_dealt_differently() -> None:
    deals = [seeded_deal(5, r, 4) for r in range(1, 14)]
    assert len({d.hands for d in deals}) == 13


def test_r4_different_seeds_deal_differently() -> None:
    assert len({seeded_deal(s, 1, 3).hands for s in range(20)}) == 20


def test_r4_deal_depends_only_on_seed_and_round_not_on_call_order_or_global_random() -> None:
    wanted = seeded_deal(77, 6, 5)
    random.seed(1)
    before = random.random()
    for r in (13, 2, 6, 1):
        seeded_deal(77, r, 5)
    seeded_deal(78, 6, 5)
    random.seed(12345)  # touching the global random changes nothing
    assert seeded_deal(77, 6, 5) == wanted
    random.seed(1)
    seeded_deal(77, 6, 5)
    assert random.random() == before  # and dealing does not use the global random


def test_r4_the_deal_is_the_shuffle_of_random_seeded_with_the_match_and_round() -> None:
    # seeded_deal writes random.Random.shuffle out (a faster loop): the same
    # tiles in the same order as the library's shuffle, for every round and table size.
    for seed in (0, 1, 7, 424242, 2**40 + 3):
        for players in (2, 4, 7, 10):
            for r in range(1, 14):
                tiles = list(FULL_SET)
                random.Random(f"mextrain/{seed}/{r}").shuffle(tiles)
                size = hand_size(players)
                assert seeded_deal(seed, r, players) == Deal(
                    hands=tuple(tuple(tiles[i * size : (i + 1) * size]) for i in range(players)),
                    boneyard=tuple(tiles[players * size :]),
                )


def test_r4_a_known_seed_gives_a_pinned_deal() -> None:
    """A seeded match must replay identically on every machine and Python version: pin one deal.

    If this fails, the shuffle changed and every stored seeded match would replay differently.
    """
    d = seeded_deal(12345, 1, 2)
    assert d.hands[0] == hand(
        "3-3 12-12 9-11 5-11 7-9 0-7 4-7 4-10 10-12 3-5 1-3 7-10 2-6 11-12 6-12"
    )
    assert d.boneyard[:5] == hand("0-8 2-11 8-10 6-8 2-3")


# ------------------------------------------------------------------ R5 engine per round


@pytest.mark.parametrize("r", range(1, 14))
def test_r5_round_r_uses_the_double_13_minus_r(r: int) -> None:
    assert engine_value(r) == 13 - r
    s = new_match_round(3, 11, r)
    assert s.engine == 13 - r
    assert (13 - r, 13 - r) in s.hands[s.holder]


@pytest.mark.parametrize("r", [0, 14, -1])
def test_r5_there_are_only_rounds_1_to_13(r: int) -> None:
    with pytest.raises(ValueError):
        engine_value(r)


def test_r5_round_1_is_12_12_and_round_13_is_0_0() -> None:
    assert engine_value(1) == 12
    assert engine_value(13) == 0


# ------------------------------------------------------------------ R6 engine search


def test_r6_holder_places_without_any_search() -> None:
    d = deal("1-2", "3-4 12-12", "5-6", boneyard="7-7 8-8")
    found = search_engine(d, 1)
    assert found.holder == 1
    assert found.drawn == ()
    assert found.hands == d.hands and found.boneyard == d.boneyard


@pytest.mark.parametrize(
    ("r", "n", "start"),
    [
        (1, 3, 0),
        (2, 3, 1),
        (3, 3, 2),
        (4, 3, 0),
        (5, 3, 1),  # wraps back to seat 1 (index 0)
        (1, 4, 0),
        (4, 4, 3),
        (5, 4, 0),
        (13, 4, 0),
        (13, 10, 2),
        (10, 10, 9),
        (11, 10, 0),
        (7, 2, 0),
        (8, 2, 1),
    ],
)
def test_r6_search_starts_at_seat_r_minus_1_mod_n_and_wraps(r: int, n: int, start: int) -> None:
    e = engine_value(r)
    engine = f"{e}-{e}"
    # Nobody holds the engine; it is the top of the boneyard.
    others = [t for t in FULL_SET if t != (e, e)]
    hands = [tile_str(others[i]) for i in range(n)]
    rest = " ".join(tile_str(t) for t in others[n : n + 2 * n])
    d = deal(*hands, boneyard=f"{engine} {rest}")
    found = search_engine(d, r)
    assert found.holder == start
    assert [seat for seat, _ in found.drawn] == [(start + i) % n for i in range(n)]
    assert found.drawn[0] == (start, (e, e))


def test_r6_search_draws_complete_batches_even_when_the_engine_comes_first() -> None:
    d = deal("0-1", "0-2", "0-3", "0-4", boneyard="12-12 1-1 2-2 3-3 4-4 5-5")
    found = search_engine(d, 1)
    assert found.holder == 0
    assert found.drawn == ((0, (12, 12)), (1, (1, 1)), (2, (2, 2)), (3, (3, 3)))
    assert found.boneyard == hand("4-4 5-5")
    assert found.hands == (hand("0-1 12-12"), hand("0-2 1-1"), hand("0-3 2-2"), hand("0-4 3-3"))


def test_r6_search_engine_found_mid_batch_still_completes_the_batch() -> None:
    # round 3, 4 players: order 2, 3, 0, 1; the engine (10-10) is the 2nd draw of batch 2.
    d = deal("0-1", "0-2", "0-3", "0-4", boneyard="1-1 2-2 3-3 4-4  5-5 10-10 6-6 7-7  8-8 9-9")
    found = search_engine(d, 3)
    assert found.holder == 3
    assert [s for s, _ in found.drawn] == [2, 3, 0, 1, 2, 3, 0, 1]
    assert found.boneyard == hand("8-8 9-9")
    assert (10, 10) in found.hands[3]
    assert [len(h) for h in found.hands] == [3, 3, 3, 3]  # equal batches


def test_r6_search_with_a_partial_last_batch_draws_until_the_boneyard_is_empty() -> None:
    # 3 players, 5 tiles: one full batch without the engine, then 2 < 3 tiles left.
    d = deal("0-1", "0-2", "0-3", boneyard="1-1 2-2 3-3 12-12 4-4")
    found = search_engine(d, 1)
    assert [s for s, _ in found.drawn] == [0, 1, 2, 0, 1]
    assert found.holder == 0
    assert found.boneyard == ()
    assert found.hands == (hand("0-1 1-1 12-12"), hand("0-2 2-2 4-4"), hand("0-3 3-3"))


def test_r6_engine_as_the_very_last_tile_of_a_partial_batch() -> None:
    # round 2 of 3: order 1, 2, 0. 4 tiles: a full batch, then the engine alone.
    d = deal("0-1", "0-2", "0-3", boneyard="1-1 2-2 3-3 11-11")
    found = search_engine(d, 2)
    assert found.holder == 1
    assert [s for s, _ in found.drawn] == [1, 2, 0, 1]
    assert found.boneyard == ()


def test_r6_partial_batch_order_starts_at_the_search_start_seat() -> None:
    # round 5 of 3: start seat (5-1) mod 3 = 1; 2 tiles only, the engine is the second.
    d = deal("0-1", "0-2", "0-3", boneyard="1-1 8-8")
    found = search_engine(d, 5)
    assert found.drawn == ((1, (1, 1)), (2, (8, 8)))
    assert found.holder == 2


def test_r6_the_search_is_deterministic_and_private_draws_join_hands() -> None:
    s1 = table("0-1", "0-2", "0-3", boneyard="1-1 2-2 12-12 3-3")
    s2 = table("0-1", "0-2", "0-3", boneyard="1-1 2-2 12-12 3-3")
    assert s1 == s2
    assert s1.holder == 2 and s1.turn == 2 and s1.phase == "engine"
    assert s1.hands == (hand("0-1 1-1"), hand("0-2 2-2"), hand("0-3 12-12"))
    assert s1.boneyard == hand("3-3")
    assert s1.search == ((0, (1, 1)), (1, (2, 2)), (2, (12, 12)))


def test_r6_engine_nowhere_is_not_a_valid_deal() -> None:
    with pytest.raises(ValueError):
        table("0-1", "0-2", boneyard="1-1 2-2")


@pytest.mark.parametrize("n", range(2, 11))
def test_r6_seeded_search_batches_are_complete_and_end_with_the_engine(n: int) -> None:
    for seed in range(12):
        for r in (1, 7, 13):
            d = seeded_deal(seed, r, n)
            found = search_engine(d, r)
            e = (engine_value(r), engine_value(r))
            assert found.holder is not None and e in found.hands[found.holder]
            if found.drawn:
                seats = [s for s, _ in found.drawn]
                start = (r - 1) % n
                assert seats == [(start + i) % n for i in range(len(seats))]
                assert len(seats) % n == 0 or not found.boneyard  # complete batches only
                where = [t for _, t in found.drawn].index(e)
                assert where // n == (len(seats) - 1) // n  # the engine came in the last batch
            assert sorted([t for h in found.hands for t in h] + list(found.boneyard)) == sorted(
                FULL_SET
            )


def test_r6_deal_type_is_hands_and_boneyard_top_first() -> None:
    d = Deal((hand("12-12"), hand("1-2")), hand("3-4 5-6"))
    assert search_engine(d, 1).boneyard == hand("3-4 5-6")
