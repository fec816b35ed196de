"""engine/events.py: what an update tells every viewer happened, from the public views only
(R24) — markers placed and taken up (R10, R16), doubles opened and satisfied (R11, R17, R19),
the round's end (R20) — and the log entries as events (a draw names no tile).

`board(...)` (engine_helpers): round 1, three seats after the first turns; train 0 ends 5
(seat 0), train 1 ends 4 (seat 1), seat 2 never started and is marked; seat 0 is to play.
"""

from __future__ import annotations

import pytest

from engine.events import between, from_log
from engine.state import RoundState
from engine.views import view

from .engine_helpers import board, do


def events(before: RoundState, *actions: str) -> list[dict[str, object]]:
    """The events `between` finds across `actions`, from the spectators' views."""
    after = do(before, *actions)
    return between(view(before, None), view(after, None))


def test_r16_a_seat_that_draws_and_passes_gets_a_marker_on_its_train() -> None:
    s = board("0-1", h1="9-9", boneyard="6-6 7-7")
    assert events(s, "0 draw", "0 pass") == [{"e": "marker_placed", "train": 0}]


def test_r16_playing_on_ones_own_marked_train_takes_the_marker_up() -> None:
    s = do(
        board("0-1", h1="9-9", boneyard="6-6 7-7 8-8 5-8"),
        "0 draw",
        "0 pass",
        "1 draw",
        "1 pass",
        "2 draw",
        "2 pass",
    )
    assert s.turn == 0 and s.trains[0].marker
    assert events(s, "0 draw", "0 play 5-8 0") == [{"e": "marker_removed", "train": 0}]


def test_r17_a_double_played_and_left_open_is_an_opened_double() -> None:
    s = board("5-5 12-11 0-1", h1="5-9 4-6")
    assert events(s, "0 play 5-5 0") == [{"e": "double_opened", "tile": "5-5", "train": 0}]


def test_r19_satisfying_the_double_is_a_satisfied_double() -> None:
    s = do(board("5-5 12-11 0-1", h1="5-9 4-6"), "0 play 5-5 0", "0 play 12-11 mexican")
    assert events(s, "1 play 5-9 0") == [{"e": "double_satisfied", "tile": "5-5", "train": 0}]


def test_r17_playing_on_ones_own_double_at_once_opens_and_closes_nothing_between_the_turns() -> (
    None
):
    s = board("5-5 5-3 12-11 0-1")
    assert events(s, "0 play 5-5 0", "0 play 5-3 0") == []


def test_r20_going_out_ends_the_round_for_every_viewer() -> None:
    s = board("5-8")
    assert events(s, "0 play 5-8 0") == [{"e": "round_over", "round": 1}]


def test_r24_events_are_worked_out_from_public_views_only() -> None:
    s = board("0-1")
    with pytest.raises(ValueError):
        between(view(s, 0), view(s, None))


def test_r24_a_draw_names_no_tile_and_a_play_names_its_tile_and_train() -> None:
    assert from_log("action", 1, {"act": "draw", "tile": "6-6"}) == {"e": "draw", "seat": 1}
    assert from_log("action", 0, {"act": "play", "tile": "4-6", "train": "mexican"}) == {
        "e": "play",
        "seat": 0,
        "tile": "6-4",
        "train": "mexican",
    }
    assert from_log("undo", None, {"count": 3}) == {"e": "undo", "count": 3}
    assert from_log("restart", None, None) == {"e": "restart"}
