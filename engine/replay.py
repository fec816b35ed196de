"""The replay contract (`../shared/spec/replay-format.md`): read a replay, run it, report.

`run_replay(doc)` returns the output object; `BadReplay` is raised only for a file
that is not a valid replay (the command exits 2). An illegal action is not an
error of the file: it stops the replay and is reported in `error`.
"""

from __future__ import annotations

from typing import Any

from .deal import MAX_PLAYERS, MIN_PLAYERS, MIN_ROUNDS, ROUNDS, Deal
from .legal import legal_actions
from .rounds import fixed_round, new_match_round
from .rules import apply
from .state import ACTS, MEXICAN, Action, IllegalAction, RoundState, TrainKey
from .tiles import BadTile, Tile, parse_tile, tile_str


class BadReplay(ValueError):
    """The input is not a valid replay file."""


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadReplay(f"{what} must be a whole number, not {value!r}")
    return value


def parse_action(raw: object, players: int | None = None) -> Action:
    """Read one action object of the replay format (structure only; legality is the engine's)."""
    if not isinstance(raw, dict):
        raise BadReplay(f"an action must be an object, not {raw!r}")
    act = raw.get("act")
    if act not in ACTS:
        raise BadReplay(f"unknown act {act!r} (one of {', '.join(ACTS)})")
    unknown = set(raw) - {"seat", "act", "tile", "train"}
    if unknown:
        raise BadReplay(f"unknown action field(s): {', '.join(sorted(unknown))}")
    if act in ("next_round", "last_round"):  # decisions of the table, not of a seat (R5, R32)
        if raw.get("seat") is not None or "tile" in raw or "train" in raw:
            raise BadReplay(f"{act} takes no seat, tile or train")
        return Action(act)
    seat = _int(raw.get("seat"), "an action's seat")
    tile: Tile | None = None
    train: TrainKey | None = None
    if act == "play":
        try:
            tile = parse_tile(raw.get("tile"))
        except BadTile as e:
            raise BadReplay(str(e)) from None
        train = parse_train(raw.get("train"))
    elif "tile" in raw or "train" in raw:
        raise BadReplay(f"'{act}' takes no tile or train")
    return Action(act, seat, tile, train)


def parse_train(value: object) -> TrainKey:
    if value == MEXICAN:
        return MEXICAN
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return _int(value, 'a train (a seat index or "mexican")')


def _tiles(raw: object, what: str) -> list[Tile]:
    if not isinstance(raw, list):
        raise BadReplay(f"{what} must be a list of tiles")
    try:
        return [parse_tile(t) for t in raw]
    except BadTile as e:
        raise BadReplay(f"{what}: {e}") from None


def parse_start(doc: object, random_seed: int | None = None) -> RoundState:
    """The state the replay starts from (after the engine search)."""
    if not isinstance(doc, dict):
        raise BadReplay("a replay is a JSON object")
    players = _int(doc.get("players"), "players")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise BadReplay(f"players must be 2 to 10 (R2), not {players}")
    rounds = _int(doc.get("rounds", ROUNDS), "rounds")
    if not MIN_ROUNDS <= rounds <= ROUNDS:
        raise BadReplay(f"rounds must be 1 to 13 (R5, R31), not {rounds}")
    round_no = _int(doc.get("round", 1), "round")
    if not 1 <= round_no <= rounds:
        raise BadReplay(f"round must be 1 to {rounds} (R5, R31), not {round_no}")
    totals_raw = doc.get("totals", [0] * players)
    if not isinstance(totals_raw, list) or len(totals_raw) != players:
        raise BadReplay("totals must list one number per player")
    totals = tuple(_int(t, "a total") for t in totals_raw)
    seed = doc.get("seed")
    if seed is not None:
        seed = _int(seed, "seed")
    deal_raw = doc.get("deal")
    if deal_raw is None:
        if seed is None:
            seed = random_seed if random_seed is not None else 0
        return new_match_round(players, seed, round_no, totals, rounds)
    if not isinstance(deal_raw, dict):
        raise BadReplay("deal must be an object with hands and boneyard")
    hands_raw = deal_raw.get("hands")
    if not isinstance(hands_raw, list) or len(hands_raw) != players:
        raise BadReplay("deal.hands must list one hand per player")
    hands = [_tiles(h, f"hand {i}") for i, h in enumerate(hands_raw)]
    boneyard = _tiles(deal_raw.get("boneyard", []), "boneyard")
    everything = [t for h in hands for t in h] + boneyard
    seen: set[Tile] = set()
    for tile in everything:
        if tile in seen:
            raise BadReplay(f"tile {tile_str(tile)} appears twice in the deal")
        seen.add(tile)
    deal = Deal(tuple(tuple(h) for h in hands), tuple(boneyard))
    try:
        return fixed_round(players, deal, round_no, totals, seed, rounds)
    except ValueError as e:
        raise BadReplay(str(e)) from None


def train_json(state: RoundState) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for i, train in enumerate(state.trains):
        tiles = [tile_str(t) for t in train.tiles]
        if i == state.players:
            out[MEXICAN] = {"tiles": tiles}
        else:
            out[str(i)] = {"tiles": tiles, "marker": train.marker}
    return out


def state_json(
    state: RoundState, error: dict[str, Any] | None = None, *, with_rounds: bool = False
) -> dict[str, Any]:
    """The output object of the replay command: everything, hands included.

    ``rounds`` (the match's length, R31) is reported only `with_rounds` — when the input
    gave it — so the output of every file written before R31 stays exactly as it was.
    """
    winners = state.winners()
    head: dict[str, Any] = {"players": state.players, "seed": state.seed, "round": state.round}
    if with_rounds:
        head["rounds"] = state.rounds
    return {
        **head,
        "engine": state.engine,
        "holder": state.holder,
        "phase": state.phase,
        "turn": state.turn,
        "hands": [[tile_str(t) for t in hand] for hand in state.hands],
        "boneyard": len(state.boneyard),
        "trains": train_json(state),
        "open_doubles": [
            {"tile": tile_str(t), "train": str(state.train_key(i))} for t, i in state.open_doubles
        ],
        "legal": [a.to_json() for a in legal_actions(state)],
        "ended_by": state.ended_by,
        "round_points": list(state.round_points) if state.round_points is not None else None,
        "totals": list(state.totals),
        "winners": list(winners) if winners is not None else None,
        "error": error,
    }


def run_replay(doc: object, random_seed: int | None = None) -> dict[str, Any]:
    """Replay `doc`; raise `BadReplay` for an invalid file, report the first illegal action."""
    state = parse_start(doc, random_seed)
    assert isinstance(doc, dict)
    raw_actions = doc.get("actions", [])
    if not isinstance(raw_actions, list):
        raise BadReplay("actions must be a list")
    actions = [parse_action(a, state.players) for a in raw_actions]
    with_rounds = "rounds" in doc
    for k, action in enumerate(actions):
        try:
            state = apply(state, action)
        except IllegalAction as e:
            return state_json(
                state,
                {"index": k, "action": raw_actions[k], "message": e.message},
                with_rounds=with_rounds,
            )
    return state_json(state, with_rounds=with_rounds)
