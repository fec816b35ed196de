"""R32: the players agree that the round in play is the match's last; it ends the match
when it ends (R21-R22 scoring), a restart of it keeps the agreement (R28), and replay
files say it with ``{"act": "last_round"}`` (no seat)."""

from __future__ import annotations

import pytest

from engine.deal import ROUNDS
from engine.replay import BadReplay, parse_action
from engine.rules import (
    apply,
    last_round,
    legal_actions,
    new_match_round,
    next_round,
    restart_round,
)
from engine.serialize import state_from_json, state_to_json
from engine.state import Action, IllegalAction

from .engine_helpers import board, do, play_out, replay_out


def test_r32_a_round_made_the_last_ends_the_match_when_it_ends() -> None:
    s = last_round(new_match_round(3, 7, 2))
    over = play_out(s)
    assert over.phase == "match_over" and over.turn is None
    assert over.totals == tuple(a + b for a, b in zip(s.totals, over.round_points, strict=True))
    with pytest.raises(IllegalAction) as e:
        next_round(over)
    assert e.value.code == "match_over"


def test_r32_without_agreement_the_round_ends_as_before() -> None:
    assert play_out(new_match_round(3, 7, 2)).phase == "round_over"


def test_r32_the_agreement_is_kept_by_a_restart_and_a_snapshot() -> None:
    s = do(last_round(board("5-3", h1="0-0 9-9")), "0 play 5-3 0")
    assert s.phase == "match_over"
    again = restart_round(last_round(board("5-3 4-4", h1="0-0 9-9")))
    assert again.start.final
    assert state_from_json(state_to_json(again)).start.final
    assert "final" not in state_to_json(board("5-3"))["start"]  # older snapshots read the same


@pytest.mark.parametrize("when", ["over", "final", "thirteen"])
def test_r32_refused_once_the_round_is_over_or_already_the_last(when: str) -> None:
    s = new_match_round(2, 3, ROUNDS if when == "thirteen" else 1)
    if when == "over":
        s = play_out(s)
    elif when == "final":
        s = last_round(s)
    with pytest.raises(IllegalAction) as e:
        last_round(s)
    assert e.value.code == ("round_over" if when == "over" else "last_already")


def test_r32_replay_action_takes_no_seat() -> None:
    assert parse_action({"act": "last_round"}) == Action("last_round")
    assert apply(new_match_round(2, 3), Action("last_round")).start.final
    with pytest.raises(BadReplay):
        parse_action({"act": "last_round", "seat": 0})


def test_r32_a_replay_file_with_last_round_ends_in_match_over() -> None:
    s = new_match_round(2, 11)
    actions: list[dict[str, object]] = [{"act": "last_round"}]
    state = apply(s, Action("last_round"))
    while not state.over:
        a = legal_actions(state)[0]
        actions.append(a.to_json())
        state = apply(state, a)
    out = replay_out({"players": 2, "seed": 11, "actions": actions})
    assert out["phase"] == "match_over" and out["error"] is None
