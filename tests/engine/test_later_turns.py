"""R13–R16: later turns — open trains, the duty to play, the one draw, markers.

Most tests start from `board(...)`: round 1 (engine 12), three seats, after the
first turns. Seat 0 started its train with 12-5, seat 1 with 12-4, seat 2 could not
start and passed (marker). The Mexican train is empty. Seat 0 is to play.
"""

from __future__ import annotations

from engine.replay import state_json

from .engine_helpers import acts, board, do, held, legal, marker, markers, refused, table, train

# ------------------------------------------------------------------ R13 which trains are open


def test_r13_open_trains_are_the_own_the_marked_and_the_mexican() -> None:
    s = board("5-3 4-9 12-11 0-1")
    assert legal(s) == acts("0 play 5-3 0", "0 play 12-11 2", "0 play 12-11 mexican")


def test_r13_another_seats_train_without_a_marker_is_closed() -> None:
    s = board("5-3 4-9")
    err = refused(s, "0 play 4-9 1", "R13")
    assert "not open" in err.message


def test_r13_an_unstarted_train_is_started_with_the_engine_number() -> None:
    s = board("12-11 11-3 0-1", h1="11-2 0-0")
    s = do(s, "0 play 12-11 mexican")
    assert train(s, "mexican") == ["12-11"]
    # Seat 1 continues the Mexican train from its end, 11.
    assert legal(s) == acts("1 play 11-2 mexican")
    s = board("12-11 11-3 0-1")
    s = do(s, "0 play 12-11 2")  # seat 2's marked, never started train
    assert train(s, 2) == ["12-11"]


def test_r13_an_unstarted_train_does_not_take_a_tile_without_the_engine_number() -> None:
    s = board("5-3 11-3")
    refused(s, "0 play 11-3 mexican", "R13")
    refused(s, "0 play 11-3 2", "R13")


def test_r13_there_is_one_mexican_train() -> None:
    s = board("12-11 0-1", h1="12-10 0-0")
    s = do(s, "0 play 12-11 mexican")
    # 12-10 cannot start a second Mexican train: only seat 2's unstarted, marked train takes it.
    assert legal(s) == acts("1 play 12-10 2")
    refused(s, "1 play 12-10 mexican", "R13")
    assert set(state_json(s)["trains"]) == {"0", "1", "2", "mexican"}


def test_r13_no_branching_at_a_double_inside_a_train() -> None:
    s = table("12-12 12-5 5-5 5-3 5-9 0-1", "12-4 0-0", "1-1", boneyard="6-6 7-7")
    s = do(
        s,
        "0 engine",
        "0 play 12-5 0",
        "0 play 5-5 0",
        "0 play 5-3 0",
        "0 end",
        "1 play 12-4 1",
        "1 end",
        "2 pass",
    )
    assert train(s, 0) == ["12-5", "5-5", "5-3"]
    # 5-9 would need the side of 5-5 or 5 at the open end: it fits nowhere.
    assert legal(s) == acts("0 draw")
    refused(s, "0 play 5-9 0", "R13")


def test_r13_tiles_are_turned_so_they_match_the_open_end() -> None:
    s = board("3-5 0-1")
    s = do(s, "0 play 5-3 0")
    assert train(s, 0) == ["12-5", "5-3"]
    assert state_json(s)["trains"]["0"]["tiles"] == ["12-5", "5-3"]


def test_r13_play_on_a_train_that_does_not_exist_is_refused() -> None:
    s = board("5-3 0-1")
    refused(s, "0 play 5-3 3", "R13")
    refused(s, "0 play 5-3 -1", "R13")


# ------------------------------------------------------------------ R14 must play, one play


def test_r14_who_can_play_must_play() -> None:
    s = board("5-3 0-1")
    assert legal(s) == acts("0 play 5-3 0")
    refused(s, "0 draw", "R14")
    refused(s, "0 pass", "R14")


def test_r14_a_turn_is_one_play() -> None:
    s = board("5-3 3-2 0-1")
    s = do(s, "0 play 5-3 0")
    assert s.turn == 1  # 3-2 would continue, but the turn is over
    refused(s, "0 play 3-2 0", "R7")


def test_r14_end_is_only_for_first_turns() -> None:
    s = board("5-3 0-1")
    refused(s, "0 end", "R9")


# ------------------------------------------------------------------ R15 one draw


def test_r15_who_cannot_play_draws_one_tile() -> None:
    s = board("0-1 2-3")
    assert legal(s) == acts("0 draw")
    err = refused(s, "0 pass", "R15")
    assert "Draw" in err.message


def test_r15_the_drawn_tile_comes_from_the_top_into_the_hand() -> None:
    s = board("0-1 2-3", boneyard="6-6 7-7 8-8")
    after = do(s, "0 draw")
    assert held(after, 0) == held(s, 0) | {(6, 6)}
    assert after.boneyard == ((7, 7), (8, 8))
    assert after.turn == 0


