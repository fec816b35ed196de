"""Engine states for the board tests and screenshots, reached by playing real moves.

Each builder returns a `RoundState`; positions come from a seeded deal (R4) and
the expert computer player's choices, so they are real positions of the game,
not hand-made ones.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.bots import choose
from engine.rules import apply, new_match_round, next_round
from engine.state import Action, RoundState
from engine.views import view
from games.board.presenter import SeatInfo

NAMES = ["Ana", "Ben", "Chloé", "Dmitri", "Eva", "Farid", "Gus", "Hana", "Ivo", "Jun"]


def seats(n: int, kinds: dict[int, str] | None = None) -> list[SeatInfo]:
    kinds = kinds or {}
    return [
        SeatInfo(
            index=i,
            name=NAMES[i] if kinds.get(i) != "computer" else f"Computer {i + 1}",
            kind=kinds.get(i, "human"),
        )
        for i in range(n)
    ]


def step(state: RoundState) -> RoundState:
    """One action of the seat to act, as the expert computer would play it."""
    assert state.turn is not None
    return apply(state, choose(view(state, state.turn), "expert"))


def play_until(
    state: RoundState, stop: Callable[[RoundState], bool], limit: int = 2000
) -> RoundState:
    for _ in range(limit):
        if stop(state) or state.over:
            return state
        state = step(state)
    raise AssertionError("the position was never reached")


def start(players: int = 4, seed: int = 7) -> RoundState:
    """Phase "engine": the holder has to confirm the engine (R7)."""
    return new_match_round(players, seed)


def first_turn_chain(players: int = 4, seed: int = 7) -> RoundState:
    """The holder's first turn with at least one tile placed: play or end (R9)."""
    s = apply(start(players, seed), Action("engine", start(players, seed).holder))
    while Action("end", s.turn) not in apply_legal(s):
        s = step(s)
    return s


def apply_legal(state: RoundState) -> list[Action]:
    from engine.rules import legal_actions

    return legal_actions(state)


def mid_game(players: int = 4, seed: int = 7, plays_after_first: int = 12) -> RoundState:
    """Later turns, some tiles on the trains."""
    s = play_until(start(players, seed), lambda st: st.phase == "play")
    count = 0

    def enough(st: RoundState) -> bool:
        nonlocal count
        count += 1
        return count > plays_after_first

    return play_until(s, enough)


def with_draw(players: int = 4, seed: int = 7) -> RoundState:
    """A later turn where the seat to act can only draw (R15)."""
    s = play_until(start(players, seed), lambda st: st.phase == "play")
    return play_until(s, lambda st: apply_legal(st) == [Action("draw", st.turn)])


def with_open_double(players: int = 4, seed: int = 7) -> RoundState:
    """Later turns with an open double the seat to act must satisfy (R19): the first
    such position from `seed` on."""
    for s_ in range(seed, seed + 50):
        s = play_until(start(players, s_), lambda st: st.phase == "play")
        s = play_until(s, lambda st: bool(st.open_doubles) and not st.owes and st.phase == "play")
        if not s.over:
            return s
    raise AssertionError("no open double in 50 deals")


def round_over(players: int = 4, seed: int = 7) -> RoundState:
    return play_until(start(players, seed), lambda st: st.over)


def match_over(players: int = 3, seed: int = 11) -> RoundState:
    s = start(players, seed)
    while True:
        s = play_until(s, lambda st: st.over)
        if s.phase == "match_over":
            return s
        s = next_round(s)


def history_of(
    players: int = 3, seed: int = 11, rounds: int = 13
) -> tuple[list[tuple[int, ...]], RoundState]:
    """Points of each finished round and the last state, playing `rounds` rounds."""
    s = start(players, seed)
    points = []
    while True:
        s = play_until(s, lambda st: st.over)
        points.append(s.round_points)
        if s.phase == "match_over" or len(points) == rounds:
            return points, s
        s = next_round(s)


def with_hand_of(size: int, players: int = 2, seed: int = 7) -> RoundState:
    """A later turn where the seat to act holds `size` tiles: tiles moved from the boneyard
    into its hand (as long draws would leave it). For the looks of a big hand."""
    s = play_until(start(players, seed), lambda st: st.phase == "play")
    assert s.turn is not None
    hand = s.hands[s.turn]
    extra = size - len(hand)
    assert 0 <= extra <= len(s.boneyard), (size, len(hand), len(s.boneyard))
    hands = list(s.hands)
    hands[s.turn] = hand + s.boneyard[:extra]
    return s.evolve(hands=tuple(hands), boneyard=s.boneyard[extra:])


def again_offer(players: int = 3, kinds: dict[int, str] | None = None) -> tuple[object, ...]:
    """R29: the offers of a finished match's board as its creator (seat 0's person) sees them,
    in the active language: seat 1's person plays again, seat 2's left (a computer's seat
    stays), the creator still to choose and to answer."""
    from games.models import Seat
    from games.table.commands import play_again

    kinds = kinds or {}
    rows = [
        Seat(index=i, kind="computer", level="casual")
        if kinds.get(i) == "computer"
        else Seat(index=i, kind="human", user_id=i + 1)
        for i in range(players)
    ]
    people = [s.user_id for s in rows if s.user_id is not None]
    answers = play_again.Answers(yes=people[1:2], no=people[2:3])
    return (
        play_again.board_offer(
            seats=rows, a=answers, uid=1, who=people, answers=True, chooser=True
        ),
    )
