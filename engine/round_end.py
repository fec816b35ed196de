"""The end of a round (R19, R20, R21, R22, R31, R32): whether it is blocked, and the score.

`rules.apply` ends a round when a hand is empty (R12, R18) or, after a turn, when
`is_blocked` finds that no tile could ever be played again (R20; while a double is open
only the oldest open double can be played on, R19). `finish` then adds the points left
in each hand to its seat's total (R21), and ends the match after its last round (R22,
R31) or after the round the players agreed is the last (R32).
"""

from __future__ import annotations

from itertools import chain

from .state import RoundState
from .tiles import points


def is_blocked(state: RoundState) -> bool:
    """R20: boneyard empty and no tile in any hand could ever be played."""
    if state.boneyard:
        return False
    held = chain.from_iterable(chain.from_iterable(state.hands))  # every number on a held tile
    doubles = state.open_doubles
    if doubles:
        return doubles[0][0][0] not in held  # R19: only the oldest open double can be played on
    engine = state.engine
    return {tiles[-1][1] if tiles else engine for tiles, _ in state.trains}.isdisjoint(held)


def finish(state: RoundState, how: str) -> RoundState:
    """R21: each seat adds the points left in its hand; R22/R31: after the match's last round
    (13 in the standard match) the match is over."""
    penalty = tuple(sum(points(t) for t in hand) for hand in state.hands)
    totals = tuple(a + b for a, b in zip(state.totals, penalty, strict=True))
    # R22 after the last round (R31: the match's length); R32 after a round the players agreed is the last
    phase = "match_over" if state.round == state.start.rounds or state.start.final else "round_over"
    return state.evolve(
        phase=phase,
        turn=None,
        round_points=penalty,
        totals=totals,
        ended_by=how,
        placed=0,
        drawn=False,
        owes=False,
    )
