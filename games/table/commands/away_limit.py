"""``away_limit``: how long a seat may stay away before the others may let a computer play it
(a seated person; asked of the others at a shared table, games.consent): ``limit``,
``request_id``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _

from games import consent, standin
from games.standin import consent_away_limit
from games.table.commands import Spec
from games.table.commands.fields import LIMIT, REQUEST_ID
from games.words import change_words

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command

#: asked of the others at a shared table (games.consent); the request carries the new limit
KIND = consent.register(
    consent.Kind(
        name="away_limit",
        label=_("Away limit"),
        **change_words("away_limit"),
        done=consent_away_limit,
    )
)


async def handle(t: Connection, c: Command) -> None:
    result = await t.call(
        standin.away_limit_set,
        match_id=t.match_id,
        user=t.user,
        limit=c.limit,
        request_id=c.request_id,
    )
    await t.ack(c, result)


command = Spec("away_limit", (LIMIT, REQUEST_ID), handle)
