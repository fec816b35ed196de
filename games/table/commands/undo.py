"""``undo``: R27: take back the user's last action (asked of the others at a shared table): ``version``, ``request_id``."""

from __future__ import annotations

from typing import Any

from games import services
from games.table.commands import Spec
from games.table.commands.fields import REQUEST_ID, VERSION


async def handle(t: Any, c: Any) -> None:
    result = await t.call(
        services.match_undo,
        match_id=t.match_id,
        user=t.user,
        expected_version=c.version,
        request_id=c.request_id,
    )
    await t.ack(c, result)


command = Spec("undo", (VERSION, REQUEST_ID), handle)
