"""What one viewer may see of a round (R24).

`view(state, seat)` *builds* a viewer's view from allowed fields — the viewer's own
hand, public counts, trains, markers, open doubles, the boneyard count and scores —
rather than deleting secrets from a full copy. `seat=None` is a spectator, who sees
no hand. Every hand is revealed once the round is over (R21, R24). Computer players
and hints receive only such a view (R25).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .legal import legal_tuple
from .state import MEXICAN, Action, RoundState, Train, TrainKey
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
    #: the match's length (R31): 13 rounds in the standard match
    rounds: int = 13

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
            "trains": [
                {
                    "key": t.key,
                    "owner": t.owner,
                    "tiles": [tile_str(x) for x in t.tiles],
                    "marker": t.marker,
                    "end": t.end,
                }
                for t in self.trains
            ],
            "open_doubles": [{"tile": tile_str(t), "train": k} for t, k in self.open_doubles],
            "totals": list(self.totals),
            "round_points": list(self.round_points) if self.round_points is not None else None,
            "ended_by": self.ended_by,
            "winners": list(self.winners) if self.winners is not None else None,
            "revealed": [[tile_str(t) for t in h] for h in self.revealed]
            if self.revealed is not None
            else None,
            "legal": [a.to_json() for a in self.legal],
            "placed": self.placed,
            "drawn_tile": tile_str(self.drawn_tile) if self.drawn_tile is not None else None,
            "owes": self.owes,
            "rounds": self.rounds,
        }


#: builds a NamedTuple from a tuple of all its fields, skipping keyword handling
#: (a computer player gets a fresh view for every action)
_new = tuple.__new__

#: the trains and engine number of the last view, and their train views. A play
#: changes one train and keeps the other `Train` objects, so the next view reuses
#: the views of those that are the very same objects. Immutable values, replaced
#: in one assignment: a pure cache, safe to share between threads.
_last: tuple[tuple[Train, ...], int, tuple[TrainView, ...]] = ((), -1, ())


def _train_views(trains: tuple[Train, ...], engine: int) -> tuple[TrainView, ...]:
    global _last
    last_trains, last_engine, last_views = _last
    if trains is last_trains and engine == last_engine:
        return last_views
    n = len(trains) - 1
    reuse = engine == last_engine and len(last_trains) == n + 1
    views: list[TrainView] = []
    for i, train in enumerate(trains):
        if reuse and train is last_trains[i]:
            views.append(last_views[i])
            continue
        tiles, marker = train
        end = tiles[-1][1] if tiles else engine  # R13: an unstarted train takes the engine number
        if i == n:  # the Mexican train: always open, owned by nobody (R13)
            views.append(_new(TrainView, (MEXICAN, None, tiles, True, end)))
        else:
            views.append(_new(TrainView, (i, i, tiles, marker, end)))
    result = tuple(views)
    _last = (trains, engine, result)
    return result


def public(v: SeatView) -> SeatView:
    """The spectator's view of the same moment as `v` (what ``view(state, None)`` gives):
    no hand, no legal actions, no drawn tile (R24)."""
    if v.seat is None:
        return v
    return v._replace(seat=None, hand=None, legal=(), placed=0, drawn_tile=None)


def view(state: RoundState, seat: int | None) -> SeatView:
    """Build what `seat` (None: a spectator) may see now."""
    start = state.start
    n = start.players
    if seat is not None and not 0 <= seat < n:
        raise ValueError(f"there is no seat {seat}")
    phase = state.phase
    turn = state.turn
    mine = seat is not None and turn == seat
    engine = state.engine
    hands = state.hands
    hand = hands[seat] if seat is not None else None
    over = phase == "round_over" or phase == "match_over"
    doubles = state.open_doubles
    return _new(
        SeatView,
        (
            seat,
            n,
            start.round,
            engine,
            phase,
            turn,
            state.holder,
            hand,
            tuple(map(len, hands)),
            len(state.boneyard),
            _train_views(state.trains, engine),
            tuple((t, MEXICAN if i == n else i) for t, i in doubles) if doubles else (),
            state.totals,
            state.round_points,
            state.ended_by,
            state.winners() if over else None,
            hands if over else None,
            legal_tuple(state) if mine else (),
            state.placed if mine else 0,
            # The tile drawn last sits at the end of the hand (rules.apply appends it).
            hand[-1] if mine and state.drawn and hand else None,
            state.owes,
            start.rounds,
        ),
    )
