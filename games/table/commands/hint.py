"""``hint``: R23, R25 — a hint for the user's own ``seat``: a suggested play from that seat's
view, for the seat whose hand this connection shows (games.permissions ``require_look``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games import permissions
from games.board.words import hint_message
from games.commands import Spec
from games.commands.fields import SEAT
from games.reads import selectors
from games.table import access

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command


def hint(*, t: Connection, seat: int) -> dict[str, Any]:
    """In a database thread: the hint frame for `seat`, refused unless connection `t` shows its hand."""
    match = access.started_match(t.match_id)
    viewer = t.viewer(match)
    public = selectors.seat_view(match, None)
    permissions.require_look(
        viewer.controlled,
        viewer.shown_seat(public.turn, public.phase in ("round_over", "match_over")),
        seat,
    )
    return hint_message(selectors.seat_view(match, seat))


async def handle(t: Connection, c: Command) -> None:
    await t.send_json(await t.call(hint, t=t, seat=c.seat))


command = Spec("hint", (SEAT,), handle, says="a hint for the seat to act (R23, R25)")
