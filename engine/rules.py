"""Turns: who may do what, and what it does (R6–R22).

One legal-move generator (`legal_actions`) serves validation, previews, hints and
computer players. `apply` accepts exactly the actions it lists and raises
`IllegalAction`, naming the rule, for anything else.
"""

from __future__ import annotations


from .deal import ROUNDS, Deal, engine_value, search_engine, seeded_deal
from .state import MEXICAN, Action, IllegalAction, RoundStart, RoundState, Train
from .tiles import Tile, is_double, orient, points, tile_str

# ---------------------------------------------------------------- round set-up


def start_round(start: RoundStart) -> RoundState:
    """Deal (given), search for the engine (R6) and wait for the holder to place it (R7)."""
    n = start.players
    if len(start.deal.hands) != n or len(start.totals) != n:
        raise ValueError("the deal and the totals need one entry per player")
    found = search_engine(start.deal, start.round)
    if found.holder is None:
        e = engine_value(start.round)
        raise ValueError(f"the engine double {e}-{e} is in no hand and not in the boneyard (R5, R6)")
    return RoundState(
        start=start,
        engine=engine_value(start.round),
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


def new_match_round(players: int, seed: int, round_no: int = 1, totals: tuple[int, ...] | None = None) -> RoundState:
    """Round `round_no` of a seeded match (R4), with totals so far (zeros by default, R29)."""
    deal = seeded_deal(seed, round_no, players)
    return start_round(RoundStart(players, round_no, seed, deal, totals or (0,) * players))


def fixed_round(players: int, deal: Deal, round_no: int = 1, totals: tuple[int, ...] | None = None,
                seed: int | None = None) -> RoundState:
    """A round from an explicit deal (tests and replays)."""
    return start_round(RoundStart(players, round_no, seed, deal, totals or (0,) * players))


def restart_round(state: RoundState) -> RoundState:
    """R28: the same deal and engine search, the totals from before this round."""
    return start_round(state.start)


def next_round(state: RoundState) -> RoundState:
    """Start round r + 1 of a seeded match once round r is over."""
    if state.phase == "match_over":
        raise IllegalAction("R22", "The match is over after round 13")
    if state.phase != "round_over":
        raise IllegalAction("R20", "The round is not over yet")
    if state.seed is None:
        raise IllegalAction("R4", "The next round needs a match seed to deal from")
    return new_match_round(state.players, state.seed, state.round + 1, state.totals)


# ---------------------------------------------------------------- legal actions


def _fits(tile: Tile, end: int) -> bool:
    return tile[0] == end or tile[1] == end


def _open_to(state: RoundState, seat: int) -> list[int]:
    """R13: own train, trains with a marker, and the Mexican train."""
    n = state.players
    return [i for i in range(n + 1) if i == seat or i == n or state.trains[i].marker]


def _plays(state: RoundState, seat: int) -> list[Action]:
    """Every tile placement the seat to act may make now."""
    hand = state.hands[seat]
    if state.phase == "first":
        # R8: a chain on the own train only.
        targets = [seat]
    elif state.open_doubles and not state.owes:
        # R19: only the oldest open double may be played on (R17 governs within the turn).
        targets = [state.open_doubles[0][1]]
    else:
        targets = _open_to(state, seat)
    ends = [(i, state.trains[i].end(state.engine)) for i in targets]
    keys = [state.train_key(i) for i in targets]
    out: list[Action] = []
    for tile in sorted(hand):
        a, b = tile
        for k, (i, end) in enumerate(ends):
            if a == end or b == end:
                out.append(Action("play", seat, tile, keys[k]))
    return out


def legal_actions(state: RoundState) -> list[Action]:
    """Every action the seat to act may take now; empty when the round is over."""
    seat = state.turn
    if seat is None or state.over:
        return []
    if state.phase == "engine":
        return [Action("engine", seat)]
    plays = _plays(state, seat)
    if state.phase == "first":
        if state.placed == 0:
            return plays or [Action("pass", seat)]  # R9 / R10
        return plays + [Action("end", seat)]  # R9: end explicitly
    if plays:
        return plays  # R14
    if not state.drawn and state.boneyard:
        return [Action("draw", seat)]  # R15
    return [Action("pass", seat)]  # R15, R17, R19


def _play_allowed(state: RoundState, action: Action) -> bool:
    """`action in legal_actions(state)` for a play, without listing every play (hot path)."""
    seat, tile, key = state.turn, action.tile, action.train
    if seat is None or action.seat != seat or state.over or state.phase == "engine" or tile is None:
        return False
    n = state.players
    if key == MEXICAN:
        index = n
    elif isinstance(key, int) and not isinstance(key, bool) and 0 <= key < n:
        index = key
    else:
        return False
    if tile not in state.hands[seat]:
        return False
    if state.phase == "first":
        allowed = index == seat
    elif state.open_doubles and not state.owes:
        allowed = index == state.open_doubles[0][1]
    else:
        allowed = index == seat or index == n or state.trains[index].marker
    return allowed and _fits(tile, state.trains[index].end(state.engine))


def is_blocked(state: RoundState) -> bool:
    """R20: boneyard empty and no tile in any hand could ever be played."""
    if state.boneyard:
        return False
    if state.open_doubles:
        value = state.open_doubles[0][0][0]
        return not any(value in tile for hand in state.hands for tile in hand)
    ends = {train.end(state.engine) for train in state.trains}
    return not any(a in ends or b in ends for hand in state.hands for (a, b) in hand)


# ---------------------------------------------------------------- applying


def apply(state: RoundState, action: Action) -> RoundState:
    """Return the state after `action`; raise `IllegalAction` (naming the rule) if it is not allowed."""
    if action.act == "next_round":
        return next_round(state)
    if not (_play_allowed(state, action) if action.act == "play" else action in legal_actions(state)):
        raise explain(state, action)
    seat = state.turn
    assert seat is not None
    if action.act == "engine":
        # R7: the double leaves the holder's hand and becomes the hub of every train.
        hand = tuple(t for t in state.hands[seat] if t != (state.engine, state.engine))
        return state.evolve(hands=_with(state.hands, seat, hand), phase="first", turn=state.holder, placed=0)
    assert seat is not None
    if action.act == "play":
        assert action.tile is not None and action.train is not None
        return _play(state, seat, action.tile, state.train_index(action.train))
    if action.act == "draw":
        return state.evolve(hands=_with(state.hands, seat, state.hands[seat] + state.boneyard[:1]),
                       boneyard=state.boneyard[1:], drawn=True)
    if action.act == "pass":
        trains = _with(state.trains, seat, Train(state.trains[seat].tiles, True))
        return _end_turn(state.evolve(trains=trains))
    # "end": R9, the first turn is ended explicitly
    return _end_turn(state)


def _with(items: tuple, index: int, value: object) -> tuple:
    return items[:index] + (value,) + items[index + 1 :]


def _play(state: RoundState, seat: int, tile: Tile, index: int) -> RoundState:
    train = state.trains[index]
    hand = list(state.hands[seat])
    hand.remove(tile)
    placed = orient(tile, train.end(state.engine))
    # R16: only the owner playing on their own train removes its marker.
    marker = False if index == seat else train.marker
    trains = _with(state.trains, index, Train(train.tiles + (placed,), marker))
    # A double is open while nothing follows it (R19): playing after it closes it.
    doubles = tuple(d for d in state.open_doubles if d[1] != index)
    if is_double(tile):
        doubles += ((tile, index),)
    state = state.evolve(hands=_with(state.hands, seat, tuple(hand)), trains=trains,
                    open_doubles=doubles, placed=state.placed + 1, drawn=False)
    if state.phase == "first":
        # R9: an empty hand ends the first turn; R11: doubles in a chain wait.
        return _end_turn(state) if not hand else state
    if not hand:
        return _finish(state, "out")  # R18, R20: out at once, even on a double
    if is_double(tile):
        return state.evolve(owes=True)  # R17: play again
    return _end_turn(state)


def _end_turn(state: RoundState) -> RoundState:
    assert state.turn is not None
    n = state.players
    following = (state.turn + 1) % n
    if state.phase == "first":
        done = state.firsts_done + 1
        if done < n:
            return state.evolve(firsts_done=done, turn=following, placed=0, drawn=False, owes=False)
        # R12: a hand emptied during first turns ends the round once all have had theirs.
        state = state.evolve(firsts_done=done, phase="play", turn=state.holder, placed=0, drawn=False, owes=False)
        if any(not hand for hand in state.hands):
            return _finish(state, "out")
    else:
        state = state.evolve(turn=following, placed=0, drawn=False, owes=False)
    return _finish(state, "blocked") if is_blocked(state) else state


def _finish(state: RoundState, how: str) -> RoundState:
    """R21: each seat adds the points left in its hand; R22: after round 13 the match is over."""
    penalty = tuple(sum(points(t) for t in hand) for hand in state.hands)
    totals = tuple(a + b for a, b in zip(state.totals, penalty))
    phase = "match_over" if state.round == ROUNDS else "round_over"
    return state.evolve(phase=phase, turn=None, round_points=penalty, totals=totals,
                   ended_by=how, placed=0, drawn=False, owes=False)  # type: ignore[arg-type]


# ---------------------------------------------------------------- reasons


def _train_name(state: RoundState, index: int) -> str:
    return "the Mexican train" if index == state.players else f"seat {index}'s train"


def explain(state: RoundState, action: Action) -> IllegalAction:
    """Say in plain words, citing the rule, why `action` is not legal in `state`."""
    if state.phase == "match_over":
        return IllegalAction("R22", "The match is over")
    if state.phase == "round_over":
        return IllegalAction("R20", "The round is over; only the next round can start")
    if action.seat != state.turn:
        return IllegalAction("R7", f"It is seat {state.turn}'s turn, not seat {action.seat}'s")
    seat = state.turn
    assert seat is not None
    legal = legal_actions(state)
    if state.phase == "engine":
        if action.act == "engine":
            return IllegalAction("R7", "Only the holder places the engine")
        return IllegalAction("R7", "The holder must first place the engine double")
    if action.act == "engine":
        return IllegalAction("R7", "The engine is already placed")
    first = state.phase == "first"
    example = next((a for a in legal if a.act == "play"), None)
    if action.act == "draw":
        if first:
            return IllegalAction("R10", "Nobody draws during first turns")
        if example is not None:
            return IllegalAction("R14", f"You must play when you can (for example {tile_str(example.tile)})")  # type: ignore[arg-type]
        if state.drawn:
            return IllegalAction("R15", "There is never a second draw for the same required play")
        return IllegalAction("R15", "The boneyard is empty")
    if action.act == "pass":
        if first and state.placed:
            return IllegalAction("R9", "End your first turn instead of passing")
        if first:
            return IllegalAction("R9", "You can start your train, so you must play at least one tile")
        if example is not None:
            return IllegalAction("R14", f"You must play when you can (for example {tile_str(example.tile)})")  # type: ignore[arg-type]
        return IllegalAction("R15", "Draw a tile before passing")
    if action.act == "end":
        if not first:
            return IllegalAction("R9", "Only a first turn is ended this way")
        if not any(a.act == "play" for a in legal):
            return IllegalAction("R10", "You cannot start your train: pass instead")
        return IllegalAction("R9", "Play at least one tile before ending your first turn")
    if action.act != "play" or action.tile is None or action.train is None:
        return IllegalAction("R14", "That is not an action of this game")
    return _explain_play(state, seat, action)


def _explain_play(state: RoundState, seat: int, action: Action) -> IllegalAction:
    tile = action.tile
    assert tile is not None and action.train is not None
    if tile not in state.hands[seat]:
        return IllegalAction("R24", f"Seat {seat} does not hold {tile_str(tile)}")
    train = action.train
    if train != MEXICAN and not (isinstance(train, int) and 0 <= train < state.players):
        return IllegalAction("R13", f"There is no train {train}")
    index = state.train_index(train)
    end = state.trains[index].end(state.engine)
    name = _train_name(state, index)
    if state.phase == "first":
        if index == state.players:
            return IllegalAction("R8", "The Mexican train cannot be started or played on during first turns")
        if index != seat:
            return IllegalAction("R8", "On your first turn you play only on your own train")
        return IllegalAction("R8", f"{tile_str(tile)} does not match the end of your train ({end})")
    if state.drawn and state.hands[seat][-1] != tile:
        return IllegalAction("R15", "After drawing, only the drawn tile may be played")
    if state.open_doubles and not state.owes:
        double, where = state.open_doubles[0]
        return IllegalAction("R19", f"The open double {tile_str(double)} on {_train_name(state, where)} "
                                    "must be satisfied first")
    if index != seat and index != state.players and not state.trains[index].marker:
        return IllegalAction("R13", f"{name[0].upper()}{name[1:]} is not open to you (it has no marker)")
    return IllegalAction("R13", f"{tile_str(tile)} does not match the end of {name} ({end})")
