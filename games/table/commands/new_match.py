"""``new_match``: R29, a new match at the same table once this one is over: ``version``,
``request_id``. Asking again with the same request id gives the same new match (the service
has no expected version: there is one new match per finished one)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.urls import reverse

from games import services
from games.table.commands import Spec
from games.table.commands.fields import REQUEST_ID, VERSION

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command


async def handle(t: Connection, c: Command) -> None:
    new = await t.call(
        services.table_new_match, match_id=t.match_id, user=t.user, request_id=c.request_id
    )
    await t.send_json(
        {
            "type": "redirect",
            "request_id": c.request_id,
            "url": reverse("games:table", args=[new.pk]),
        }
    )


command = Spec("new_match", (VERSION, REQUEST_ID), handle)
