"""``autodraw``: "draw and pass for me when I have no play", a player's own preference kept on
their account: ``on``. This connection's board shows it at once; the user's other pages read
it when they next connect."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games import services
from games.commands import Spec
from games.commands.fields import ON

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command


async def handle(t: Connection, c: Command) -> None:
    t.autodraw = await t.call(services.autodraw_set, match_id=t.match_id, user=t.user, on=c.on)
    await t.send_board()


command = Spec(
    "autodraw",
    (ON,),
    handle,
    says='"Draw and pass for me when I have no play" (kept on the account)',
)
