"""``reveal``: the relay's "Show my tiles" (R24) for a pass-and-play ``seat`` of the user's: only
the seat the relay cover is up for on this device (games.permissions ``require_look``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games import permissions
from games.commands import Spec
from games.commands.fields import SEAT
from games.reads import selectors
from games.table import access

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command


def check_reveal(*, t: Connection, seat: int) -> None:
    """In a database thread: refuse unless `seat` is the user's and connection `t` covers it."""
    match = access.started_match(t.match_id)
    viewer = t.viewer(match)
    public = selectors.seat_view(match, None)
    permissions.require_look(
        viewer.controlled,
        viewer.cover_seat(public.turn, public.phase in ("round_over", "match_over")),
        seat,
        reveal=True,
    )


async def handle(t: Connection, c: Command) -> None:
    await t.call(check_reveal, t=t, seat=c.seat)
    t.revealed = c.seat
    await t.send_board()


command = Spec(
    "reveal", (SEAT,), handle, says='pass-and-play: "Show my tiles" behind the relay cover (R24)'
)
