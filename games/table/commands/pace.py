"""``pace``: a seated person sets the computers' pace: ``pace``, ``request_id``
(games.permissions PACE, in the service)."""

from __future__ import annotations

from typing import Any

from games import services
from games.table.commands import Spec
from games.table.commands.fields import PACE, REQUEST_ID


async def handle(t: Any, c: Any) -> None:
    result = await t.call(
        services.pace_set, match_id=t.match_id, user=t.user, pace=c.pace, request_id=c.request_id
    )
    await t.ack(c, result)


command = Spec("pace", (PACE, REQUEST_ID), handle)
