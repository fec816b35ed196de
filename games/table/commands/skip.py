"""``skip``: "Skip to my turn": the computers play without waiting until a person is to act:
``request_id``."""

from __future__ import annotations

from typing import Any

from games import services
from games.table.commands import Spec
from games.table.commands.fields import REQUEST_ID


async def handle(t: Any, c: Any) -> None:
    result = await t.call(
        services.hurry_start, match_id=t.match_id, user=t.user, request_id=c.request_id
    )
    await t.ack(c, result)


command = Spec("skip", (REQUEST_ID,), handle)
