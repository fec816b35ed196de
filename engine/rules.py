"""Turns: who may do what, and what it does (R6–R22).

One legal-move generator (`legal_actions`) serves validation, previews, hints and
computer players. `apply` accepts exactly the actions it lists and raises
`IllegalAction`, naming the rule, for anything else.
"""

from __future__ import annotations

from operator import itemgetter

from .deal import MAX_PLAYERS
from .index import BIT, CLEAR, MEXICAN_BIT, MEXICAN_SLOT, NUMBERS, _slot, build, keep, slot, take
from .index import hand as hand_index
from .round_end import finish, is_blocked
from .rounds import fixed_round, last_round, new_match_round, next_round, restart_round, start_round
from .state import MEXICAN, Act, Action, IllegalAction, RoundState, Train, TrainKey
from .tiles import FULL_SET, HIGHEST, Tile, norm, spoken, tile_str

#: also importable from here, where they were first (the rounds' set-up is engine/rounds.py)
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

# ---------------------------------------------------------------- legal actions


#: builds a NamedTuple from a tuple of all its fields, skipping keyword handling: a
#: match makes a thousand states and actions, and this is most of their cost
_new = tuple.__new__
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
#: Replaced in one assignment: safe to share between threads.
_last_legal: tuple[RoundState | None, tuple[Action, ...]] = (None, ())


def legal_actions(state: RoundState) -> list[Action]:
    """Every action the seat to act may take now; empty when the round is over."""
    global _last_legal
    last_state, last = _last_legal
    if last_state is state:
        return list(last)
    legal = _list_legal(state)  # `legal_tuple` inlined (a call less on the hot path)
    _last_legal = (state, tuple(legal))
    return legal


def legal_tuple(state: RoundState) -> tuple[Action, ...]:
    """`legal_actions` as a tuple, remembered for the last state asked about."""
    global _last_legal
    last_state, last = _last_legal
    if last_state is state:
        return last
    legal = tuple(_list_legal(state))
    _last_legal = (state, legal)
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


def _play_target(state: RoundState, action: Action) -> int:
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


# ---------------------------------------------------------------- applying


def apply(state: RoundState, action: Action) -> RoundState:
    """Return the state after `action`; raise `IllegalAction` (naming the rule) if it is not allowed."""
    act = action.act
    if act == "play":
        key = action.train
        last_state, last = _last_legal
        if last_state is state and (type(key) is int or key == MEXICAN) and action in last:
            # Listed for this very state a moment ago (a computer's view, a playout): legal.
            # (A train given as True or 1.0 equals 1 but names no train: checked below.)
            target = len(state.trains) - 1 if key == MEXICAN else key
        else:
            # Checked directly rather than looked up in the list of every legal play (hot path).
            target = _play_target(state, action)
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


# ---------------------------------------------------------------- reasons


def _key(state: RoundState, index: int) -> TrainKey:
    """A train's key in a refusal's parameters: its owner's seat, or "mexican"."""
    return MEXICAN if index == state.players else index


def _must_play(example: Action | None) -> IllegalAction:
    assert example is not None and example.tile is not None
    return IllegalAction(
        "R14",
        f"You must play when you can (for example {tile_str(example.tile)})",
        "must_play",
        {"tile": spoken(example.tile)},
    )


def _train_name(state: RoundState, index: int) -> str:
    return "the Mexican train" if index == state.players else f"seat {index}'s train"


