"""Looking back at a decision (engine.review): the expert's choice and the playouts'
estimates come from the seat's view alone (R24, R25), the same every time, and within
what a hand can hold (R21).
"""

from __future__ import annotations

import random

import pytest

from engine.bots import decide, luck
from engine.review import PLAYOUTS, Review, review, sample, unseen
from engine.rules import apply, new_match_round
from engine.state import Action, RoundState
from engine.tiles import FULL_SET, points
from engine.views import SeatView, view

from .engine_helpers import assert_accounted


def decisions(players: int, seed: int, seat: int = 0) -> list[tuple[int, RoundState, Action]]:
    """Seat `seat` plays as a careless beginner, the others as experts: (step, state before,
    the beginner's action) for each of the seat's decisions with a choice."""
    state = new_match_round(players, seed, 1)
    out = []
    step = 0
    while state.round_points is None:
        step += 1
        turn = state.turn
        assert turn is not None
        v = view(state, turn)
        if turn == seat:
            taken = decide(v, "beginner", luck(seed, 1, seat, step)).action
            if len(v.legal) > 1:
                out.append((step, state, taken))
        else:
            taken = decide(v, "expert").action
        state = apply(state, taken)
    return out


def first_difference(players: int, seed: int) -> tuple[int, RoundState, Action]:
    for step, state, taken in decisions(players, seed):
        v = view(state, 0)
        if decide(v, "expert").action != taken:
            return step, state, taken
    raise AssertionError("the beginner always chose as the expert did")


def reshuffled(state: RoundState, seat: int, rng: random.Random) -> RoundState:
    """The same round with the tiles `seat` cannot see dealt differently among the other
    hands and the boneyard (same counts): nothing of the seat's view changes."""
    hidden = [t for s, h in enumerate(state.hands) if s != seat for t in h] + list(state.boneyard)
    rng.shuffle(hidden)
    hands = []
    at = 0
    for s, h in enumerate(state.hands):
        if s == seat:
            hands.append(h)
        else:
            hands.append(tuple(hidden[at : at + len(h)]))
            at += len(h)
    return state._replace(hands=tuple(hands), boneyard=tuple(hidden[at:]))


@pytest.mark.parametrize("players,seed", [(2, 3), (4, 1), (6, 2)])
def test_the_review_depends_only_on_the_seats_view(players: int, seed: int) -> None:
    step, state, taken = first_difference(players, seed)
    other = reshuffled(state, 0, random.Random(seed))
    assert other.hands[1:] != state.hands[1:] or other.boneyard != state.boneyard
    assert view(other, 0) == view(state, 0)
    one = review(view(state, 0), taken, seed=seed, step=step, playouts=4)
    two = review(view(other, 0), taken, seed=seed, step=step, playouts=4)
    assert one == two
    assert one.differs and one.playouts == 4
    # the real hidden tiles do change what a player who sees them would get: they matter,
    # and the review does not read them
    assert unseen(view(state, 0)) == unseen(view(other, 0))


def test_every_decision_of_a_round_reviews_the_same_from_any_hidden_deal() -> None:
    rng = random.Random(7)
    for step, state, taken in decisions(4, 5)[:6]:
        other = reshuffled(state, 0, rng)
        assert review(view(state, 0), taken, seed=5, step=step, playouts=2) == review(
            view(other, 0), taken, seed=5, step=step, playouts=2
        )


def test_a_sample_is_a_round_the_seat_could_be_in() -> None:
    for step, state, _taken in decisions(4, 2)[:5]:
        v = view(state, 0)
        for i in range(3):
            s = sample(v, random.Random(f"{step}/{i}"))
            assert_accounted(s)
            assert view(s, 0) == v
            assert s.hands[0] == state.hands[0]
            assert [len(h) for h in s.hands] == [len(h) for h in state.hands]
            assert len(s.boneyard) == len(state.boneyard)


def test_the_review_is_deterministic_and_bounded() -> None:
    step, state, taken = first_difference(4, 1)
    v = view(state, 0)
    one = review(v, taken, seed=1, step=step)
    assert one == review(v, taken, seed=1, step=step)
    assert one.playouts == PLAYOUTS
    assert one.taken_points is not None and one.expert_points is not None
    # at most every tile the seat holds or could draw (R21)
    most = sum(map(points, v.hand or ())) + sum(map(points, unseen(v)))
    for estimate in (one.taken_points, one.expert_points):
        assert 0 <= estimate <= most


def test_the_same_choice_gets_no_playouts() -> None:
    state = new_match_round(3, 4, 1)
    while state.phase != "first":
        state = apply(state, decide(view(state, state.turn or 0), "expert").action)
    seat = state.turn
    assert seat is not None
    v = view(state, seat)
    expert = decide(v, "expert").action
    got = review(v, expert, seed=4, step=1)
    assert got == Review(seat, expert, expert, decide(v, "expert").reason)
    assert not got.differs and got.taken_points is None


def test_only_a_legal_decision_of_the_seat_to_act_is_reviewed() -> None:
    state = new_match_round(2, 9, 1)
    v = view(state, state.turn or 0)
    with pytest.raises(ValueError):
        review(v, Action("pass", v.seat), seed=9, step=1)
    other = view(state, 1 - (state.turn or 0))
    with pytest.raises(ValueError):
        review(other, Action("engine", other.seat), seed=9, step=1)
    with pytest.raises(ValueError):
        unseen(view(state, None))


def test_hidden_tiles_are_the_set_less_the_hand_the_trains_and_the_engine() -> None:
    _step, state, _taken = first_difference(4, 3)
    v: SeatView = view(state, 0)
    hidden = set(unseen(v))
    on_trains = {tuple(sorted(t)) for train in state.trains for t in train.tiles}
    assert hidden == set(FULL_SET) - set(state.hands[0]) - on_trains - {(v.engine, v.engine)}
    assert hidden == {t for h in state.hands[1:] for t in h} | set(state.boneyard)
