"""``stand_in`` and ``take_back``: a computer plays an away person's seat, or its owner takes
it back (games.standin): ``seat``, ``request_id``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from games import standin
from games.table.commands import Handler, Spec
from games.table.commands.fields import REQUEST_ID, SEAT

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command


def _seat_change(service: Callable[..., Any]) -> Handler:
    async def handle(t: Connection, c: Command) -> None:
        result = await t.call(
            service, match_id=t.match_id, user=t.user, seat=c.seat, request_id=c.request_id
        )
        await t.ack(c, result)

    return handle


commands = [
    Spec("stand_in", (SEAT, REQUEST_ID), _seat_change(standin.standin_start)),
    Spec("take_back", (SEAT, REQUEST_ID), _seat_change(standin.standin_end)),
]
