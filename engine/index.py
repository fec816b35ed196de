"""An index of a round for the legal-move generator (R1, R13), carried from one state
to the next.

R13 lets a tile go on a train open to the seat (its own, the Mexican train, a train
with a marker) when one of the tile's numbers is the train's open end. Scanning the
hand once per open train was a third of a random playout. An `Index` holds the
answers ready:

- ``hands[seat]``: the hand as 13 small bit sets, one per number ``v``: bit ``w`` of
  ``hands[seat][v]`` is set when the hand holds the tile v-w (a double v-v is bit v
  of its number). The tiles that fit an end ``e`` are the bits of
  ``hands[seat][e]``, lowest first (`NUMBERS`), which is tile order. None for a
  seat not asked about yet.
- ``ends[slot]``: the number a train takes next (the engine number while it is
  unstarted, R13). Trains are numbered by *slot* here, whatever the table's size:
  seat i's train is slot i, the Mexican train is slot `MEXICAN_SLOT` (10, after
  every seat's), so that a bit set of slots lists trains in train order.
- ``marked``: the trains with a marker, as a bit set of slots (R15, R16).

One slot keeps the index of the state last asked about, and `rules.apply` brings it
up to date for the state it makes (a play takes a tile from a hand, changes a
train's end, may lift the player's marker; a draw adds a tile; a pass sets a
marker), so a playout or a computer match, which asks about each state it makes,
never builds one again. Any other state (a snapshot, a test, a replay, a state
asked about a second time) gets an index built from its fields (`build`): the
answers never depend on the slot. An index is mutable; whoever uses it takes it out
of the slot first (``_slot.pop``: one dictionary operation, atomic) and puts it back
with the state it then describes, so no two threads ever hold the same index.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .deal import MAX_PLAYERS
from .tiles import HIGHEST, Tile

if TYPE_CHECKING:
    from .state import RoundState


def _numbers() -> tuple[tuple[int, ...], ...]:
    numbers: tuple[tuple[int, ...], ...] = ((),)
    for w in range(HIGHEST + 1):  # the sets without w, then each of them with w
        numbers += tuple(some + (w,) for some in numbers)
    return numbers


#: ``NUMBERS[bits]``: the numbers in a bit set of 0–12, lowest first (8,192 short tuples)
NUMBERS: Final = _numbers()

#: ``BIT[w]``: the bit of number (or train) w; ``CLEAR[w]``: every bit but that one
BIT: Final[tuple[int, ...]] = tuple(1 << w for w in range(HIGHEST + 1))
CLEAR: Final[tuple[int, ...]] = tuple(~(1 << w) for w in range(HIGHEST + 1))


#: the Mexican train's slot (seat i's train is slot i)
MEXICAN_SLOT: Final = MAX_PLAYERS
MEXICAN_BIT: Final = 1 << MEXICAN_SLOT


def slot(train: int, players: int) -> int:
    """The slot of train index `train` (the Mexican train is index `players`)."""
    return MEXICAN_SLOT if train == players else train


class Index:
    """What the legal-move generator looks up about one state (see the module)."""

    __slots__ = ("hands", "ends", "marked")

    def __init__(self, hands: list[list[int] | None], ends: list[int], marked: int) -> None:
        self.hands = hands
        self.ends = ends
        self.marked = marked


def build(state: RoundState) -> Index:
    """The index of `state`, from its fields (no hand yet: `hand` makes each on demand)."""
    engine = state.engine
    trains = state.trains
    n = len(trains) - 1
    ends = [engine] * (MEXICAN_SLOT + 1)
    marked = 0
    for i, (tiles, marker) in enumerate(trains):
        at = slot(i, n)
        if tiles:
            ends[at] = tiles[-1][1]
        if marker:
            marked |= BIT[at]
    return Index([None] * n, ends, marked)


def hand(tiles: tuple[Tile, ...]) -> list[int]:
    """A hand by number (``Index.hands``)."""
    out = [0] * (HIGHEST + 1)
    for a, b in tiles:
        out[a] |= BIT[b]
        out[b] |= BIT[a]
    return out


#: the slot: at most one entry, under the key 0: (a state, its index)
_slot: dict[int, tuple[RoundState, Index]] = {}


def take(state: RoundState) -> Index | None:
    """The index of `state` if it is in the slot; the slot is left empty either way."""
    kept = _slot.pop(0, None)
    return kept[1] if kept is not None and kept[0] is state else None


def keep(state: RoundState, index: Index) -> None:
    """Put `index` in the slot as the index of `state` (the caller holds it)."""
    _slot[0] = (state, index)
