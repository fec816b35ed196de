"""``panel``: the rules or the log opened or closed (R26): ``open``. Spectators may read the
rules too, but only players pause the computers."""

from __future__ import annotations

from typing import Any

from games import services
from games.table.commands import Spec


async def handle(t: Any, c: Any) -> None:
    if c.open:
        # Sent again while the panel stays open: it renews the pause (it expires otherwise).
        t.pausing = await t.call(t.pause_open)
    elif t.pausing:
        await t.call(services.pause_close, match_id=t.match_id, channel=t.channel_name)
        t.pausing = False  # only once ended: a failed close is ended again with the connection


command = Spec("panel", frozenset({"open"}), handle)
