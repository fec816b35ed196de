"""Why an action is refused (R7–R10, R13–R15, R19, R20, R22, R24), in plain words and by rule.

`explain` says why `legal.legal_actions` does not list an action, and `rules.apply` raises
what it returns: not the seat's turn, or the engine not placed yet or placed already (R7);
a first turn's limits (R8–R10); a train not open to the seat, or whose end the tile does
not match (R13); a draw or a pass while a play is possible (R14); a second draw, an empty
boneyard, a tile other than the one just drawn (R15); an open double to satisfy first
(R19); a tile the seat does not hold (R24); a round or a match that is over (R20, R22).
"""

from __future__ import annotations

from .legal import legal_actions
from .state import MEXICAN, Action, IllegalAction, RoundState, TrainKey
from .tiles import spoken, tile_str


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
