"""R20–R22: the end of a round (out or truly blocked), scoring, 13 rounds and the winners."""

from __future__ import annotations

import random

import pytest

from engine.deal import ROUNDS
from engine.rules import is_blocked, new_match_round, next_round
from engine.state import Action

from .engine_helpers import acts, board, do, legal, markers, play_out, refused, table

# ------------------------------------------------------------------ R20 out


def test_r20_emptying_the_hand_in_a_later_turn_ends_the_round() -> None:
    s = do(board("5-3", h1="0-0 9-9", h2="1-1"), "0 play 5-3 0")
    assert (s.phase, s.turn, s.ended_by) == ("round_over", None, "out")
    assert legal(s) == set()
    for a in ("1 play 9-9 1", "1 draw", "1 pass", "0 end"):
        refused(s, a, "R20")


# ------------------------------------------------------------------ R20 blocked


def test_r20_blocked_right_when_the_first_turns_end() -> None:
    s = table("12-12 12-5 0-1", "12-4 0-2", "1-1")
    s = do(s, "0 engine", "0 play 12-5 0", "0 end", "1 play 12-4 1", "1 end")
    assert s.phase == "first"
    s = do(s, "2 pass")
    assert (s.phase, s.ended_by, s.turn) == ("round_over", "blocked", None)
    assert s.round_points == (1, 2, 2)


def test_r20_blocked_after_the_last_tile_is_drawn_and_nobody_can_play() -> None:
    s = do(board("0-1 2-3", h1="0-2", h2="1-1", boneyard="6-6"), "0 draw")
    assert not s.boneyard and s.phase == "play"  # mid-turn: the pass is still to come
    s = do(s, "0 pass")
    assert (s.phase, s.ended_by) == ("round_over", "blocked")
    assert s.round_points == (18, 2, 2)
    assert markers(s) == [True, False, True]


def test_r20_not_blocked_while_the_boneyard_has_tiles() -> None:
    s = do(board("0-1 2-3", h1="0-2", h2="1-1", boneyard="6-6 7-7"), "0 draw", "0 pass")
    assert s.phase == "play" and s.turn == 1
    s = do(s, "1 draw", "1 pass")
    assert (s.phase, s.ended_by) == ("round_over", "blocked")


def test_r20_a_lap_of_passes_alone_does_not_end_the_round() -> None:
    # Boneyard empty. Seat 0's 4-9 fits only seat 1's closed train: after a full lap of
    # passes, seat 1's marker opens it and seat 0 plays.
    s = board("4-9", h1="0-0", h2="1-1", boneyard="")
    assert not is_blocked(s)
    s = do(s, "0 pass", "1 pass", "2 pass")
    assert s.phase == "play" and s.turn == 0
    assert markers(s) == [True, True, True]
    assert legal(s) == acts("0 play 4-9 1")
    s = do(s, "0 play 4-9 1")
    assert (s.phase, s.ended_by) == ("round_over", "out")


def test_r20_an_unsatisfiable_oldest_double_blocks_even_if_other_tiles_fit() -> None:
    s = do(board("5-5 12-11 0-1", h1="4-6", h2="1-1", boneyard=""), "0 play 5-5 0")
    # Mid-turn the round goes on: seat 0 owes an extra play and can make it (R17).
    assert s.phase == "play" and legal(s) == acts("0 play 12-11 2", "0 play 12-11 mexican")
    s = do(s, "0 play 12-11 mexican")
    # Nobody holds a 5 and the boneyard is empty; 4-6 fitting train 1 does not matter.
    assert (s.phase, s.ended_by) == ("round_over", "blocked")
    assert s.round_points == (1, 10, 2)


def test_r20_not_blocked_while_someone_can_satisfy_the_oldest_double() -> None:
    s = do(
        board("5-5 12-11 0-1", h1="4-6", h2="1-1 5-9", boneyard=""),
        "0 play 5-5 0",
        "0 play 12-11 mexican",
    )
    assert s.phase == "play" and s.turn == 1
    assert legal(s) == acts("1 pass")
    s = do(s, "1 pass")
    assert legal(s) == acts("2 play 5-9 0")


def test_r20_is_blocked_looks_at_every_train_end_and_unstarted_train() -> None:
    def empty_boneyard(h0: str, h1: str, h2: str) -> bool:
        return is_blocked(board(h0, h1=h1, h2=h2, boneyard="9-10").evolve(boneyard=()))

    assert empty_boneyard("0-1", "0-2", "1-1")  # ends 5, 4, 12 (unstarted), 12 (Mexican)
    assert not empty_boneyard("0-1", "0-2 12-9", "1-1")  # fits an unstarted train
    assert not empty_boneyard("0-1", "0-5", "1-1")  # fits train 0's end, in seat 1's hand
    assert not empty_boneyard("0-1", "0-2", "1-4")  # fits train 1's end, in seat 2's hand
    assert not is_blocked(board("0-1", h1="0-2", h2="1-1", boneyard="9-10"))  # boneyard not empty


# ------------------------------------------------------------------ R21 scoring


