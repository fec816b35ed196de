"""``sync``: nothing — "send me a fresh board"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.commands import Spec

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command


async def handle(t: Connection, c: Command) -> None:
    await t.send_board(whole=True)


command = Spec("sync", (), handle, says="send me a whole board")
