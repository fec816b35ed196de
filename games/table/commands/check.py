"""``check``: nothing — "send me a board only if the match moved past the last one you sent
me". A notice may be lost (the channel layer dropped or expired it under overload): the page
asks now and then, and gets the board it missed, else nothing. One indexed read of the
version answers the table's pages in this process that check after it began
(games.table.hub `Hub.checked_version`), so a table costs one read per round of checks, not
one per page."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.commands import Spec
from games.reads import selectors

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command


async def handle(t: Connection, c: Command) -> None:
    async def read() -> int | None:
        return await t.call(selectors.match_version, match_id=t.match_id)

    current = await (t.hub.checked_version(t, read) if t.hub is not None else read())
    if current is not None and current > t.sent_version:
        await t.send_board(newer_than=t.sent_version, version=current)


#: A check sends only the board the hub would have pushed (boards pushed are not checked
#: against the session either; a session's end closes the socket by its own notice), so it
#: costs no session check: answered from the table's last read, it costs no thread hop at all.
command = Spec(
    "check",
    (),
    handle,
    session_checked=False,
    says="send me a board only if the match moved past the one you sent (pages ask every 20 s)",
)
