"""``hint``: R23, R25 — a hint for the user's own ``seat``."""

from __future__ import annotations

from typing import Any

from games.table.commands import Spec


async def handle(t: Any, c: Any) -> None:
    await t.send_json(await t.call(t.hint, seat=c.seat))


command = Spec("hint", frozenset({"seat"}), handle)
