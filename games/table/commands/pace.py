"""``pace``: a seated person sets the computers' pace: ``pace``, ``request_id``: its rule
(`MAY`, which skip and away_limit share: who may change how the computers and absent seats
are run) and its service `pace_set`, on the table settings' kernel."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games import permissions
from games.commands import Spec
from games.commands.fields import PACE, REQUEST_ID
from games.services import Result, setting_set
from games.services.store import _pace_unknown
from games.words import sentence

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command

#: who may set the computers' pace (and skip to their turn, and the away limit): a player of
#: the match
MAY = permissions.rule(
    "pace",
    lambda can, seat, request: bool(can.mine),
    lambda: sentence("players_pace"),
)


def pace_set(*, match_id: int, user: object, pace: object, request_id: str) -> Result:
    """A seated person sets how fast the computers of the match move (Match.Pace); everyone
    at the table sees the new pace with the new version. Spectators and strangers cannot."""
    return setting_set(
        match_id=match_id,
        user=user,
        request_id=request_id,
        action=MAY,
        field="pace",
        value=pace,
        unknown=_pace_unknown(),
        over=sentence("computers_stopped"),
        same=sentence("same_pace"),
    )


async def handle(t: Connection, c: Command) -> None:
    result = await t.call(
        pace_set, match_id=t.match_id, user=t.user, pace=c.pace, request_id=c.request_id
    )
    await t.ack(c, result)


command = Spec(
    "pace",
    (PACE, REQUEST_ID),
    handle,
    says="the computers' pace: `relaxed`, `normal`, `fast` or `instant`",
)
