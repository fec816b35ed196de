"""Every illegal action raises IllegalAction whose message names the rule (R7–R22).

Exhaustive per situation: for representative states, every well-formed action
(each act, each seat incl. out-of-range ones, each tile of the set on each train)
is tried. Listed legal actions apply; every other one raises IllegalAction citing
a rule id. Specific reasons are pinned in the table below and in the rule files.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.rules import apply, legal_actions, new_match_round
from engine.state import MEXICAN, Action, IllegalAction, RoundState
from engine.tiles import FULL_SET

from .engine_helpers import RULE_ID, board, do, legal, play_out, refused, table


def all_actions(state: RoundState) -> list[Action]:
    n = state.players
    seats = list(range(-1, n + 1))
    trains: list[int | str] = [*range(-1, n + 1), MEXICAN]
    out = [Action(act, seat) for act in ("engine", "draw", "pass", "end") for seat in seats]
    out += [Action("play", seat, t, tr) for seat in seats for t in FULL_SET for tr in trains]  # type: ignore[arg-type]
    out.append(Action("next_round"))
    return out


SITUATIONS: dict[str, Callable[[], RoundState]] = {
    "engine phase": lambda: table("1-2 3-4", "12-12 12-5", "5-6", boneyard="7-7"),
    "first turn, no tile yet": lambda: do(
        table("12-12 12-5 5-3 3-3", "12-4 4-4 1-0", "6-7 8-9", boneyard="2-2 1-1"), "0 engine"
    ),
    "first turn, chain started": lambda: do(
        table("12-12 12-5 5-3 3-3", "12-4 4-4 1-0", "6-7", boneyard="2-2"),
        "0 engine",
        "0 play 12-5 0",
    ),
    "first turn, cannot start": lambda: do(
        table("12-12 12-5 5-3", "12-4 1-0", "6-7 8-9", boneyard="2-2"),
        "0 engine",
        "0 play 12-5 0",
        "0 end",
        "1 play 12-4 1",
        "1 end",
    ),
    "later turn, can play": lambda: board("5-3 4-9 12-11 0-1"),
    "later turn, must draw": lambda: board("0-1 2-3", boneyard="6-6 7-7"),
    "later turn, drew a playable tile": lambda: do(board("0-1 2-3", boneyard="5-9 7-7"), "0 draw"),
    "later turn, drew in vain": lambda: do(board("0-1 2-3", boneyard="6-6 7-7"), "0 draw"),
    "later turn, empty boneyard": lambda: board("0-1 2-3", h1="5-9 0-0", boneyard=""),
    "extra play owed": lambda: do(board("5-5 5-3 12-11 4-9 0-1"), "0 play 5-5 0"),
    "open double to satisfy": lambda: do(
        board("5-5 12-11 0-1", h1="5-9 4-6 4-7"), "0 play 5-5 0", "0 play 12-11 mexican"
    ),
    "round over": lambda: do(board("5-3", h1="0-0 9-9"), "0 play 5-3 0"),
    "match over": lambda: do(
        table("0-0 0-5 5-5", "0-3 3-3 6-6", boneyard="1-2", round=13),
        "0 engine",
        "0 play 0-5 0",
        "0 end",
        "1 play 0-3 1",
        "1 end",
        "0 play 5-5 0",
    ),
    "seeded 10 seats, first turns": lambda: do(
        new_match_round(10, 3), f"{new_match_round(10, 3).holder} engine"
    ),
}


@pytest.mark.parametrize("name", list(SITUATIONS))
def test_every_unlisted_action_is_refused_with_a_rule_id(name: str) -> None:
    state = SITUATIONS[name]()
    listed = set(legal_actions(state))
    assert bool(listed) != state.over  # legal is empty iff the round is over
    refusals = 0
    for a in all_actions(state):
        if a in listed or (
            a.act == "next_round" and state.phase == "round_over" and state.seed is not None
        ):
            apply(state, a)
            continue
        with pytest.raises(IllegalAction) as info:
            apply(state, a)
        err = info.value
        assert RULE_ID.search(err.message), (a, err.message)
        assert err.message == str(err)
        assert err.rule in {f"R{i}" for i in range(1, 31)}
        refusals += 1
    assert refusals > 1000


@pytest.mark.parametrize(
    ("situation", "act", "rule", "words"),
    [
        ("engine phase", "0 engine", "R7", "turn"),
        ("engine phase", "1 play 12-5 1", "R7", "engine"),
        ("engine phase", "1 draw", "R7", "engine"),
        ("first turn, no tile yet", "0 engine", "R7", "already"),
        ("first turn, no tile yet", "1 play 12-4 1", "R7", "turn"),
        ("first turn, no tile yet", "0 play 12-5 mexican", "R8", "Mexican"),
        ("first turn, no tile yet", "0 play 12-5 1", "R8", "own train"),
        ("first turn, no tile yet", "0 play 5-3 0", "R8", "match"),
        ("first turn, no tile yet", "0 pass", "R9", "at least one"),
        ("first turn, no tile yet", "0 end", "R9", "at least one"),
        ("first turn, no tile yet", "0 draw", "R10", "draws"),
        ("first turn, chain started", "0 pass", "R9", "End"),
        ("first turn, cannot start", "2 end", "R10", "pass"),
        ("first turn, cannot start", "2 draw", "R10", "draws"),
        ("later turn, can play", "0 draw", "R14", "must play"),
        ("later turn, can play", "0 pass", "R14", "must play"),
        ("later turn, can play", "0 end", "R9", "first turn"),
        ("later turn, can play", "0 play 4-9 1", "R13", "not open"),
        ("later turn, can play", "0 play 0-1 mexican", "R13", "does not match"),
        ("later turn, can play", "0 play 9-9 0", "R24", "does not hold"),
        ("later turn, can play", "0 play 5-3 7", "R13", "no train"),
        ("later turn, must draw", "0 pass", "R15", "Draw"),
        ("later turn, drew a playable tile", "0 play 0-1 0", "R15", "drawn tile"),
        ("later turn, drew in vain", "0 draw", "R15", "second draw"),
        ("later turn, empty boneyard", "0 draw", "R15", "empty"),
        ("extra play owed", "0 play 4-9 1", "R13", "not open"),
        ("open double to satisfy", "1 play 4-6 1", "R19", "5-5"),
        ("round over", "1 play 9-9 1", "R20", "over"),
        ("round over", "next_round", "R4", "seed"),
        ("match over", "next_round", "R22", "over"),
        ("match over", "1 pass", "R22", "over"),
    ],
)
def test_illegal_action_reason_cites_the_rule(
    situation: str, act: str, rule: str, words: str
) -> None:
    err = refused(SITUATIONS[situation](), act, rule)
    assert words in err.message


def test_illegal_action_is_a_value_error_with_rule_and_message() -> None:
    err = refused(board("5-3 0-1"), "0 draw")
    assert isinstance(err, ValueError)
    assert err.rule == "R14"
    assert err.message.endswith("(R14)")


def test_a_refused_action_changes_nothing() -> None:
    s = board("5-3 4-9 0-1")
    before = s
    refused(s, "0 play 4-9 1")
    assert s == before and legal(s) == legal(before)


def test_next_round_when_the_round_is_not_over_cites_r20() -> None:
    s = new_match_round(3, 5)
    refused(s, Action("next_round"), "R20")
    s = play_out(s)
    assert apply(s, Action("next_round")).round == 2
