"""``sync``: nothing — "send me a fresh board"."""

from __future__ import annotations

from typing import Any

from games.table.commands import Spec


async def handle(t: Any, c: Any) -> None:
    await t.send_board(whole=True)


command = Spec("sync", (), handle)
