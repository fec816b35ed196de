"""``skip``: "Skip to my turn": the computers play without waiting until a person is to act:
``request_id``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games import services
from games.table.commands import Spec
from games.table.commands.fields import REQUEST_ID

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command


async def handle(t: Connection, c: Command) -> None:
    result = await t.call(
        services.hurry_start, match_id=t.match_id, user=t.user, request_id=c.request_id
    )
    await t.ack(c, result)


command = Spec("skip", (REQUEST_ID,), handle)
