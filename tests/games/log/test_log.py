"""Folding the append-only log (games.log): undo, redo and restart as entries (R27, R28)."""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest

from games.log import BadLog, fold, undo_group


class E(NamedTuple):
    kind: str
    action: Any = None
    seat: int | None = None
    by_computer: bool = False


def act(name: str, seat: int = 0, computer: bool = False) -> E:
    return E("action", {"act": name}, seat, computer)


def names(entries: tuple[E, ...]) -> list[str]:
    return [e.action["act"] for e in entries]


def test_actions_append_in_order() -> None:
    folded = fold([act("a"), act("b"), act("c")])
    assert names(folded.effective) == ["a", "b", "c"]
    assert folded.redo == ()


def test_r27_undo_pops_a_group_and_redo_restores_it() -> None:
    log = [act("a"), act("b"), act("c"), E("undo", {"count": 2})]
    folded = fold(log)
    assert names(folded.effective) == ["a"]
    assert [names(g) for g in folded.redo] == [["b", "c"]]
    folded = fold(log + [E("redo", {"count": 2})])
    assert names(folded.effective) == ["a", "b", "c"]
    assert folded.redo == ()


def test_r27_undo_twice_then_redo_restores_the_last_undone_first() -> None:
    log = [
        act("a"),
        act("b"),
        act("c"),
        E("undo", {"count": 1}),
        E("undo", {"count": 1}),
        E("redo", {"count": 1}),
    ]
    folded = fold(log)
    assert names(folded.effective) == ["a", "b"]
    assert [names(g) for g in folded.redo] == [["c"]]


def test_r27_a_new_action_clears_the_redo_stack() -> None:
    folded = fold([act("a"), act("b"), E("undo", {"count": 1}), act("x")])
    assert names(folded.effective) == ["a", "x"]
    assert folded.redo == ()


def test_r28_restart_empties_everything() -> None:
    folded = fold([act("a"), act("b"), E("undo", {"count": 1}), E("restart"), act("c")])
    assert names(folded.effective) == ["c"]
    assert folded.redo == ()


@pytest.mark.parametrize(
    "log",
    [
        [act("a"), E("undo", {"count": 2})],
        [act("a"), E("redo", {"count": 1})],
        [act("a"), E("undo", {})],
        [act("a"), E("undo", {"count": 0})],
        [act("a"), E("undo", {"count": True})],
        [E("shuffle")],
    ],
)
def test_a_log_that_cannot_be_folded_says_so(log: list[E]) -> None:
    with pytest.raises(BadLog):
        fold(log)


def test_r27_undo_group_is_my_last_action_and_the_computers_after_it() -> None:
    effective = [act("a", 0), act("b", 1, True), act("c", 0), act("d", 1, True), act("e", 1, True)]
    assert undo_group(effective, [0]) == 3


def test_r27_undo_group_includes_my_pass_and_play_seats() -> None:
    effective = [act("a", 0), act("b", 2), act("c", 1, True)]
    assert undo_group(effective, [0, 2]) == 2


def test_r27_no_undo_group_when_another_person_played_since() -> None:
    effective = [act("a", 0), act("b", 1), act("c", 2, True)]
    assert undo_group(effective, [0]) is None
    assert undo_group(effective, [1]) == 2


def test_r27_no_undo_group_without_an_action_of_mine() -> None:
    assert undo_group([act("a", 1, True)], [0]) is None
    assert undo_group([], [0]) is None