def explain(state: RoundState, action: Action) -> IllegalAction:
    """Say in plain words, citing the rule, why `action` is not legal in `state`."""
    if state.phase == "match_over":
        return IllegalAction("R22", "The match is over", "match_over")
    if state.phase == "round_over":
        return IllegalAction(
            "R20", "The round is over; only the next round can start", "round_over"
        )
    if action.seat != state.turn:
        return IllegalAction(
            "R7",
            f"It is seat {state.turn}'s turn, not seat {action.seat}'s",
            "not_your_turn",
            {"seat": state.turn},
        )
    seat = state.turn
    assert seat is not None
    legal = legal_actions(state)
    if state.phase == "engine":
        if action.act == "engine":
            return IllegalAction("R7", "Only the holder places the engine", "engine_holder_only")
        return IllegalAction("R7", "The holder must first place the engine double", "engine_first")
    if action.act == "engine":
        return IllegalAction("R7", "The engine is already placed", "engine_placed")
    first = state.phase == "first"
    example = next((a for a in legal if a.act == "play"), None)
    if action.act == "draw":
        if first:
            return IllegalAction("R10", "Nobody draws during first turns", "no_draw_first_turn")
        if example is not None:
            return _must_play(example)
        if state.drawn:
            return IllegalAction(
                "R15", "There is never a second draw for the same required play", "one_draw"
            )
        return IllegalAction("R15", "The boneyard is empty", "boneyard_empty")
    if action.act == "pass":
        if first and state.placed:
            return IllegalAction("R9", "End your first turn instead of passing", "end_not_pass")
        if first:
            return IllegalAction(
                "R9",
                "You can start your train, so you must play at least one tile",
                "must_start_train",
            )
        if example is not None:
            return _must_play(example)
        return IllegalAction("R15", "Draw a tile before passing", "draw_before_pass")
    if action.act == "end":
        if not first:
            return IllegalAction("R9", "Only a first turn is ended this way", "not_first_turn")
        if not any(a.act == "play" for a in legal):
            return IllegalAction("R10", "You cannot start your train: pass instead", "pass_not_end")
        return IllegalAction(
            "R9", "Play at least one tile before ending your first turn", "play_before_end"
        )
    if action.act != "play" or action.tile is None or action.train is None:
        return IllegalAction("R14", "That is not an action of this game", "not_an_action")
    return _explain_play(state, seat, action)


def _explain_play(state: RoundState, seat: int, action: Action) -> IllegalAction:
    tile = action.tile
    assert tile is not None and action.train is not None
    if tile not in state.hands[seat]:
        return IllegalAction(
            "R24",
            f"Seat {seat} does not hold {tile_str(tile)}",
            "not_in_hand",
            {"tile": spoken(tile)},
        )
    train = action.train
    if train != MEXICAN and not (isinstance(train, int) and 0 <= train < state.players):
        return IllegalAction("R13", f"There is no train {train}", "no_such_train")
    index = state.train_index(train)
    end = state.trains[index].end(state.engine)
    name = _train_name(state, index)
    if state.phase == "first":
        if index == state.players:
            return IllegalAction(
                "R8",
                "The Mexican train cannot be started or played on during first turns",
                "first_turn_mexican",
            )
        if index != seat:
            return IllegalAction(
                "R8",
                "On your first turn you play only on your own train",
                "first_turn_own_train",
                {"end": state.trains[seat].end(state.engine)},
            )
        return IllegalAction(
            "R8",
            f"{tile_str(tile)} does not match the end of your train ({end})",
            "no_match",
            {"tile": spoken(tile), "train": seat, "end": end},
        )
    if state.drawn and state.hands[seat][-1] != tile:
        return IllegalAction(
            "R15", "After drawing, only the drawn tile may be played", "drawn_tile_only"
        )
    if state.open_doubles and not state.owes:
        double, where = state.open_doubles[0]
        return IllegalAction(
            "R19",
            f"The open double {tile_str(double)} on {_train_name(state, where)} "
            "must be satisfied first",
            "open_double_first",
            {"tile": spoken(double), "train": _key(state, where)},
        )
    if index != seat and index != state.players and not state.trains[index].marker:
        return IllegalAction(
            "R13",
            f"{name[0].upper()}{name[1:]} is not open to you (it has no marker)",
            "train_not_open",
            {"train": index, "end": end},
        )
    return IllegalAction(
        "R13",
        f"{tile_str(tile)} does not match the end of {name} ({end})",
        "no_match",
        {"tile": spoken(tile), "train": _key(state, index), "end": end},
    )
