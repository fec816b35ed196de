"""``pace``: a seated person sets the computers' pace: ``pace``, ``request_id``
(games.permissions PACE, in the service)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games import services
from games.table.commands import Spec
from games.table.commands.fields import PACE, REQUEST_ID

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command


async def handle(t: Connection, c: Command) -> None:
    result = await t.call(
        services.pace_set, match_id=t.match_id, user=t.user, pace=c.pace, request_id=c.request_id
    )
    await t.ack(c, result)


command = Spec("pace", (PACE, REQUEST_ID), handle)