def test_r21_each_seat_adds_the_points_left_in_its_hand() -> None:
    s = table(
        "12-12 12-5 5-3 11-10 6-6", "12-4 9-8 0-0", "7-1 2-3", boneyard="0-1", totals=(10, 20, 30)
    )
    s = do(
        s, "0 engine", "0 play 12-5 0", "0 end", "1 play 12-4 1", "1 end", "2 pass", "0 play 5-3 0"
    )
    s = do(s, "1 draw", "1 pass", "2 pass")  # the boneyard is empty now
    assert s.phase == "play"
    s = play_out(s)
    assert s.ended_by is not None
    pips = tuple(sum(a + b for a, b in h) for h in s.hands)
    assert s.round_points == pips
    assert s.totals == tuple(t + p for t, p in zip((10, 20, 30), pips, strict=True))


def test_r21_double_blank_is_worth_0_and_the_round_winner_earns_nothing_extra() -> None:
    s = do(board("5-3", h1="0-0", h2="1-1"), "0 play 5-3 0")
    assert s.round_points == (0, 0, 2)
    s = table("12-12 12-5 5-3", "12-4 0-0", "1-1", boneyard="9-9", totals=(40, 7, 3))
    s = do(
        s, "0 engine", "0 play 12-5 0", "0 end", "1 play 12-4 1", "1 end", "2 pass", "0 play 5-3 0"
    )
    assert s.ended_by == "out"
    assert s.round_points == (0, 0, 2)
    assert s.totals == (40, 7, 5)  # no bonus, no subtraction for the lowest


def test_r21_blocked_round_scores_every_hand() -> None:
    s = do(board("0-1 2-3", h1="0-2", h2="1-1", boneyard="6-6"), "0 draw", "0 pass")
    assert s.round_points == (1 + 5 + 12, 2, 2)


# ------------------------------------------------------------------ R22 13 rounds, winners


def test_r22_a_match_has_exactly_13_rounds_from_12_12_down_to_0_0() -> None:
    rng = random.Random(5)
    s = new_match_round(4, 2024)
    engines = []
    totals = [s.totals]
    for r in range(1, ROUNDS + 1):
        assert s.round == r
        engines.append(s.engine)
        s = play_out(s, rng.choice)
        totals.append(s.totals)
        if r < ROUNDS:
            assert s.phase == "round_over" and s.winners() is None
            s = next_round(s)
    assert engines == list(range(12, -1, -1))
    assert s.phase == "match_over"
    assert all(
        b >= a
        for prev, cur in zip(totals, totals[1:], strict=False)
        for a, b in zip(prev, cur, strict=True)
    )
    best = min(s.totals)
    assert s.winners() == tuple(i for i, t in enumerate(s.totals) if t == best)
    with pytest.raises(Exception) as info:
        next_round(s)
    assert "(R22)" in str(info.value)
    refused(s, Action("next_round"), "R22")


def test_r22_equal_lowest_totals_win_together() -> None:
    s = table("0-0 0-5 5-5", "0-3 3-3 6-6", boneyard="1-2", round=13, totals=(100, 82))
    s = do(s, "0 engine", "0 play 0-5 0", "0 end", "1 play 0-3 1", "1 end", "0 play 5-5 0")
    assert s.phase == "match_over"
    assert s.totals == (100, 100)
    assert s.winners() == (0, 1)


def test_r22_a_single_lowest_total_wins_alone() -> None:
    s = table("0-0 0-5 5-5", "0-3 3-3 6-6", boneyard="1-2", round=13, totals=(100, 83))
    s = do(s, "0 engine", "0 play 0-5 0", "0 end", "1 play 0-3 1", "1 end", "0 play 5-5 0")
    assert s.winners() == (0,)


def test_r22_the_match_never_ends_before_round_13_whatever_the_scores() -> None:
    s = new_match_round(2, 9, totals=(5000, 0))
    for r in range(1, ROUNDS):
        s = play_out(s)
        assert s.phase == "round_over", r
        assert s.winners() is None
        s = next_round(s)
    assert s.round == 13
    s = play_out(s)
    assert s.phase == "match_over"


def test_r22_round_12_of_a_fixed_deal_ends_in_round_over_not_match_over() -> None:
    s = do(table("1-1 1-5", "1-3 0-0", boneyard="2-2", round=12), "0 engine", "0 play 1-5 0")
    assert s.phase == "first"
    s = do(s, "1 play 1-3 1", "1 end")
    assert (s.phase, s.ended_by) == ("round_over", "out")
    assert s.winners() is None


def test_r22_next_round_needs_a_finished_round_and_a_seed() -> None:
    s = new_match_round(3, 4)
    refused(s, Action("next_round"), "R20")
    fixed = play_out(table("12-12 12-1", "12-2 0-0", boneyard="3-3"))
    assert fixed.phase == "round_over"
    refused(fixed, Action("next_round"), "R4")


def test_r22_next_round_keeps_the_totals_and_deals_the_next_round_from_the_seed() -> None:
    s = play_out(new_match_round(3, 4, totals=(1, 2, 3)))
    after = next_round(s)
    assert after.round == 2 and after.engine == 11
    assert after.totals == s.totals
    assert after == new_match_round(3, 4, 2, s.totals)  # R4: depends only on (seed, round)
    assert after.phase == "engine" and after.round_points is None and after.ended_by is None
