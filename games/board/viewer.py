"""Who may see what at the table (R24): a connection's `Viewer`.

A viewer is the seats a connection (or an HTTP page) may act for — its own seat and its
pass-and-play seats, none for a spectator — and, on a shared device, the seat whose
player last pressed "Show my tiles". `shown_seat` says whose view to render (None: the
spectator view, no hand), `cover_seat` whether the relay cover is up and for whom.
games.board.presenter refuses to present a hand to a viewer who does not play it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Viewer:
    """Who a connection (or an HTTP page) belongs to.

    `controlled`: the seats this user may act for (their own seat and their
    pass-and-play seats; empty for a spectator). `revealed`: on a shared device,
    the seat whose player last pressed "Show my tiles" (R24).
    """

    user: Any = None
    controlled: tuple[int, ...] = ()
    revealed: int | None = None
    #: the user's "draw and pass for me when I have no play" (accounts.models.Preferences.autodraw)
    autodraw: bool = False

    @property
    def spectator(self) -> bool:
        return not self.controlled

    @property
    def relay(self) -> bool:
        """Several seats share this screen: hands hide between their turns (R24)."""
        return len(self.controlled) > 1

    def cover_seat(self, turn: int | None, over: bool) -> int | None:
        """The seat to pass the device to while the relay cover is up, else None."""
        if not self.relay or over or turn not in self.controlled or self.revealed == turn:
            return None
        return turn

    def shown_seat(self, turn: int | None, over: bool) -> int | None:
        """Whose view to render: None for spectators, under the cover, or before anyone revealed."""
        if not self.controlled:
            return None
        if not self.relay:
            return self.controlled[0]
        if over:
            # Every hand is face up now (R21); keep the perspective of who held the device.
            return self.revealed if self.revealed in self.controlled else self.controlled[0]
        if self.cover_seat(turn, over) is not None:
            return None
        return self.revealed if self.revealed in self.controlled else None
