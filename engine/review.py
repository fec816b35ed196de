"""Looking back at a decision: what the expert computer player would have done from the
same seat's view (R25), and what each choice tends to leave in hand at the round's end (R21).

Everything here is a function of one seat's `SeatView` (R24: its own hand and public
counts), the action that seat took and a few numbers; it never receives the state, so
it cannot read another seat's hand. Rules it leans on:

- R24, R25: the expert's choice is `bots.decide` on that very view, as a hint is (R23);
- R1, R3, R7: the tiles the seat cannot see are all the set but its own hand, the
  tiles on the trains and the placed engine double; the other hands and the boneyard
  hold exactly those, in the counts the view shows;
- R13–R20 (through `rules.apply`): a playout plays the rest of the round with the
  expert computer for every seat; every round ends (R20), so every playout does;
- R21: a choice's estimate is the mean of the points left in the seat's hand at the
  playouts' ends.

The samples are uniform over the deals those counts allow: they do not narrow them by what
the play showed (a seat that drew could not play on the trains open to it then), so an
estimate is a tendency, not a prediction.

Where the expert's choice differs from the one taken, both are played out from the same
samples of the hidden tiles (the same deal for both, so the difference shows the choice,
not the luck of the sample). Samples come from a `random.Random` seeded by a string of
the match's seed, the round and the step (`sample_seed`): the same decision always gets
the same estimates.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from .bots import decide
from .deal import Deal
from .rules import apply
from .state import MEXICAN, Action, RoundStart, RoundState, Train
from .tiles import FULL_SET, Tile, norm
from .views import SeatView, view

#: playouts per choice: enough to tell a big difference, few enough for the worker
PLAYOUTS = 12
#: a playout that has not ended after this many actions is a bug (R20: every round ends)
MAX_ACTIONS = 5000


class Review(NamedTuple):
    """One decision looked back at (immutable)."""

    seat: int
    taken: Action
    #: what the expert computer player would have done from the same view
    expert: Action
    #: the expert's reason code (bots.Choice.reason: "chain", "shed", "double"…)
    reason: str
    #: mean points left in the seat's hand at the round's end after each choice; None
    #: when the expert made the same choice (nothing to compare)
    taken_points: float | None = None
    expert_points: float | None = None
    #: how many playouts each estimate averages (0 when the choices agree)
    playouts: int = 0

    @property
    def differs(self) -> bool:
        return self.taken != self.expert


def sample_seed(seed: int | None, round_number: int, step: int) -> str:
    """The seed of a decision's samples: a string (`random` hashes it with SHA-512, the same
    on every Python) unlike the deal's (deal.seeded_deal), so a sample says nothing of the deal."""
    return f"mextrain-review/{seed}/{round_number}/{step}"


def unseen(v: SeatView) -> tuple[Tile, ...]:
    """The tiles `v`'s seat cannot see (R24), in the set's order: the other hands and the
    boneyard hold exactly these (R1, R3; the placed engine double is on the table, R7)."""
    if v.hand is None or v.seat is None:
        raise ValueError("a spectator's view has no hand to look back at")
    seen = {norm(*t) for t in v.hand}
    for train in v.trains:
        seen.update(norm(*t) for t in train.tiles)
    if v.phase != "engine":
        seen.add((v.engine, v.engine))
    hidden = tuple(t for t in FULL_SET if t not in seen)
    expected = v.boneyard + sum(n for s, n in enumerate(v.hand_sizes) if s != v.seat)
    if len(hidden) != expected:
        raise ValueError(
            f"the view hides {len(hidden)} tiles but its counts say {expected} (R1, R3)"
        )
    return hidden


def sample(v: SeatView, rng: random.Random, hidden: tuple[Tile, ...] | None = None) -> RoundState:
    """A round state that `v`'s seat could be in: its own hand and everything public as the
    view shows, the hidden tiles shuffled into the other hands and the boneyard by their
    counts. Built from the view's fields alone."""
    seat = v.seat
    if seat is None or v.hand is None or v.turn is None:
        raise ValueError("only a seat's view at a decision can be sampled")
    tiles = list(unseen(v) if hidden is None else hidden)
    rng.shuffle(tiles)
    hands: list[tuple[Tile, ...]] = []
    at = 0
    for s, size in enumerate(v.hand_sizes):
        if s == seat:
            hands.append(v.hand)  # the drawn tile stays last, as the view shows it (R15)
        else:
            hands.append(tuple(tiles[at : at + size]))
            at += size
    boneyard = tuple(tiles[at:])
    n = v.players
    trains = tuple(
        # the Mexican train carries no marker in a state: it is open by itself (R13)
        Train(t.tiles, False if t.key == MEXICAN else t.marker)
        for t in v.trains
    )
    doubles = tuple((t, n if key == MEXICAN else int(key)) for t, key in v.open_doubles)
    start = RoundStart(
        players=n,
        round=v.round,
        seed=None,
        deal=Deal(tuple(hands), boneyard),
        totals=v.totals,
        rounds=v.rounds,
    )
    # First turns go clockwise from the holder (R8, R12): that many seats are done.
    firsts = (v.turn - v.holder) % n if v.phase == "first" else n
    return RoundState(
        start=start,
        engine=v.engine,
        hands=tuple(hands),
        boneyard=boneyard,
        trains=trains,
        holder=v.holder,
        phase=v.phase,  # type: ignore[arg-type]  # a view's phase is a state's
        turn=v.turn,
        open_doubles=doubles,
        firsts_done=firsts,
        placed=v.placed,
        drawn=v.drawn_tile is not None,
        owes=v.owes,
        totals=v.totals,
    )


def playout(state: RoundState, seat: int) -> int:
    """Play the round to its end with the expert computer for every seat, each deciding from
    its own view (R25); the points left in `seat`'s hand (R21)."""
    for _ in range(MAX_ACTIONS):
        if state.round_points is not None:
            return state.round_points[seat]
        turn = state.turn
        assert turn is not None
        state = apply(state, decide(view(state, turn), "expert").action)
    raise RuntimeError("a playout did not end (R20)")


def review(
    v: SeatView,
    taken: Action,
    *,
    seed: int | None,
    step: int,
    playouts: int = PLAYOUTS,
) -> Review:
    """Look back at `taken`, chosen from the view `v`: the expert's choice from the same view
    and, where they differ, each choice's mean points left in hand over `playouts` samples of
    what the seat could not see (seeded by `sample_seed(seed, v.round, step)`)."""
    seat = v.seat
    if seat is None or not v.my_turn:
        raise ValueError("only a decision of the seat to act can be looked back at")
    if taken not in v.legal:
        raise ValueError(f"{taken} was not legal in this view")
    choice = decide(v, "expert")
    expert = choice.action
    if expert == taken or playouts <= 0:
        return Review(seat, taken, expert, choice.reason)
    hidden = unseen(v)
    rng = random.Random(sample_seed(seed, v.round, step))
    taken_sum = expert_sum = 0
    for _ in range(playouts):
        state = sample(v, rng, hidden)
        taken_sum += playout(apply(state, taken), seat)
        expert_sum += playout(apply(state, expert), seat)
    return Review(
        seat,
        taken,
        expert,
        choice.reason,
        taken_points=taken_sum / playouts,
        expert_points=expert_sum / playouts,
        playouts=playouts,
    )
