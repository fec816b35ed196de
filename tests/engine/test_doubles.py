"""R17–R19: doubles — the extra play, going out on a double, the oldest open double first.

`board(...)` (engine_helpers): round 1, three seats after the first turns; train 0
ends 5 (seat 0), train 1 ends 4 (seat 1), seat 2 never started and is marked, the
Mexican train is empty; seat 0 is to play.
"""

from __future__ import annotations

from engine.state import RoundState

from .engine_helpers import (
    acts,
    board,
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


def two_doubles_ready(h0: str = "", boneyard: str = "6-6 7-7 8-8 10-10 11-11") -> RoundState:
    """Seat 0 starts the Mexican train with 12-3; after a lap it may play 5-5 (train 0) and 3-3 (Mexican)."""
    s = board(f"12-3 5-5 3-3 {h0}", h1="4-8 0-0", h2="1-1", boneyard=boneyard)
    s = do(s, "0 play 12-3 mexican", "1 play 4-8 1", "2 draw", "2 pass")
    assert s.turn == 0 and train(s, "mexican") == ["12-3"]
    return s


# ------------------------------------------------------------------ R17 extra plays


def test_r17_after_a_double_the_same_seat_plays_again_on_it_or_elsewhere() -> None:
    s = do(board("5-5 5-3 12-11 0-1"), "0 play 5-5 0")
    assert s.turn == 0 and s.phase == "play"
    assert legal(s) == acts("0 play 5-3 0", "0 play 12-11 2", "0 play 12-11 mexican")
    assert open_doubles(s) == [("5-5", 0)]


def test_r17_playing_on_the_double_closes_it_and_ends_the_turn() -> None:
    s = do(board("5-5 5-3 12-11 0-1"), "0 play 5-5 0", "0 play 5-3 0")
    assert open_doubles(s) == [] and s.turn == 1
    assert train(s, 0) == ["12-5", "5-5", "5-3"]


def test_r17_the_extra_play_elsewhere_ends_the_turn_and_leaves_the_double_open() -> None:
    s = do(board("5-5 5-3 12-11 0-1", h1="5-9 4-6"), "0 play 5-5 0", "0 play 12-11 mexican")
    assert s.turn == 1
    assert open_doubles(s) == [("5-5", 0)]
    # R19: seat 1 must now satisfy it, on seat 0's private train.
    assert legal(s) == acts("1 play 5-9 0")


def test_r17_the_extra_play_only_goes_where_the_seat_may_normally_play() -> None:
    s = do(board("5-5 4-9 0-1"), "0 play 5-5 0")
    refused(s, "0 play 4-9 1", "R13")  # seat 1's train has no marker
    assert legal(s) == acts("0 draw")


def test_r17_a_double_after_a_double_asks_for_yet_another_play() -> None:
    s = do(two_doubles_ready("3-9 0-1"), "0 play 5-5 0")
    assert acts("0 play 3-3 mexican") <= legal(s)
    s = do(s, "0 play 3-3 mexican")
    assert s.turn == 0
    assert open_doubles(s) == [("5-5", 0), ("3-3", "mexican")]
    assert legal(s) == acts("0 play 3-9 mexican")
    s = do(s, "0 play 3-9 mexican")
    assert s.turn == 1
    assert open_doubles(s) == [("5-5", 0)]


def test_r17_doubles_left_open_in_one_turn_stay_in_play_order() -> None:
    s = do(two_doubles_ready("12-11 0-1"), "0 play 5-5 0", "0 play 3-3 mexican", "0 play 12-11 2")
    assert s.turn == 1
    assert open_doubles(s) == [("5-5", 0), ("3-3", "mexican")]


def test_r17_cannot_make_the_extra_play_draw_once_then_pass_and_mark() -> None:
    s = do(board("5-5 0-1", boneyard="6-6 7-7"), "0 play 5-5 0")
    assert legal(s) == acts("0 draw")
    refused(s, "0 pass", "R15")
    s = do(s, "0 draw")
    assert legal(s) == acts("0 pass")
    refused(s, "0 draw", "R15")
    s = do(s, "0 pass")
    assert marker(s, 0) and s.turn == 1
    assert open_doubles(s) == [("5-5", 0)]
    assert held(s, 0) == {(0, 1), (6, 6)}


def test_r17_a_playable_drawn_tile_is_the_extra_play() -> None:
    s = do(board("5-5 0-1", boneyard="5-9 7-7"), "0 play 5-5 0", "0 draw")
    assert legal(s) == acts("0 play 5-9 0")
    s = do(s, "0 play 5-9 0")
    assert s.turn == 1 and open_doubles(s) == [] and not marker(s, 0)


def test_r17_extra_play_with_an_empty_boneyard_is_a_pass() -> None:
    s = do(board("5-5 0-1", h1="5-9 0-0", boneyard=""), "0 play 5-5 0")
    assert legal(s) == acts("0 pass")
    s = do(s, "0 pass")
    assert marker(s, 0)
    assert legal(s) == acts("1 play 5-9 0")


def test_r17_a_drawn_double_also_asks_for_another_play() -> None:
    # Seat 0 cannot play, draws 5-5, must play it, and then owes an extra play.
    s = do(board("0-1 2-3", boneyard="5-5 5-9 7-7"), "0 draw")
    assert legal(s) == acts("0 play 5-5 0")
    s = do(s, "0 play 5-5 0")
    assert s.turn == 0
    # The extra play is a new required play: it gets its own draw (R15).
    assert legal(s) == acts("0 draw")
    s = do(s, "0 draw", "0 play 5-9 0")
    assert s.turn == 1 and open_doubles(s) == []


# ------------------------------------------------------------------ R18 out on a double


def test_r18_going_out_on_a_double_ends_the_round_at_once() -> None:
    s = do(board("5-5"), "0 play 5-5 0")
    assert (s.phase, s.turn, s.ended_by) == ("round_over", None, "out")
    assert legal(s) == set()
    assert s.round_points == (0, 0, 2)  # seat 1 holds 0-0, seat 2 holds 1-1
    assert s.totals == (0, 0, 2)


def test_r18_going_out_on_a_second_double_of_a_turn() -> None:
    s = do(two_doubles_ready(), "0 play 5-5 0")
    s = do(s, "0 play 3-3 mexican")
    assert (s.phase, s.ended_by) == ("round_over", "out")
    assert open_doubles(s) == [("5-5", 0), ("3-3", "mexican")]


def test_r18_going_out_on_the_extra_play() -> None:
    s = do(board("5-5 5-3"), "0 play 5-5 0", "0 play 5-3 0")
    assert (s.phase, s.ended_by) == ("round_over", "out")


def test_r18_out_on_a_double_in_round_13_ends_the_match() -> None:
    s = table("0-0 0-5 5-5 0-7", "0-3 3-3 6-6", boneyard="1-2", round=13, totals=(100, 82))
    s = do(s, "0 engine", "0 play 0-5 0", "0 end", "1 play 0-3 1", "1 end", "0 play 5-5 0")
    assert s.turn == 0  # 0-7 is still in hand: the extra play is owed
    s = do(s, "0 play 0-7 mexican")
    assert (s.phase, s.ended_by) == ("match_over", "out")


# ------------------------------------------------------------------ R19 oldest open double first


def test_r19_the_next_seat_must_satisfy_an_open_double_even_on_a_private_train() -> None:
    s = do(board("5-5 12-11 0-1", h1="5-9 4-6 4-7"), "0 play 5-5 0", "0 play 12-11 mexican")
    assert not marker(s, 0)
    assert legal(s) == acts("1 play 5-9 0")
    err = refused(s, "1 play 4-6 1", "R19")
    assert "5-5" in err.message
    refused(s, "1 draw", "R14")
    s = do(s, "1 play 5-9 0")
    assert open_doubles(s) == [] and s.turn == 2
    assert not marker(s, 0) and not marker(s, 1)


def test_r19_who_cannot_satisfy_draws_once_and_plays_a_satisfying_drawn_tile() -> None:
    s = do(
        board("5-5 12-11 0-1", h1="4-6 4-7", boneyard="5-8 9-9"),
        "0 play 5-5 0",
        "0 play 12-11 mexican",
    )
    assert legal(s) == acts("1 draw")
    s = do(s, "1 draw")
    assert legal(s) == acts("1 play 5-8 0")
    refused(s, "1 play 4-6 1", "R15")


def test_r19_a_drawn_tile_that_does_not_satisfy_cannot_be_played_elsewhere() -> None:
    s = do(
        board("5-5 12-11 0-1", h1="4-6 0-0", boneyard="4-9 9-9 10-10"),
        "0 play 5-5 0",
        "0 play 12-11 mexican",
    )
    s = do(s, "1 draw")  # 4-9 fits the own train, but the double comes first
    assert legal(s) == acts("1 pass")
    refused(s, "1 play 4-9 1", "R19")
    refused(s, "1 play 4-6 1", "R15")  # and only the drawn tile could be played anyway


def test_r19_failing_to_satisfy_marks_the_own_train_and_passes_the_duty_on() -> None:
    s = do(
        board("5-5 12-11 0-1", h1="4-6 0-0", h2="1-1 5-7", boneyard="4-9 9-9 10-10"),
        "0 play 5-5 0",
        "0 play 12-11 mexican",
        "1 draw",
        "1 pass",
    )
    assert markers(s) == [False, True, True]
    assert s.turn == 2
    assert open_doubles(s) == [("5-5", 0)]
    assert legal(s) == acts("2 play 5-7 0")


def test_r19_the_duty_comes_back_round_to_the_seat_that_left_the_double() -> None:
    s = do(
        board("5-5 12-11 5-2 0-1", h1="4-6", h2="1-1", boneyard="9-9 10-10"),
        "0 play 5-5 0",
        "0 play 12-11 mexican",
        "1 draw",
        "1 pass",
        "2 draw",
        "2 pass",
    )
    assert s.turn == 0
    assert legal(s) == acts("0 play 5-2 0")


def test_r19_oldest_open_double_first() -> None:
    s = board(
        "12-3 5-5 3-3 12-11 0-1",
        h1="4-8 5-9 3-10 0-0",
        h2="1-1",
        boneyard="6-6 7-7 8-8 10-10 11-11",
    )
    s = do(
        s,
        "0 play 12-3 mexican",
        "1 play 4-8 1",
        "2 draw",
        "2 pass",
        "0 play 5-5 0",
        "0 play 3-3 mexican",
        "0 play 12-11 2",
    )
    assert open_doubles(s) == [("5-5", 0), ("3-3", "mexican")]
    # Seat 1 could satisfy either; only the older, 5-5, is allowed.
    assert s.turn == 1
    assert legal(s) == acts("1 play 5-9 0")
    err = refused(s, "1 play 3-10 mexican", "R19")
    assert "5-5" in err.message
    s = do(s, "1 play 5-9 0")
    assert open_doubles(s) == [("3-3", "mexican")]
    # Then the next-oldest binds seat 2: it holds no 3, so it draws, and cannot play 7-7.
    assert legal(s) == acts("2 draw")
    s = do(s, "2 draw")
    assert legal(s) == acts("2 pass")


def test_r19_within_the_turn_a_double_is_played_r17_governs() -> None:
    # Seat 0 has just played 5-5: it may leave it open and play elsewhere (R17), even
    # though an open double would otherwise bind every play (R19).
    s = do(board("5-5 12-11 0-1"), "0 play 5-5 0")
    assert open_doubles(s) == [("5-5", 0)]
    assert acts("0 play 12-11 2", "0 play 12-11 mexican") <= legal(s)


def test_r19_first_turn_doubles_bind_from_the_holders_second_turn() -> None:
    s = table("12-12 12-5 5-5 0-1 5-9", "12-4 4-4 4-9 0-2", "1-1", boneyard="6-6 7-7")
    s = do(s, "0 engine", "0 play 12-5 0", "0 play 5-5 0", "0 end")
    assert legal(s) == acts("1 play 12-4 1")  # not bound during first turns (R11)
    s = do(s, "1 play 12-4 1", "1 play 4-4 1", "1 end", "2 pass")
    assert (s.phase, s.turn) == ("play", 0)
    assert open_doubles(s) == [("5-5", 0), ("4-4", 1)]
    assert legal(s) == acts("0 play 5-9 0")
    s = do(s, "0 play 5-9 0")
    assert legal(s) == acts("1 play 4-9 1")


def test_r19_satisfying_on_another_seats_marked_train_keeps_its_marker() -> None:
    s = do(board("5-5 0-1", h1="5-9 0-0", boneyard="6-6 7-7"), "0 play 5-5 0", "0 draw", "0 pass")
    assert marker(s, 0)
    s = do(s, "1 play 5-9 0")
    assert marker(s, 0) and open_doubles(s) == []
