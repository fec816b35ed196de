"""R7–R12: placing the engine and everyone's first turn (a chain on the own train)."""

from __future__ import annotations

import pytest

from engine.state import RoundState

from .engine_helpers import (
    action,
    acts,
    do,
    held,
    legal,
    marker,
    markers,
    open_doubles,
    refused,
    table,
    train,
)


def turns_taken(state: RoundState, *texts: str) -> list[int | None]:
    """Apply the actions, recording whose turn it was before each."""
    seen = []
    for t in texts:
        seen.append(state.turn)
        state = do(state, t)
    return seen


# ------------------------------------------------------------------ R7 placing the engine


def test_r7_only_the_holder_may_place_the_engine() -> None:
    s = table("1-2 3-4", "12-12 12-5", "5-6", boneyard="7-7")
    assert (s.phase, s.turn, s.holder) == ("engine", 1, 1)
    assert legal(s) == acts("1 engine")
    refused(s, "0 engine", "R7")
    refused(s, "2 engine", "R7")
    for other in ("1 play 12-5 1", "1 draw", "1 pass", "1 end"):
        refused(s, other, "R7")


def test_r7_placing_the_engine_removes_it_from_the_hand_and_starts_the_holders_first_turn() -> None:
    s = do(table("1-2 3-4", "12-12 12-5", "5-6", boneyard="7-7"), "1 engine")
    assert (s.phase, s.turn) == ("first", 1)
    assert held(s, 1) == {(5, 12)}
    assert all(t.tiles == () for t in s.trains)  # the engine is the hub, on no train
    assert s.boneyard == ((7, 7),)
    refused(s, "1 engine", "R7")


def test_r7_after_the_search_the_holder_who_drew_it_places_it() -> None:
    s = table("1-2", "3-4", "5-6", boneyard="0-0 12-12 0-1", round=1)
    assert s.holder == 1 and s.turn == 1 and (12, 12) in held(s, 1)
    s = do(s, "1 engine")
    assert held(s, 1) == {(3, 4)}


def test_r7_play_goes_clockwise_starting_with_the_holders_first_turn() -> None:
    s = do(table("1-2", "1-3", "12-12 1-4", "1-5", boneyard="5-5"), "2 engine")
    order = turns_taken(s, "2 pass", "3 pass", "0 pass", "1 pass")
    assert order == [2, 3, 0, 1]
    s = do(s, "2 pass", "3 pass", "0 pass", "1 pass")
    assert (s.phase, s.turn) == ("play", 2)  # later turns start with the holder again


def test_r7_it_is_one_seats_turn_at_a_time() -> None:
    s = do(table("12-12 12-1", "12-2", boneyard="5-5"), "0 engine")
    refused(s, "1 play 12-2 1", "R7")


# ------------------------------------------------------------------ R8 chain on the own train only


def first_turns_table() -> RoundState:
    return do(
        table("12-12 12-5 5-3 3-3 9-9", "12-4 4-4 1-0", "6-7 8-9", boneyard="2-2 1-1"), "0 engine"
    )


def test_r8_first_tile_matches_the_engine_number() -> None:
    s = first_turns_table()
    assert legal(s) == acts("0 play 12-5 0")
    refused(s, "0 play 5-3 0", "R8")
    refused(s, "0 play 9-9 0", "R8")


def test_r8_each_next_tile_matches_the_end_of_the_own_train() -> None:
    s = do(first_turns_table(), "0 play 12-5 0")
    assert legal(s) == acts("0 play 5-3 0", "0 end")
    s = do(s, "0 play 5-3 0")
    assert legal(s) == acts("0 play 3-3 0", "0 end")
    s = do(s, "0 play 3-3 0")
    assert train(s, 0) == ["12-5", "5-3", "3-3"]
    assert legal(s) == acts("0 end")


def test_r8_no_second_tile_from_the_engine_in_a_chain() -> None:
    s = do(table("12-12 12-5 12-6", "1-2", boneyard="3-3"), "0 engine", "0 play 12-5 0")
    assert legal(s) == acts("0 end")
    refused(s, "0 play 12-6 0", "R8")


