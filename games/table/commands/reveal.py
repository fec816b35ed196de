"""``reveal``: the relay's "Show my tiles" (R24) for a pass-and-play ``seat`` of the user's."""

from __future__ import annotations

from typing import Any

from games.table.commands import Spec


async def handle(t: Any, c: Any) -> None:
    await t.call(t.check_reveal, seat=c.seat)
    t.revealed = c.seat
    await t.send_board()


command = Spec("reveal", frozenset({"seat"}), handle)