def test_r15_a_playable_drawn_tile_must_be_played() -> None:
    s = do(board("0-1 2-3", boneyard="5-9 7-7"), "0 draw")
    assert legal(s) == acts("0 play 5-9 0")
    refused(s, "0 pass", "R14")
    refused(s, "0 draw", "R14")
    s = do(s, "0 play 5-9 0")
    assert train(s, 0) == ["12-5", "5-9"] and s.turn == 1


def test_r15_a_drawn_tile_may_go_to_any_open_train() -> None:
    s = do(board("0-1 2-3", boneyard="12-9 7-7"), "0 draw")
    assert legal(s) == acts("0 play 12-9 2", "0 play 12-9 mexican")


def test_r15_an_unplayable_drawn_tile_means_pass_and_marker() -> None:
    s = do(board("0-1 2-3", boneyard="6-6 7-7"), "0 draw")
    assert legal(s) == acts("0 pass")
    err = refused(s, "0 draw", "R15")
    assert "second draw" in err.message
    s = do(s, "0 pass")
    assert marker(s, 0) and s.turn == 1
    assert held(s, 0) == {(0, 1), (2, 3), (6, 6)}
    assert len(s.boneyard) == 1  # exactly one draw


def test_r15_empty_boneyard_means_pass_without_drawing() -> None:
    s = board("0-1 2-3", h1="5-9 0-0", boneyard="")
    # Not blocked: seat 1 holds 5-9, which can go on train 0 once it is marked (R20).
    assert legal(s) == acts("0 pass")
    err = refused(s, "0 draw", "R15")
    assert "empty" in err.message
    s = do(s, "0 pass")
    assert marker(s, 0)
    assert legal(s) == acts("1 play 5-9 0")


def test_r15_the_next_turn_gets_a_fresh_draw() -> None:
    s = do(board("0-1 2-3", h1="0-2", boneyard="6-6 7-7 8-8 9-10"), "0 draw", "0 pass")
    assert legal(s) == acts("1 draw")  # seat 1: 0-2 fits nowhere open to it


# ------------------------------------------------------------------ R16 markers


def test_r16_playing_on_another_train_leaves_the_own_marker() -> None:
    # Seat 2 (marked since its first turn) draws 12-7 and plays it on the Mexican train.
    s = board("5-3 12-11 0-2", h1="4-9 0-0", h2="1-1 7-8", boneyard="12-7 6-6")
    s = do(s, "0 play 5-3 0", "1 play 4-9 1", "2 draw")
    assert legal(s) == acts("2 play 12-7 2", "2 play 12-7 mexican")
    s = do(s, "2 play 12-7 mexican")
    assert marker(s, 2)


def test_r16_playing_on_a_marked_train_leaves_its_marker() -> None:
    s = do(board("12-11 5-3 0-2"), "0 play 12-11 2")
    assert marker(s, 2)
    assert not marker(s, 0)


def test_r16_only_playing_on_the_own_train_removes_the_own_marker() -> None:
    s = table("12-12 0-1 2-4", "12-4 4-5 0-0", "1-1 3-3", boneyard="12-11 12-2 6-6 7-7 8-8")
    s = do(s, "0 engine", "0 pass", "1 play 12-4 1", "1 end", "2 pass")
    assert markers(s) == [True, False, True]
    s = do(s, "0 draw")
    assert legal(s) == acts("0 play 12-11 0", "0 play 12-11 2", "0 play 12-11 mexican")
    s = do(s, "0 play 12-11 mexican")
    assert markers(s) == [True, False, True]  # the Mexican train: the marker stays
    s = do(s, "1 play 4-5 1")
    assert markers(s) == [True, False, True]
    s = do(s, "2 draw")
    assert legal(s) == acts("2 play 12-2 0", "2 play 12-2 2")
    s = do(s, "2 play 12-2 0")
    assert markers(s) == [True, False, True]  # another seat on train 0: seat 0's marker stays
    assert train(s, 0) == ["12-2"]
    assert legal(s) == acts("0 play 2-4 0")
    s = do(s, "0 play 2-4 0")
    assert markers(s) == [False, False, True]  # the owner on its own train: removed


def test_r16_starting_the_own_train_late_is_one_play_and_removes_the_marker() -> None:
    s = board("5-3 12-11 0-2", h1="4-9 0-0", h2="1-1 7-8", boneyard="12-7 6-6")
    s = do(s, "0 play 5-3 0", "1 play 4-9 1", "2 draw", "2 play 12-7 2")
    assert train(s, 2) == ["12-7"]
    assert not marker(s, 2)
    assert s.turn == 0  # 7-8 would continue, but a late start is not a chain


def test_r16_a_marker_stays_through_draws_and_passes() -> None:
    s = do(
        board("0-1 2-3", h1="0-2", boneyard="6-6 7-7 8-8 9-10"),
        "0 draw",
        "0 pass",
        "1 draw",
        "1 pass",
    )
    assert markers(s) == [True, True, True]
    s = do(s, "2 draw", "2 pass")
    assert markers(s) == [True, True, True]
