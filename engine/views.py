"""What one viewer may see of a round (R24).

`view(state, seat)` *builds* a viewer's view from allowed fields — the viewer's own
hand, public counts, trains, markers, open doubles, the boneyard count and scores —
rather than deleting secrets from a full copy. `seat=None` is a spectator, who sees
no hand. Every hand is revealed once the round is over (R21, R24). Computer players
and hints receive only such a view (R25).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .rules import legal_actions
from .state import MEXICAN, Action, RoundState, TrainKey
from .tiles import Tile, tile_str


class TrainView(NamedTuple):
    key: TrainKey
    #: the seat that owns the train; None for the Mexican train
    owner: int | None
    tiles: tuple[Tile, ...]
    #: a marker: the train is open to everyone (the Mexican train is always open, R13)
    marker: bool
    #: the number the next tile must match (the engine number while unstarted)
    end: int


class SeatView(NamedTuple):
    """One viewer's view: immutable (a NamedTuple, built once per action for computer players)."""

    seat: int | None
    players: int
    round: int
    engine: int
    phase: str
    turn: int | None
    holder: int
    #: the viewer's own hand, None for a spectator
    hand: tuple[Tile, ...] | None
    hand_sizes: tuple[int, ...]
    boneyard: int
    trains: tuple[TrainView, ...]
    open_doubles: tuple[tuple[Tile, TrainKey], ...]
    totals: tuple[int, ...]
    round_points: tuple[int, ...] | None
    ended_by: str | None
    winners: tuple[int, ...] | None
    #: every hand, only once the round is over
    revealed: tuple[tuple[Tile, ...], ...] | None
    #: the viewer's legal actions (empty unless it is the viewer's turn)
    legal: tuple[Action, ...]
    #: tiles this seat has placed in the current turn (first-turn chain length)
    placed: int
    #: the viewer drew for the current required play; `drawn_tile` is that tile (own view only)
    drawn_tile: Tile | None
    #: an extra play is owed after a double (R17)
    owes: bool

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.turn == self.seat

    def train(self, key: TrainKey) -> TrainView:
        return self.trains[self.players if key == MEXICAN else int(key)]

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "players": self.players,
            "round": self.round,
            "engine": self.engine,
            "phase": self.phase,
            "turn": self.turn,
            "holder": self.holder,
            "hand": [tile_str(t) for t in self.hand] if self.hand is not None else None,
            "hand_sizes": list(self.hand_sizes),
            "boneyard": self.boneyard,
            "trains": [{"key": t.key, "owner": t.owner, "tiles": [tile_str(x) for x in t.tiles],
                        "marker": t.marker, "end": t.end} for t in self.trains],
            "open_doubles": [{"tile": tile_str(t), "train": k} for t, k in self.open_doubles],
            "totals": list(self.totals),
            "round_points": list(self.round_points) if self.round_points is not None else None,
            "ended_by": self.ended_by,
            "winners": list(self.winners) if self.winners is not None else None,
            "revealed": [[tile_str(t) for t in h] for h in self.revealed] if self.revealed is not None else None,
            "legal": [a.to_json() for a in self.legal],
            "placed": self.placed,
            "drawn_tile": tile_str(self.drawn_tile) if self.drawn_tile is not None else None,
            "owes": self.owes,
        }


def view(state: RoundState, seat: int | None) -> SeatView:
    """Build what `seat` (None: a spectator) may see now."""
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"there is no seat {seat}")
    n = state.players
    mine = seat is not None and state.turn == seat
    engine = state.engine
    trains = tuple(
        TrainView(i, i, train.tiles, train.marker, train.tiles[-1][1] if train.tiles else engine)
        for i, train in enumerate(state.trains[:n])
    ) + (TrainView(MEXICAN, None, state.trains[n].tiles, True, state.trains[n].end(engine)),)
    hand = state.hands[seat] if seat is not None else None
    over = state.phase == "round_over" or state.phase == "match_over"
    return SeatView(
        seat,
        n,
        state.round,
        engine,
        state.phase,
        state.turn,
        state.holder,
        hand,
        tuple(map(len, state.hands)),
        len(state.boneyard),
        trains,
        tuple((t, MEXICAN if i == n else i) for t, i in state.open_doubles),
        state.totals,
        state.round_points,
        state.ended_by,
        state.winners() if over else None,
        state.hands if over else None,
        tuple(legal_actions(state)) if mine else (),
        state.placed if mine else 0,
        # The tile drawn last sits at the end of the hand (rules.apply appends it).
        hand[-1] if mine and state.drawn and hand else None,
        state.owes,
    )
