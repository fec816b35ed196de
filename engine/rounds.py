"""Starting rounds and moving from one to the next (R4, R6, R7, R20, R22, R28, R29, R31, R32).

A round starts from its deal: the engine search (R6), then the holder places the engine
(R7). A seeded match deals each round from its seed and the round's engine double (R4,
R31), with the totals so far (R29); a restart deals the same round again (R28); the next
round follows a round that is over (R20), never the match's last (R22); the players may
make the round in play the last (R32).
"""

from __future__ import annotations

from dataclasses import replace

from .deal import ROUNDS, Deal, check_rounds, deal_round, engine_value, search_engine, seeded_deal
from .state import IllegalAction, RoundStart, RoundState, Train


def start_round(start: RoundStart) -> RoundState:
    """Deal (given), search for the engine (R6) and wait for the holder to place it (R7)."""
    n = start.players
    if len(start.deal.hands) != n or len(start.totals) != n:
        raise ValueError("the deal and the totals need one entry per player")
    found = search_engine(start.deal, start.round, start.rounds)
    e = engine_value(start.round, start.rounds)
    if found.holder is None:
        raise ValueError(
            f"the engine double {e}-{e} is in no hand and not in the boneyard (R5, R6)"
        )
    return RoundState(
        start=start,
        engine=e,
        hands=found.hands,
        boneyard=found.boneyard,
        trains=tuple(Train() for _ in range(n + 1)),
        holder=found.holder,
        phase="engine",
        turn=found.holder,
        open_doubles=(),
        firsts_done=0,
        placed=0,
        drawn=False,
        owes=False,
        totals=start.totals,
        search=found.drawn,
    )


def new_match_round(
    players: int,
    seed: int,
    round_no: int = 1,
    totals: tuple[int, ...] | None = None,
    rounds: int = ROUNDS,
) -> RoundState:
    """Round `round_no` of a seeded match of `rounds` rounds (R4, R31), with totals so far
    (zeros by default, R29). The deal depends on the seed and the round's engine double
    only (R31): round 1 of a 7-round match (6-6) deals what round 7 of a standard one does."""
    deal = seeded_deal(seed, deal_round(round_no, rounds), players)
    return start_round(
        RoundStart(players, round_no, seed, deal, totals or (0,) * players, check_rounds(rounds))
    )


def fixed_round(
    players: int,
    deal: Deal,
    round_no: int = 1,
    totals: tuple[int, ...] | None = None,
    seed: int | None = None,
    rounds: int = ROUNDS,
) -> RoundState:
    """A round from an explicit deal (tests and replays)."""
    return start_round(
        RoundStart(players, round_no, seed, deal, totals or (0,) * players, check_rounds(rounds))
    )


def restart_round(state: RoundState) -> RoundState:
    """R28: the same deal and engine search, the totals from before this round."""
    return start_round(state.start)


def next_round(state: RoundState) -> RoundState:
    """Start round r + 1 of a seeded match once round r is over."""
    if state.phase == "match_over":
        raise IllegalAction("R22", "The match is over after its last round", "match_over")
    if state.phase != "round_over":
        raise IllegalAction("R20", "The round is not over yet", "round_not_over")
    if state.seed is None:
        raise IllegalAction("R4", "The next round needs a match seed to deal from", "no_seed")
    return new_match_round(
        state.players, state.seed, state.round + 1, state.totals, state.start.rounds
    )


def last_round(state: RoundState) -> RoundState:
    """R32: the players agreed that the round in play is the match's last: it ends the match
    when it ends (scored as R21-R22). Kept in the round's start, so a restart (R28) keeps it."""
    if state.phase == "match_over":
        raise IllegalAction("R22", "The match is over", "match_over")
    if state.phase == "round_over":
        raise IllegalAction(
            "R32", "The round is over: only a round in play can be made the last", "round_over"
        )
    if state.start.final or state.round == state.start.rounds:
        raise IllegalAction("R32", "This round is the match's last already", "last_already")
    return state._replace(start=replace(state.start, final=True))
