"""``next_round``: R21: start the next round once this one is over: ``version``, ``request_id``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games import services
from games.commands import Spec
from games.commands.fields import REQUEST_ID, VERSION

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command


async def handle(t: Connection, c: Command) -> None:
    result = await t.call(
        services.round_next,
        match_id=t.match_id,
        user=t.user,
        expected_version=c.version,
        request_id=c.request_id,
    )
    await t.ack(c, result)


command = Spec(
    "next_round", (VERSION, REQUEST_ID), handle, says="start the next round after the scores (R21)"
)
