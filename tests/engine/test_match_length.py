"""R31 match length: a match from double n has n + 1 rounds, n-n down to 0-0.

Every length's rounds use the right engine doubles; each round's deal is a function of
the seed and its engine double only (the same deal whatever the length); the match is
over after its last round (R22 read with R31); the standard match and every existing
call keep their meaning; replay files give the length as an optional "rounds" key and
read as 13 rounds without it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bots import choose
from engine.deal import ROUNDS, deal_round, engine_value, search_engine, seeded_deal
from engine.replay import BadReplay, run_replay
from engine.rules import apply, fixed_round, new_match_round, next_round, restart_round
from engine.serialize import start_from_json, start_to_json, state_from_json, state_to_json
from engine.state import Action, IllegalAction, RoundState
from engine.views import view

NEXT = Action("next_round")

seeds = st.integers(min_value=0, max_value=2**63 - 1)
players = st.integers(min_value=2, max_value=10)
lengths = st.integers(min_value=1, max_value=13)


def play_round(s: RoundState) -> RoundState:
    """Computers (expert) play the round to its end."""
    while s.turn is not None:
        s = apply(s, choose(view(s, s.turn), "expert"))
    return s


def play_match(s: RoundState) -> list[RoundState]:
    """Every round of the match played to its end by computers, each round's end state."""
    ends = [play_round(s)]
    while ends[-1].phase != "match_over":
        ends.append(play_round(apply(ends[-1], NEXT)))
    return ends


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds=lengths, data=st.data())
def test_r31_every_length_counts_its_engine_doubles_down_from_n_to_zero(
    rounds: int, data: st.DataObject
) -> None:
    doubles = [engine_value(r, rounds) for r in range(1, rounds + 1)]
    assert doubles == list(range(rounds - 1, -1, -1))  # n-n in round 1 ... 0-0 in the last
    r = data.draw(st.integers(min_value=1, max_value=rounds))
    assert deal_round(r, rounds) == ROUNDS - engine_value(r, rounds)
    for beyond in (0, rounds + 1):
        with pytest.raises(ValueError):
            engine_value(beyond, rounds)


@pytest.mark.parametrize("rounds", [0, 14, -1, True])
def test_r31_a_match_has_one_to_thirteen_rounds(rounds: int) -> None:
    with pytest.raises(ValueError):
        engine_value(1, rounds)
    with pytest.raises(ValueError):
        new_match_round(2, 1, 1, rounds=rounds)


def test_r5_the_existing_calls_keep_their_meaning() -> None:
    assert [engine_value(r) for r in range(1, 14)] == list(range(12, -1, -1))
    s = new_match_round(4, 99)
    assert s.rounds == 13 and s.engine == 12
    assert s == new_match_round(4, 99, 1, None, 13)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, n=players, rounds=lengths, data=st.data())
def test_r31_a_round_deals_what_the_standard_round_with_its_double_deals(
    seed: int, n: int, rounds: int, data: st.DataObject
) -> None:
    r = data.draw(st.integers(min_value=1, max_value=rounds))
    short = new_match_round(n, seed, r, rounds=rounds)
    e = rounds - r
    standard = new_match_round(n, seed, ROUNDS - e)
    assert short.engine == standard.engine == e
    assert short.start.deal == standard.start.deal == seeded_deal(seed, ROUNDS - e, n)
    # R6 is unchanged: the search starts from the seat of the match's round r
    found = search_engine(short.start.deal, r, rounds)
    assert (found.hands, found.holder) == (short.hands, short.holder)
    seats = [s for s, _ in found.drawn]
    assert seats == [((r - 1) % n + i) % n for i in range(len(seats))]


def test_r31_round_one_of_a_seven_round_match_deals_what_round_seven_of_a_standard_one_deals() -> (
    None
):
    short, standard = new_match_round(4, 2026, 1, rounds=7), new_match_round(4, 2026, 7)
    assert short.engine == standard.engine == 6
    assert short.start.deal == standard.start.deal


def test_r31_r22_a_seven_round_match_from_six_six_ends_after_its_seventh_round() -> None:
    ends = play_match(new_match_round(3, 7, rounds=7))
    assert [e.round for e in ends] == list(range(1, 8))
    assert [e.engine for e in ends] == [6, 5, 4, 3, 2, 1, 0]
    assert [e.phase for e in ends] == ["round_over"] * 6 + ["match_over"]
    assert all(e.rounds == 7 for e in ends)
    last = ends[-1]
    assert last.totals == tuple(sum(e.round_points[s] for e in ends) for s in range(3))  # type: ignore[index]
    winners = last.winners()
    assert winners and all(last.totals[w] == min(last.totals) for w in winners)
    with pytest.raises(IllegalAction) as refused:
        next_round(last)
    assert refused.value.code == "match_over" and refused.value.rule == "R22"


