"""``away_limit``: how long a seat may stay away before the others may let a computer play it
(a seated person; asked of the others at a shared table, games.consent): ``limit``,
``request_id``."""

from __future__ import annotations

from typing import Any

from games import standin
from games.table.commands import Spec
from games.table.commands.fields import LIMIT, REQUEST_ID


async def handle(t: Any, c: Any) -> None:
    result = await t.call(
        standin.away_limit_set,
        match_id=t.match_id,
        user=t.user,
        limit=c.limit,
        request_id=c.request_id,
    )
    await t.ack(c, result)


command = Spec("away_limit", (LIMIT, REQUEST_ID), handle)
