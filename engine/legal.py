"""The legal-move generator (R7–R10, R13–R15, R17, R19): what the seat to act may do now.

`legal_actions` is the one list of legal actions: validation, previews, hints and computer
players all use it, and `rules.apply` accepts exactly what it lists.

- R7: before anything else, the holder places the engine.
- R8–R10: a first turn chains tiles on the own train only; once a tile is down the turn
  is ended explicitly (R9); a seat that cannot start its train passes (R10).
- R13, R14: in a later turn a seat that can play must, on its own train, a train with a
  marker or the Mexican train; R15: else it draws once, then passes.
- R17, R19: after a double the same seat plays again, anywhere open to it; else, while a
  double is open, only the oldest open double takes a tile.

`play_target` checks a single play against the same rules without listing every play
(the hot path of `apply`).
"""

from __future__ import annotations

from operator import itemgetter

from .deal import MAX_PLAYERS
from .index import BIT, MEXICAN_BIT, MEXICAN_SLOT, NUMBERS, _slot, build, slot
from .index import hand as hand_index
from .state import MEXICAN, Act, Action, RoundState, TrainKey
from .tiles import FULL_SET, HIGHEST, norm

_by_tile = itemgetter(2)


#: every action but a play, made once per act and seat (actions are immutable, and a
#: legal list is made for every action of every match)
_SIMPLE_ACTS: tuple[Act, ...] = ("engine", "draw", "pass", "end")
_SIMPLE: dict[str, tuple[Action, ...]] = {
    act: tuple(Action(act, seat) for seat in range(MAX_PLAYERS)) for act in _SIMPLE_ACTS
}
_ENGINE, _DRAW, _PASS, _END = _SIMPLE["engine"], _SIMPLE["draw"], _SIMPLE["pass"], _SIMPLE["end"]

#: every play, made once: ``_PLAYS[seat][slot][e][w]`` plays the tile e-w on the train
#: of that slot (`index.slot`); a seat's plays on a train are made the first time they
#: are asked for (at most 10 × 11 × 91 actions)
_PLAYS: list[list[tuple[tuple[Action, ...], ...] | None]] = [
    [None] * (MEXICAN_SLOT + 1) for _ in range(MAX_PLAYERS)
]


def _plays_on(seat: int, at: int) -> tuple[tuple[Action, ...], ...]:
    """Make the seat's plays on the train of slot `at` (`_PLAYS`)."""
    key: TrainKey = MEXICAN if at == MEXICAN_SLOT else at
    plays = {t: Action("play", seat, t, key) for t in FULL_SET}
    made = _PLAYS[seat][at] = tuple(
        tuple(plays[norm(e, w)] for w in range(HIGHEST + 1)) for e in range(HIGHEST + 1)
    )
    return made


def _plays(state: RoundState, seat: int) -> list[Action]:
    """Every tile placement the seat to act may make now, by tile, then train order."""
    kept = _slot.pop(0, None)  # `index.take`, inlined (hot path)
    index = kept[1] if kept is not None and kept[0] is state else build(state)
    held = index.hands[seat]
    if held is None:
        held = index.hands[seat] = hand_index(state.hands[seat])
    _slot[0] = (state, index)  # `index.keep`
    ends = index.ends
    mine = _PLAYS[seat]
    phase = state.phase
    if phase == "first" or (state.open_doubles and not state.owes):
        # R8: a chain on the own train only. R19: only the oldest open double may be
        # played on (R17 governs within the turn that played it).
        at = seat if phase == "first" else slot(state.open_doubles[0][1], len(index.hands))
        end = ends[at]
        acts = (mine[at] or _plays_on(seat, at))[end]
        out: list[Action] = []
        for w in NUMBERS[held[end]]:
            out.append(acts[w])
        return out
    # R13: the own train, trains with a marker, and the Mexican train, in train order.
    out = []
    trains_fit = 0
    for at in NUMBERS[index.marked | BIT[seat] | MEXICAN_BIT]:
        end = ends[at]
        fit = held[end]
        if fit:
            acts = (mine[at] or _plays_on(seat, at))[end]
            for w in NUMBERS[fit]:
                out.append(acts[w])
            trains_fit += 1
    if trains_fit > 1:
        out.sort(key=_by_tile)  # stable: a tile's trains stay in train order
    return out


#: the last state whose legal actions were listed, and that list: a computer seat's
#: view lists them, and `apply` checks the chosen action against the very same state
#: right after. A state is immutable, so the same object always has the same answer.
#: Replaced in one assignment: safe to share between threads. Rebound on every listing,
#: so it is read as ``legal.last_legal``, never imported by name.
last_legal: tuple[RoundState | None, tuple[Action, ...]] = (None, ())


def legal_actions(state: RoundState) -> list[Action]:
    """Every action the seat to act may take now; empty when the round is over."""
    global last_legal
    last_state, last = last_legal
    if last_state is state:
        return list(last)
    legal = _list_legal(state)  # `legal_tuple` inlined (a call less on the hot path)
    last_legal = (state, tuple(legal))
    return legal


def legal_tuple(state: RoundState) -> tuple[Action, ...]:
    """`legal_actions` as a tuple, remembered for the last state asked about."""
    global last_legal
    last_state, last = last_legal
    if last_state is state:
        return last
    legal = tuple(_list_legal(state))
    last_legal = (state, legal)
    return legal


def _list_legal(state: RoundState) -> list[Action]:
    seat = state.turn
    phase = state.phase
    if seat is None or phase == "round_over" or phase == "match_over":
        return []
    if phase == "engine":
        return [_ENGINE[seat]]
    plays = _plays(state, seat)
    if phase == "first":
        if state.placed == 0:
            return plays or [_PASS[seat]]  # R9 / R10
        plays.append(_END[seat])  # R9: end explicitly
        return plays
    if plays:
        return plays  # R14
    if not state.drawn and state.boneyard:
        return [_DRAW[seat]]  # R15
    return [_PASS[seat]]  # R15, R17, R19


def play_target(state: RoundState, action: Action) -> int:
    """The index of the train a play goes on when `legal_actions(state)` lists the
    play, else -1: the check without listing every play (hot path)."""
    seat, tile, key = state.turn, action.tile, action.train
    if seat is None or action.seat != seat or tile is None:
        return -1
    phase = state.phase
    if phase != "first" and phase != "play":
        return -1
    trains = state.trains
    n = len(trains) - 1
    if type(key) is int and 0 <= key < n:  # not a bool: True is no seat
        index = key
    elif key == MEXICAN:
        index = n
    else:
        return -1
    if tile not in state.hands[seat]:
        return -1
    if phase == "first":
        if index != seat:
            return -1
    elif state.open_doubles and not state.owes:
        if index != state.open_doubles[0][1]:
            return -1
    elif index != seat and index != n and not trains[index].marker:
        return -1
    tiles = trains[index].tiles
    end = tiles[-1][1] if tiles else state.engine
    return index if tile[0] == end or tile[1] == end else -1