def test_r8_mexican_train_is_closed_during_first_turns() -> None:
    s = first_turns_table()
    refused(s, "0 play 12-5 mexican", "R8")
    s = do(s, "0 play 12-5 0", "0 end")
    err = refused(s, "1 play 12-4 mexican", "R8")
    assert "Mexican" in err.message
    assert legal(s) == acts("1 play 12-4 1")


def test_r8_no_play_on_another_train_even_one_with_a_marker() -> None:
    # Seat 0 cannot start and passes (marker); seat 1 may still not play on train 0.
    s = do(table("12-12 1-2", "12-4 12-6", "12-7", boneyard="5-5"), "0 engine", "0 pass")
    assert marker(s, 0)
    refused(s, "1 play 12-4 0", "R8")
    assert legal(s) == acts("1 play 12-4 1", "1 play 12-6 1")
    s = do(s, "1 play 12-4 1", "1 end")
    refused(s, "2 play 12-7 1", "R8")  # a started, unmarked train of another seat


def test_r8_first_turn_chain_may_reuse_the_own_end_only() -> None:
    # 5-3 fits only the end 5 after 12-5; 3-9 can follow; 12-8 cannot (no second start).
    s = do(table("12-12 12-5 5-3 3-9 12-8", "0-1", boneyard="2-2"), "0 engine")
    s = do(s, "0 play 12-5 0", "0 play 5-3 0", "0 play 3-9 0")
    assert train(s, 0) == ["12-5", "5-3", "3-9"]
    assert legal(s) == acts("0 end")


# ------------------------------------------------------------------ R9 at least one tile, end explicitly


def test_r9_who_can_start_must_play_at_least_one_tile() -> None:
    s = first_turns_table()
    refused(s, "0 pass", "R9")
    refused(s, "0 end", "R9")


def test_r9_after_one_tile_the_turn_may_end_whenever_the_player_likes() -> None:
    s = do(first_turns_table(), "0 play 12-5 0")
    assert action("0 end") in legal(s)
    s = do(s, "0 end")  # 5-3 would still fit: ending is a choice
    assert (s.phase, s.turn) == ("first", 1)
    assert held(s, 0) == {(3, 5), (3, 3), (9, 9)}


def test_r9_the_turn_must_be_ended_explicitly_even_when_nothing_fits() -> None:
    s = do(first_turns_table(), "0 play 12-5 0", "0 play 5-3 0", "0 play 3-3 0")
    assert s.turn == 0 and s.phase == "first"
    assert legal(s) == acts("0 end")
    refused(s, "0 pass", "R9")
    refused(s, "0 draw", "R10")


def test_r9_an_empty_hand_ends_the_first_turn() -> None:
    s = do(
        table("12-12 12-5 5-3", "12-4 4-1", "12-6", boneyard="2-2"),
        "0 engine",
        "0 play 12-5 0",
        "0 play 5-3 0",
    )
    assert held(s, 0) == set()
    assert (s.phase, s.turn) == ("first", 1)  # no "end" needed
    refused(s, "0 end", "R7")


def test_r9_pass_after_playing_is_not_allowed() -> None:
    s = do(first_turns_table(), "0 play 12-5 0")
    err = refused(s, "0 pass", "R9")
    assert "End" in err.message


# ------------------------------------------------------------------ R10 cannot start: pass, marker


def test_r10_who_cannot_start_passes_without_drawing_and_gets_a_marker() -> None:
    s = do(first_turns_table(), "0 play 12-5 0", "0 end", "1 play 12-4 1", "1 end")
    assert s.turn == 2
    assert legal(s) == acts("2 pass")
    refused(s, "2 draw", "R10")
    err = refused(s, "2 end", "R10")
    assert "pass" in err.message
    before = s
    s = do(s, "2 pass")
    assert marker(s, 2)
    assert s.boneyard == before.boneyard  # nobody draws during first turns
    assert s.hands[2] == before.hands[2]
    assert markers(s) == [False, False, True]


