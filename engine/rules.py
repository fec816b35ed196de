"""What an action does (R7–R19): `apply` makes the state that follows it.

`apply` accepts exactly the actions `legal.legal_actions` lists and raises
`IllegalAction`, naming the rule (`refusals.explain`), for anything else. It places the
engine (R7); plays a tile (R8, R9, R11, R13, R14), which lifts the marker of the player's
own train (R16), after a double owes another play unless it was the last tile (R17, R18),
and closes the open double it follows (R19); draws (R15); passes, marking the own train
(R10, R15, R17, R19); ends a first turn (R9); and hands the turn on, the holder starting
the later turns (R12). An emptied hand or a blocked round ends the round
(`round_end`: R20–R22); the `next_round` and `last_round` actions go to `rounds`.
"""

from __future__ import annotations

from . import legal
from .index import BIT, CLEAR, MEXICAN_SLOT, _slot, keep, take
from .legal import legal_actions, legal_tuple, play_target
from .refusals import explain
from .round_end import finish, is_blocked
from .rounds import fixed_round, last_round, new_match_round, next_round, restart_round, start_round
from .state import MEXICAN, Action, RoundState, Train
from .tiles import Tile

#: `apply`, and the names importers take from here that `rounds`, `legal`, `refusals` and
#: `round_end` hold: one import for the whole turn machinery
__all__ = [
    "apply",
    "explain",
    "fixed_round",
    "is_blocked",
    "last_round",
    "legal_actions",
    "legal_tuple",
    "new_match_round",
    "next_round",
    "restart_round",
    "start_round",
]

#: builds a NamedTuple from a tuple of all its fields, skipping keyword handling: a
#: match makes a thousand states and actions, and this is most of their cost
_new = tuple.__new__


def apply(state: RoundState, action: Action) -> RoundState:
    """Return the state after `action`; raise `IllegalAction` (naming the rule) if it is not allowed."""
    act = action.act
    if act == "play":
        key = action.train
        # The list `legal` made last (rebound on every listing, so read through the module).
        last_state, last = legal.last_legal
        if last_state is state and (type(key) is int or key == MEXICAN) and action in last:
            # Listed for this very state a moment ago (a computer's view, a playout): legal.
            # (A train given as True or 1.0 equals 1 but names no train: checked below.)
            target = len(state.trains) - 1 if key == MEXICAN else key
        else:
            # Checked directly rather than looked up in the list of every legal play (hot path).
            target = play_target(state, action)
            if target < 0:
                raise explain(state, action)
        seat, tile = state.turn, action.tile
        assert seat is not None and tile is not None
        after = _play(state, seat, tile, target)
        kept = _slot.pop(0, None)  # `index.take`, inlined (hot path)
        if kept is not None and kept[0] is state:
            # The index follows: the tile left the hand and is the train's new end.
            index = kept[1]
            held = index.hands[seat]
            a, b = tile
            if held is not None:
                held[a] &= CLEAR[b]
                held[b] &= CLEAR[a]
            at = MEXICAN_SLOT if key == MEXICAN else target
            ends = index.ends
            ends[at] = b if a == ends[at] else a  # the far number is the train's new end
            if target == seat:
                index.marked &= CLEAR[at]  # R16: the owner's play lifts the marker
            _slot[0] = (after, index)  # `index.keep`
        return after
    if act == "next_round":
        return next_round(state)
    if act == "last_round":
        return last_round(state)
    if action not in legal_tuple(state):
        raise explain(state, action)
    seat = state.turn
    assert seat is not None
    if act == "engine":
        # R7: the double leaves the holder's hand and becomes the hub of every train.
        double = (state.engine, state.engine)
        hand = tuple(t for t in state.hands[seat] if t != double)
        after = state.evolve(
            hands=_with(state.hands, seat, hand), phase="first", turn=state.holder, placed=0
        )
    elif act == "draw":
        # R15: the top tile joins the hand, last (views show it as the drawn tile).
        hands_after = _with(state.hands, seat, state.hands[seat] + state.boneyard[:1])
        after = _moved(
            state,
            hands_after,
            state.boneyard[1:],
            state.trains,
            state.open_doubles,
            seat,
            state.placed,
            True,
            state.owes,
        )
    elif act == "pass":
        # R10, R15, R17, R19: passing puts a marker on the own train.
        after = _end_turn(
            state, _with(state.trains, seat, _new(Train, (state.trains[seat].tiles, True)))
        )
    else:
        # "end": R9, the first turn is ended explicitly
        after = _end_turn(state, state.trains)
    carried = take(state)
    if carried is not None:  # the index follows a drawn tile, a marker, the placed engine
        index = carried
        held = index.hands[seat]
        if act == "draw":
            if held is not None:
                a, b = state.boneyard[0]
                held[a] |= BIT[b]
                held[b] |= BIT[a]
        elif act == "pass":
            index.marked |= BIT[seat]
        elif act == "engine":
            index.hands[seat] = None
        keep(after, index)
    return after


def _with(items: tuple, index: int, value: object) -> tuple:
    """`items` with `value` at `index` (through a list: cheaper than slicing twice)."""
    changed = list(items)
    changed[index] = value
    return tuple(changed)


