"""Round states to and from JSON-able dicts, for snapshots the site caches (R27, R28).

A snapshot is only a cache: the deal and the action log can always rebuild it.
"""

from __future__ import annotations

from typing import Any

from .deal import ROUNDS, Deal
from .state import RoundStart, RoundState, Train
from .tiles import Tile

FORMAT = 1


def _tiles(ts: tuple[Tile, ...]) -> list[list[int]]:
    return [[a, b] for a, b in ts]


def _untiles(raw: list[list[int]]) -> tuple[Tile, ...]:
    return tuple((int(a), int(b)) for a, b in raw)


def start_to_json(start: RoundStart) -> dict[str, Any]:
    """A round's start; ``rounds`` only for a shorter match (R31), so a standard match's
    stored starts read exactly as before."""
    out: dict[str, Any] = {
        "players": start.players,
        "round": start.round,
        "seed": start.seed,
        "hands": [_tiles(h) for h in start.deal.hands],
        "boneyard": _tiles(start.deal.boneyard),
        "totals": list(start.totals),
        **({"final": True} if start.final else {}),  # R32; absent in snapshots before it
    }
    if start.rounds != ROUNDS:
        out["rounds"] = start.rounds
    return out


def start_from_json(raw: dict[str, Any]) -> RoundStart:
    """Read `start_to_json`'s form; a start without ``rounds`` is of a standard match (R5)."""
    deal = Deal(tuple(_untiles(h) for h in raw["hands"]), _untiles(raw["boneyard"]))
    return RoundStart(
        raw["players"],
        raw["round"],
        raw["seed"],
        deal,
        tuple(raw["totals"]),
        int(raw.get("rounds", ROUNDS)),
        final=bool(raw.get("final", False)),
    )


def state_to_json(state: RoundState) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "start": start_to_json(state.start),
        "engine": state.engine,
        "hands": [_tiles(h) for h in state.hands],
        "boneyard": _tiles(state.boneyard),
        "trains": [{"tiles": _tiles(t.tiles), "marker": t.marker} for t in state.trains],
        "holder": state.holder,
        "phase": state.phase,
        "turn": state.turn,
        "open_doubles": [[list(t), i] for t, i in state.open_doubles],
        "firsts_done": state.firsts_done,
        "placed": state.placed,
        "drawn": state.drawn,
        "owes": state.owes,
        "totals": list(state.totals),
        "round_points": list(state.round_points) if state.round_points is not None else None,
        "ended_by": state.ended_by,
        "search": [[s, list(t)] for s, t in state.search],
    }


def state_from_json(raw: dict[str, Any]) -> RoundState:
    if raw.get("format") != FORMAT:
        raise ValueError("unknown snapshot format")
    return RoundState(
        start=start_from_json(raw["start"]),
        engine=raw["engine"],
        hands=tuple(_untiles(h) for h in raw["hands"]),
        boneyard=_untiles(raw["boneyard"]),
        trains=tuple(Train(_untiles(t["tiles"]), t["marker"]) for t in raw["trains"]),
        holder=raw["holder"],
        phase=raw["phase"],
        turn=raw["turn"],
        open_doubles=tuple(((int(t[0]), int(t[1])), int(i)) for t, i in raw["open_doubles"]),
        firsts_done=raw["firsts_done"],
        placed=raw["placed"],
        drawn=raw["drawn"],
        owes=raw["owes"],
        totals=tuple(raw["totals"]),
        round_points=tuple(raw["round_points"]) if raw["round_points"] is not None else None,
        ended_by=raw["ended_by"],
        search=tuple((int(s), (int(t[0]), int(t[1]))) for s, t in raw["search"]),
    )
