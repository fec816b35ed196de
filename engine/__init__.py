"""The Mexican Train rules engine: pure Python, no Django, no I/O, no clock, no global random.

Rules are those of `shared/spec/rules.md` (R1–R31). Modules: `tiles` (R1), `deal` (R3–R6,
R31: the match's length), `state` (the frozen round state and actions), `rounds` (R4, R6, R7,
R28, R29, R31, R32: starting a round and the next), `legal` (R7–R19: the legal-move
generator), `rules` (R7–R19: `apply`), `refusals` (why an action is refused, by rule),
`round_end` (R20–R22: a blocked round, the score), `index` (R13: the lookups behind the
legal-move generator), `views` (R24), `previews` (R23), `bots` (R25), `review` (R21, R24,
R25: a decision looked back at from its seat's view), `replay` (the JSON replay contract).
"""

from .deal import Deal, engine_value, hand_size, seeded_deal
from .legal import legal_actions
from .round_end import is_blocked
from .rounds import fixed_round, new_match_round, next_round, restart_round
from .rules import apply
from .state import MEXICAN, Action, IllegalAction, RoundStart, RoundState, Train
from .tiles import Tile, parse_tile, points, tile_str

__all__ = [
    "MEXICAN",
    "Action",
    "Deal",
    "IllegalAction",
    "RoundStart",
    "RoundState",
    "Tile",
    "Train",
    "apply",
    "engine_value",
    "fixed_round",
    "hand_size",
    "is_blocked",
    "legal_actions",
    "new_match_round",
    "next_round",
    "parse_tile",
    "points",
    "restart_round",
    "seeded_deal",
    "tile_str",
]
