"""``act``: play one action of the replay format for a seat (R7-R22): ``seat``, ``action``,
``version``, ``request_id``. The service checks that the seat is the user's (R24) and the
move legal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games import services
from games.commands import Spec
from games.commands.fields import ACTION, REQUEST_ID, SEAT, VERSION

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command


async def handle(t: Connection, c: Command) -> None:
    result = await t.call(
        services.action_submit,
        match_id=t.match_id,
        user=t.user,
        seat=c.seat,
        action=c.action,
        expected_version=c.version,
        request_id=c.request_id,
        session=t.session_to_check(),  # checked with the lock: no statement of its own
    )
    await t.ack(c, result)


command = Spec(
    "act",
    (SEAT, ACTION, VERSION, REQUEST_ID),
    handle,
    says="play, draw, pass, end a first turn, confirm the engine (R7–R22): `action` is a replay-format action (`act`, `tile`, `train`)",
)