def _moved(
    state: RoundState,
    hands: tuple[tuple[Tile, ...], ...],
    boneyard: tuple[Tile, ...],
    trains: tuple[Train, ...],
    open_doubles: tuple[tuple[Tile, int], ...],
    turn: int,
    placed: int,
    drawn: bool,
    owes: bool,
) -> RoundState:
    """`state` with the fields a move changes replaced: `evolve` without its keyword handling."""
    (
        start,
        engine,
        _hands,
        _boneyard,
        _trains,
        holder,
        phase,
        _turn,
        _doubles,
        firsts_done,
        _placed,
        _drawn,
        _owes,
        totals,
        round_points,
        ended_by,
        search,
    ) = state
    return _new(
        RoundState,
        (
            start,
            engine,
            hands,
            boneyard,
            trains,
            holder,
            phase,
            turn,
            open_doubles,
            firsts_done,
            placed,
            drawn,
            owes,
            totals,
            round_points,
            ended_by,
            search,
        ),
    )


def _play(state: RoundState, seat: int, tile: Tile, index: int) -> RoundState:
    # Every field read once and the next state built once: this is the hot path.
    (
        start,
        engine,
        hands,
        boneyard,
        trains,
        holder,
        phase,
        turn,
        doubles,
        firsts_done,
        placed,
        _drawn,
        owes,
        totals,
        round_points,
        ended_by,
        search,
    ) = state
    tiles, marker = trains[index]
    end = tiles[-1][1] if tiles else engine
    low, high = tile
    oriented = tile if low == end else (high, low)  # its far number is the train's new end
    # R16: only the owner playing on their own train removes its marker.
    changed = list(trains)  # `_with`, inlined
    changed[index] = _new(Train, (tiles + (oriented,), False if index == seat else marker))
    trains = tuple(changed)
    hand = hands[seat]
    at = hand.index(tile)
    hand = hand[:at] + hand[at + 1 :]
    held = list(hands)
    held[seat] = hand
    hands = tuple(held)
    # A double is open while nothing follows it (R19): playing after it closes it.
    if doubles:
        for d in doubles:
            if d[1] == index:
                doubles = tuple([d for d in doubles if d[1] != index])
                break
    double = low == high
    if double:
        doubles += ((tile, index),)
    if phase == "first":
        # R9: the chain goes on; an empty hand ends the first turn. R11: doubles in a chain wait.
        state = _new(
            RoundState,
            (
                start,
                engine,
                hands,
                boneyard,
                trains,
                holder,
                phase,
                turn,
                doubles,
                firsts_done,
                placed + 1,
                False,
                owes,
                totals,
                round_points,
                ended_by,
                search,
            ),
        )
        return state if hand else _end_turn(state, trains)
    if hand and not double:
        # R14: one play is the turn; the next seat clockwise acts unless the round is blocked (R20).
        state = _new(
            RoundState,
            (
                start,
                engine,
                hands,
                boneyard,
                trains,
                holder,
                phase,
                (seat + 1) % len(hands),
                doubles,
                firsts_done,
                0,
                False,
                False,
                totals,
                round_points,
                ended_by,
                search,
            ),
        )
        return finish(state, "blocked") if not boneyard and is_blocked(state) else state
    # R17: after a double, the same seat plays again. R18, R20: out at once, even on a double.
    state = _new(
        RoundState,
        (
            start,
            engine,
            hands,
            boneyard,
            trains,
            holder,
            phase,
            turn,
            doubles,
            firsts_done,
            placed + 1,
            False,
            True,
            totals,
            round_points,
            ended_by,
            search,
        ),
    )
    return state if hand else finish(state, "out")


def _next_turn(
    state: RoundState,
    hands: tuple[tuple[Tile, ...], ...],
    trains: tuple[Train, ...],
    open_doubles: tuple[tuple[Tile, int], ...],
) -> RoundState:
    """End a later turn (with these hands, trains and open doubles): the next seat
    clockwise acts, unless the round is now truly blocked (R20)."""
    assert state.turn is not None
    state = _moved(
        state,
        hands,
        state.boneyard,
        trains,
        open_doubles,
        (state.turn + 1) % len(hands),
        0,
        False,
        False,
    )
    return finish(state, "blocked") if is_blocked(state) else state


def _end_turn(state: RoundState, trains: tuple[Train, ...]) -> RoundState:
    """End the seat's turn, with these trains (a pass puts a marker on one)."""
    if state.phase != "first":
        return _next_turn(state, state.hands, trains, state.open_doubles)
    (
        start,
        engine,
        hands,
        boneyard,
        _trains,
        holder,
        phase,
        turn,
        doubles,
        firsts_done,
        _placed,
        _drawn,
        _owes,
        totals,
        round_points,
        ended_by,
        search,
    ) = state
    assert turn is not None
    n = len(hands)
    done = firsts_done + 1
    if done < n:
        return _new(
            RoundState,
            (
                start,
                engine,
                hands,
                boneyard,
                trains,
                holder,
                phase,
                (turn + 1) % n,
                doubles,
                done,
                0,
                False,
                False,
                totals,
                round_points,
                ended_by,
                search,
            ),
        )
    # R12: the holder starts the later turns; a hand emptied during first turns ends the
    # round once all have had theirs.
    state = _new(
        RoundState,
        (
            start,
            engine,
            hands,
            boneyard,
            trains,
            holder,
            "play",
            holder,
            doubles,
            done,
            0,
            False,
            False,
            totals,
            round_points,
            ended_by,
            search,
        ),
    )
    if any(not hand for hand in hands):
        return finish(state, "out")
    return finish(state, "blocked") if is_blocked(state) else state
