"""The state of one round, the actions that change it, and the errors they raise.

Everything here is immutable (frozen dataclasses, and NamedTuples on the hot path): a state is never changed, `rules.apply`
returns a new one. Train index ``n`` (the number of players) is the Mexican train;
actions and the replay format call it ``"mexican"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

from .deal import Deal
from .tiles import Tile

MEXICAN: Literal["mexican"] = "mexican"
TrainKey = int | Literal["mexican"]

Phase = Literal["engine", "first", "play", "round_over", "match_over"]
Act = Literal["engine", "play", "draw", "pass", "end", "next_round", "last_round"]
ACTS: tuple[str, ...] = ("engine", "play", "draw", "pass", "end", "next_round", "last_round")


#: every reason code an `IllegalAction` may carry (the site has words for each, in every language)
REFUSAL_CODES: tuple[str, ...] = (
    "match_over",
    "round_over",
    "round_not_over",
    "no_seed",
    "not_your_turn",
    "engine_holder_only",
    "engine_first",
    "engine_placed",
    "no_draw_first_turn",
    "must_play",
    "one_draw",
    "boneyard_empty",
    "end_not_pass",
    "must_start_train",
    "draw_before_pass",
    "not_first_turn",
    "pass_not_end",
    "play_before_end",
    "not_an_action",
    "not_in_hand",
    "no_such_train",
    "first_turn_mexican",
    "first_turn_own_train",
    "no_match",
    "drawn_tile_only",
    "open_double_first",
    "train_not_open",
    "last_already",
)


class IllegalAction(ValueError):
    """An action the rules do not allow now.

    `rule` names the rule id (for code, tests and the rules page's anchor), `code` the
    reason in a word the site turns into a sentence in the player's language, `params`
    the facts that sentence needs (seats and trains as engine indices, 0-based, or
    "mexican"; tiles as "6-4"). `message` is the engine's own English, for developers.
    """

    def __init__(
        self, rule: str, message: str, code: str, params: dict[str, object] | None = None
    ) -> None:
        if code not in REFUSAL_CODES:
            raise ValueError(f"unknown refusal code {code!r}")
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.code = code
        self.params: dict[str, object] = dict(params or {})
        self.message = f"{message} ({rule})"


class Action(NamedTuple):
    """A decision of a seat. `tile` is normalised; `train` is a seat index or "mexican".

    Immutable (a NamedTuple: actions are made by the thousand in the hot path).
    """

    act: Act
    seat: int | None = None
    tile: Tile | None = None
    train: TrainKey | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {}
        if self.seat is not None:
            out["seat"] = self.seat
        out["act"] = self.act
        if self.tile is not None:
            out["tile"] = f"{self.tile[0]}-{self.tile[1]}"
        if self.train is not None:
            out["train"] = self.train
        return out


class Train(NamedTuple):
    """Tiles oriented in play order, and whether the train carries a marker (R10, R15, R16)."""

    tiles: tuple[Tile, ...] = ()
    marker: bool = False

    def end(self, engine: int) -> int:
        """The number a tile must match: the open end, or the engine number when unstarted (R13)."""
        return self.tiles[-1][1] if self.tiles else engine


@dataclass(frozen=True, slots=True)
class RoundStart:
    """What a round starts from: kept so the round can be restarted with its deal (R28).

    `rounds` is the match's length (R31): a match from double n has n + 1 rounds, the
    standard one 13 (R5).
    """

    players: int
    round: int
    seed: int | None
    deal: Deal
    totals: tuple[int, ...]
    rounds: int = 13
    #: R32: the players agreed that this round is the match's last (kept through a restart, R28)
    final: bool = False


class RoundState(NamedTuple):
    """One round, immutable. A NamedTuple rather than a frozen dataclass: a match makes
    a thousand of these, and tuple construction is what keeps `apply` cheap."""

    start: RoundStart
    engine: int
    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    #: seats' trains, then the Mexican train at index `players`
    trains: tuple[Train, ...]
    holder: int
    phase: Phase
    turn: int | None
    #: open doubles oldest first: (tile, train index) (R11, R19)
    open_doubles: tuple[tuple[Tile, int], ...]
    #: how many seats have finished their first turn (R8–R12)
    firsts_done: int
    #: tiles placed in the current turn
    placed: int
    #: whether the seat drew for the current required play (R15)
    drawn: bool
    #: an extra play is owed after a double in this turn (R17)
    owes: bool
    totals: tuple[int, ...]
    round_points: tuple[int, ...] | None = None
    ended_by: Literal["out", "blocked"] | None = None
    #: the seats' tiles drawn in the engine search, in order (R6), for the log
    search: tuple[tuple[int, Tile], ...] = ()

    def evolve(self, **changes: object) -> RoundState:
        """A copy with `changes` (field names as keywords; the values are not checked here)."""
        return self._replace(**changes)  # type: ignore[arg-type]

    @property
    def players(self) -> int:
        return self.start.players

    @property
    def round(self) -> int:
        return self.start.round

    @property
    def seed(self) -> int | None:
        return self.start.seed

    @property
    def rounds(self) -> int:
        """The match's length (R31): 13 for the standard match."""
        return self.start.rounds

    @property
    def over(self) -> bool:
        return self.phase in ("round_over", "match_over")

    def train_index(self, key: TrainKey) -> int:
        return self.players if key == MEXICAN else int(key)

    def train_key(self, index: int) -> TrainKey:
        return MEXICAN if index == self.players else index

    def winners(self) -> tuple[int, ...] | None:
        """R22/R31: after the last round the lowest total wins; equal lowest totals win together."""
        if self.phase != "match_over":
            return None
        best = min(self.totals)
        return tuple(s for s, t in enumerate(self.totals) if t == best)
