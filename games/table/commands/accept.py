"""``accept`` and ``decline``: another person's answer to the open request at a shared table
(games.consent: undo, restart, ending after this round, the away limit): ``ask`` (the id of
the request the board showed), ``request_id``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games import services
from games.commands import Spec
from games.commands.fields import ASK, REQUEST_ID

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command


async def handle(t: Connection, c: Command) -> None:
    result = await t.call(
        services.change_answer,
        match_id=t.match_id,
        user=t.user,
        ask=c.ask,
        accept=c.type == "accept",
        request_id=c.request_id,
    )
    await t.ack(c, result)


commands = [
    Spec(
        "accept",
        (ASK, REQUEST_ID),
        handle,
        says="accept another person's request `ask` at a shared table",
    ),
    Spec(
        "decline",
        (ASK, REQUEST_ID),
        handle,
        says="decline another person's request `ask` at a shared table",
    ),
]
