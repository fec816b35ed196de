"""Turn e-mails and the table's websocket: while a player has a table open no e-mail goes;
closing the last connection starts the time away (games/history/mail.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from games.attendance import presence
from games.history.mail import send_turn_mails
from games.history.models import TurnMail
from games.models import Match, Presence
from tests.games.history.test_turn_mail import confirmed
from tests.games.table.socket.conftest import db, play

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def open_rows(user: Any) -> int:
    """The user's table connections open now (games.attendance.presence)."""
    return Presence.objects.filter(user=user, closed=False).count()


async def test_no_turn_mail_while_a_table_is_open(
    make_match: Any, alice: Any, connect: Any
) -> None:
    def prepare() -> Match:
        alice.email = "alice@example.org"
        alice.save()
        confirmed(alice)  # turn e-mails go to confirmed addresses only
        TurnMail.objects.create(user=alice, enabled=True, after_minutes=15)
        match = make_match("me", "computer")
        play(
            match.pk,
            {0: alice},
            until=lambda s: s.turn == 0 and s.phase in ("engine", "first", "play"),
        )
        return match

    match = await db(prepare)
    await db(
        lambda: Match.objects.filter(pk=match.pk).update(
            updated_at=timezone.now() - timedelta(hours=1)
        )
    )
    later = timezone.now() + timedelta(hours=1)
    first = await connect(match, alice)
    second = await connect(match, alice)  # two tabs
    assert await db(open_rows, alice) == 2
    assert await db(send_turn_mails) == 0
    await first.communicator.disconnect()
    assert await db(open_rows, alice) == 1
    assert await db(send_turn_mails) == 0
    await second.communicator.disconnect()
    assert await db(open_rows, alice) == 0
    assert await db(send_turn_mails) == 0  # just left
    assert await db(send_turn_mails, now=later) == 1
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["alice@example.org"]
    # a spectator's connection counts for nobody
    await connect(match, None, watch=match.watch_token)
    assert await db(lambda: Presence.objects.filter(closed=False).count()) == 0
    assert await db(presence.connected, user_id=alice.pk) is False
