"""``restart``: R28: restart the round with its deal (asked of the others at a shared table): ``version``, ``request_id``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _

from games import consent, services
from games.services.changes import consent_restart
from games.table.commands import Spec
from games.table.commands.fields import REQUEST_ID, VERSION
from games.words import change_words

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command

#: asked of the others at a shared table (games.consent)
KIND = consent.register(
    consent.Kind(
        name="restart",
        label=_("Restart round"),
        **change_words("restart"),
        done=consent_restart,
    )
)


async def handle(t: Connection, c: Command) -> None:
    result = await t.call(
        services.round_restart,
        match_id=t.match_id,
        user=t.user,
        expected_version=c.version,
        request_id=c.request_id,
    )
    await t.ack(c, result)


command = Spec("restart", (VERSION, REQUEST_ID), handle)