def test_r10_nobody_draws_during_first_turns() -> None:
    s = do(table("12-12 1-2", "1-3", "12-3 0-5", boneyard="4-4 5-5 6-6"), "0 engine")
    for seat, act in ((0, "pass"), (1, "pass")):
        refused(s, f"{seat} draw", "R10")
        s = do(s, f"{seat} {act}")
    refused(s, "2 draw", "R10")
    s = do(s, "2 play 12-3 2", "2 end")
    assert len(s.boneyard) == 3
    assert s.phase == "play"
    assert markers(s) == [True, True, False]


def test_r10_the_holder_who_cannot_start_passes_too() -> None:
    s = do(table("12-12 0-1", "12-4", boneyard="5-5"), "0 engine")
    assert legal(s) == acts("0 pass")
    s = do(s, "0 pass")
    assert marker(s, 0) and s.turn == 1


# ------------------------------------------------------------------ R11 doubles in first turns


def test_r11_a_double_inside_the_chain_is_simply_continued() -> None:
    s = do(
        table("12-12 12-5 5-5 5-3", "12-4", boneyard="9-9"),
        "0 engine",
        "0 play 12-5 0",
        "0 play 5-5 0",
    )
    assert open_doubles(s) == [("5-5", 0)]
    assert s.turn == 0 and legal(s) == acts("0 play 5-3 0", "0 end")  # no extra play is owed
    s = do(s, "0 play 5-3 0")
    assert open_doubles(s) == []
    assert train(s, 0) == ["12-5", "5-5", "5-3"]


def test_r11_a_double_at_the_end_of_a_first_turn_has_no_effect_until_all_first_turns_are_done() -> (
    None
):
    s = do(
        table("12-12 12-5 5-5 5-3", "12-4 4-3 3-5 0-2", "12-6 6-5 0-1", boneyard="9-9"),
        "0 engine",
        "0 play 12-5 0",
        "0 play 5-5 0",
        "0 end",
    )
    assert open_doubles(s) == [("5-5", 0)]
    # Seat 1 builds freely on its own train; it may not (and need not) satisfy 5-5.
    assert legal(s) == acts("1 play 12-4 1")
    s = do(s, "1 play 12-4 1", "1 play 4-3 1", "1 play 3-5 1", "1 end")
    assert legal(s) == acts("2 play 12-6 2")
    s = do(s, "2 play 12-6 2", "2 play 6-5 2")
    assert legal(s) == acts("2 end")
    s = do(s, "2 end")
    # Now the double takes effect (R19) from the holder's second turn on.
    assert (s.phase, s.turn) == ("play", 0)
    assert legal(s) == acts("0 play 5-3 0")


def test_r11_first_turn_doubles_keep_the_real_order_in_which_they_were_played() -> None:
    # Holder is seat 1: the doubles come 3-3 (seat 1), 4-4 (seat 2), 2-2 (seat 0).
    s = table("12-2 2-2 2-9", "12-12 12-3 3-3 0-5", "12-4 4-4 4-9 0-6", boneyard="3-9 9-9 0-0")
    s = do(
        s,
        "1 engine",
        "1 play 12-3 1",
        "1 play 3-3 1",
        "1 end",
        "2 play 12-4 2",
        "2 play 4-4 2",
        "2 end",
        "0 play 12-2 0",
        "0 play 2-2 0",
        "0 end",
    )
    assert open_doubles(s) == [("3-3", 1), ("4-4", 2), ("2-2", 0)]
    assert (s.phase, s.turn) == ("play", 1)
    # The holder satisfies the oldest first: they hold no 3, so they draw (R15, R19).
    assert legal(s) == acts("1 draw")
    s = do(s, "1 draw")  # draws 3-9: satisfies 3-3 on its own train
    assert legal(s) == acts("1 play 3-9 1")
    s = do(s, "1 play 3-9 1")
    assert open_doubles(s) == [("4-4", 2), ("2-2", 0)]
    assert legal(s) == acts("2 play 4-9 2")
    s = do(s, "2 play 4-9 2")
    assert legal(s) == acts("0 play 2-9 0")


