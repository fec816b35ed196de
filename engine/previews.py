"""Previews (R23): pure questions about a view that change nothing and reveal nothing.

Where a selected tile may go, what a hint suggests and what ending a first turn would
leave open — all from the viewer's own `SeatView`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .bots import Choice, decide
from .state import Action, TrainKey
from .tiles import Tile, is_double
from .views import SeatView


def targets(view: SeatView, tile: Tile) -> list[TrainKey]:
    """The trains `tile` may be played on now (empty when it fits nowhere)."""
    return [
        a.train for a in view.legal if a.act == "play" and a.tile == tile and a.train is not None
    ]


def hint(view: SeatView) -> Choice | None:
    """R23/R25: the play the expert computer player would make; nothing is played."""
    if not view.legal:
        return None
    return decide(view, "expert")


@dataclass(frozen=True, slots=True)
class EndPreview:
    """What ending the first turn now leaves behind (R9, R11)."""

    placed: int
    #: the double left at the end of the own train, open once first turns are over
    open_double: Tile | None


def end_preview(view: SeatView) -> EndPreview | None:
    """Preview of ending the first turn; None when ending is not legal now."""
    if view.seat is None or Action("end", view.seat) not in view.legal:
        return None
    tiles = view.train(view.seat).tiles
    last = tiles[-1] if tiles else None
    return EndPreview(
        placed=view.placed, open_double=last if last is not None and is_double(last) else None
    )