def test_r31_a_one_round_match_is_the_round_of_zero_zero() -> None:
    ends = play_match(new_match_round(2, 11, rounds=1))
    assert len(ends) == 1 and ends[0].engine == 0 and ends[0].phase == "match_over"


def test_r28_r31_a_restarted_round_and_a_snapshot_keep_the_length() -> None:
    s = new_match_round(3, 5, 2, (10, 20, 30), rounds=4)
    assert restart_round(s) == s
    assert state_from_json(state_to_json(s)) == s
    assert start_to_json(s.start)["rounds"] == 4
    assert start_from_json(start_to_json(s.start)) == s.start
    standard = new_match_round(3, 5)
    assert "rounds" not in start_to_json(
        standard.start
    )  # stored starts of standard matches unchanged
    assert start_from_json(start_to_json(standard.start)).rounds == 13


# ------------------------------------------------------------------ replay files


def test_replay_without_rounds_reads_as_thirteen_and_reports_as_before() -> None:
    out = run_replay({"players": 3, "seed": 4, "round": 13})
    assert out["engine"] == 0 and "rounds" not in out
    assert list(out)[:4] == ["players", "seed", "round", "engine"]
    with pytest.raises(BadReplay):
        run_replay({"players": 3, "seed": 4, "round": 14})


def test_r31_replay_with_rounds_sets_the_engine_and_the_deal_and_reports_the_length() -> None:
    out = run_replay({"players": 3, "seed": 4, "rounds": 7, "round": 1})
    assert out["rounds"] == 7 and out["engine"] == 6
    assert list(out)[:5] == ["players", "seed", "round", "rounds", "engine"]
    standard = run_replay({"players": 3, "seed": 4, "round": 7})
    assert out["hands"] == standard["hands"] and out["holder"] == standard["holder"]


@pytest.mark.parametrize(
    "doc",
    [
        {"players": 2, "seed": 1, "rounds": 0},
        {"players": 2, "seed": 1, "rounds": 14},
        {"players": 2, "seed": 1, "rounds": "7"},
        {"players": 2, "seed": 1, "rounds": True},
        {"players": 2, "seed": 1, "rounds": 7, "round": 8},
    ],
)
def test_r31_replay_refuses_a_length_that_is_none(doc: dict[str, object]) -> None:
    with pytest.raises(BadReplay):
        run_replay(doc)


def test_r31_a_replayed_seven_round_match_ends_after_round_seven() -> None:
    s = new_match_round(2, 31, rounds=7)
    log: list[dict[str, object]] = []
    while True:
        while s.turn is not None:
            action = choose(view(s, s.turn), "expert")
            log.append(action.to_json())
            s = apply(s, action)
        if s.phase == "match_over":
            break
        log.append(NEXT.to_json())
        s = apply(s, NEXT)
    out = run_replay({"players": 2, "seed": 31, "rounds": 7, "actions": log})
    assert (
        out["error"] is None
        and out["phase"] == "match_over"
        and out["round"] == 7
        and out["rounds"] == 7
    )
    assert out["totals"] == list(s.totals) and out["winners"] == list(s.winners() or ())
    # without its length the same log is a standard match: round 1 is then 12-12, not 6-6
    assert run_replay({"players": 2, "seed": 31, "actions": log})["error"] is not None


def test_r31_a_fixed_deal_replay_takes_the_length_too() -> None:
    out = run_replay(
        {
            "players": 2,
            "rounds": 3,
            "round": 1,
            "deal": {"hands": [["2-2", "2-5"], ["5-3"]], "boneyard": []},
        }
    )
    assert out["engine"] == 2 and out["holder"] == 0 and out["rounds"] == 3
    fixed = fixed_round(2, new_match_round(2, 1).start.deal, 1, rounds=13)
    assert fixed.rounds == 13


def test_r31_the_replay_command_reads_the_length_and_refuses_a_bad_one() -> None:
    repo = Path(__file__).resolve().parents[2]
    doc = {"players": 2, "seed": 8, "rounds": 4, "round": 4}
    p = subprocess.run(
        [sys.executable, "-m", "engine", "replay", "-"],
        cwd=repo,
        input=json.dumps(doc),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 0 and json.loads(p.stdout) == run_replay(doc)
    assert json.loads(p.stdout)["engine"] == 0 and json.loads(p.stdout)["rounds"] == 4
    bad = subprocess.run(
        [sys.executable, "-m", "engine", "replay", "-"],
        cwd=repo,
        input=json.dumps({**doc, "rounds": 14}),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and bad.stdout == "" and "rounds must be 1 to 13" in bad.stderr