def test_r11_ending_a_first_turn_on_a_double_owes_no_extra_play() -> None:
    s = do(
        table("12-12 12-5 5-5 0-1", "12-4", boneyard="9-9"),
        "0 engine",
        "0 play 12-5 0",
        "0 play 5-5 0",
    )
    assert legal(s) == acts("0 end")
    s = do(s, "0 end")
    assert s.turn == 1


# ------------------------------------------------------------------ R12 out during first turns


def test_r12_out_in_the_holders_first_turn_waits_for_everyone_elses_first_turn() -> None:
    s = do(table("12-12 12-2", "12-7 7-7 0-1", "3-4", boneyard="5-5"), "0 engine", "0 play 12-2 0")
    assert held(s, 0) == set()
    assert (s.phase, s.turn, s.ended_by) == ("first", 1, None)
    assert legal(s) == acts("1 play 12-7 1")
    s = do(s, "1 play 12-7 1", "1 play 7-7 1", "1 end")
    assert (s.phase, s.turn) == ("first", 2)
    s = do(s, "2 pass")
    assert (s.phase, s.turn, s.ended_by) == ("round_over", None, "out")
    assert s.round_points == (0, 1, 7)
    assert legal(s) == set()


def test_r12_out_in_a_middle_seats_first_turn_also_waits() -> None:
    s = do(
        table("12-12 12-1 1-9", "12-3", "12-5 5-6", boneyard="8-8"),
        "0 engine",
        "0 play 12-1 0",
        "0 end",
        "1 play 12-3 1",
    )
    assert held(s, 1) == set()
    assert (s.phase, s.turn) == ("first", 2)
    s = do(s, "2 play 12-5 2", "2 end")
    assert (s.phase, s.ended_by) == ("round_over", "out")
    assert s.round_points == (10, 0, 11)


def test_r12_out_in_the_last_first_turn_ends_the_round_when_that_turn_ends() -> None:
    s = do(
        table("12-12 12-1 1-9", "12-5 5-6"), "0 engine", "0 play 12-1 0", "0 end", "1 play 12-5 1"
    )
    assert s.turn == 1 and s.phase == "first"
    s = do(s, "1 play 5-6 1")
    assert (s.phase, s.ended_by, s.turn) == ("round_over", "out", None)
    assert s.round_points == (10, 0)


def test_r12_two_seats_out_in_first_turns_both_score_0() -> None:
    s = do(table("12-12 12-1", "12-3", "12-5 0-9", boneyard="8-8"), "0 engine", "0 play 12-1 0")
    s = do(s, "1 play 12-3 1")
    assert s.phase == "first"
    s = do(s, "2 play 12-5 2", "2 end")
    assert s.ended_by == "out" and s.round_points == (0, 0, 9)


def test_r12_out_on_a_double_in_a_first_turn_owes_nothing_and_waits() -> None:
    s = do(
        table("12-12 12-4 4-4", "12-3 0-2", boneyard="8-8"),
        "0 engine",
        "0 play 12-4 0",
        "0 play 4-4 0",
    )
    assert held(s, 0) == set()
    assert (s.phase, s.turn) == ("first", 1)
    # Seat 1 is not bound by the open 4-4 during its first turn (R11).
    assert legal(s) == acts("1 play 12-3 1")
    s = do(s, "1 play 12-3 1", "1 end")
    assert (s.phase, s.ended_by) == ("round_over", "out")
    assert s.round_points == (0, 2)


@pytest.mark.parametrize("n", [2, 5, 10])
def test_r12_round_does_not_end_before_every_seat_had_a_first_turn(n: int) -> None:
    # Seat 0 goes out at once; every other seat passes its first turn.
    hands = ["12-12 12-0"] + [f"{s}-{s}" for s in range(1, n)]
    s = do(table(*hands, boneyard="11-11"), "0 engine", "0 play 12-0 0")
    for seat in range(1, n):
        assert s.phase == "first" and s.turn == seat
        s = do(s, f"{seat} pass")
    assert (s.phase, s.ended_by) == ("round_over", "out")
    assert s.round_points == tuple([0] + [2 * seat for seat in range(1, n)])
