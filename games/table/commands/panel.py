"""``panel``: the rules or the log opened or closed (R26): ``open``. Spectators may read the
rules too, but only players pause the computers (games.services.pauses `MAY_PAUSE`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games import permissions, services
from games.commands import Spec
from games.commands.fields import OPEN
from games.table import access

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command


def pause_open(*, t: Connection) -> bool:
    """In a database thread: pause the computers for connection `t`, if its user may."""
    match = access.started_match(t.match_id)
    if not permissions.may(t.user, services.pauses.MAY_PAUSE, match):
        return False
    services.pause_open(match_id=t.match_id, user=t.user, channel=t.channel_name)
    return True


async def handle(t: Connection, c: Command) -> None:
    if c.open:
        # Sent again while the panel stays open: it renews the pause (it expires otherwise).
        t.pausing = await t.call(pause_open, t=t)
    elif t.pausing:
        await t.call(services.pause_close, match_id=t.match_id, channel=t.channel_name)
        t.pausing = False  # only once ended: a failed close is ended again with the connection


command = Spec(
    "panel",
    (OPEN,),
    handle,
    says="the rules or log opened or closed: the computers pause (R26), renewed every 10 s",
)
