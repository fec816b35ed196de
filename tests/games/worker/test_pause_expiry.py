"""A pause nobody renews (R26: a panel open on a page whose socket went
silent) holds the computers no longer than `selectors.PAUSE_TIMEOUT`.

Before: the loop noticed the expiry only at its next poll (a second in the one server
process), so the computers waited 30.65 s where the limit is 30. Now a paused match
is due the moment its pause expires, and the loop wakes then (games.worker.paused_until).
The timeout is shortened to one second and the poll lengthened to ten here, so the
difference cannot hide in the noise of a busy machine (woken at the expiry, not at a poll:
within half a poll of it).
"""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from typing import Any

import pytest

from games import services
from games.reads import selectors
from games.worker import ComputerWorker
from tests.games.table.socket.conftest import db, play, snapshot

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

TIMEOUT = 1.0
POLL = 10.0


@pytest.mark.slow
async def test_a_pause_nobody_renews_holds_the_computers_no_longer_than_its_timeout(
    make_match: Any, alice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(selectors, "PAUSE_TIMEOUT", timedelta(seconds=TIMEOUT))
    # the services read their own copy: the computers' lock (moves) and the pauses' expiry
    monkeypatch.setattr(services.moves, "PAUSE_TIMEOUT", timedelta(seconds=TIMEOUT))
    monkeypatch.setattr(services.pauses, "PAUSE_TIMEOUT", timedelta(seconds=TIMEOUT))
    match = await db(make_match, "me", "computer")
    await db(play, match.pk, {0: alice}, until=lambda s: s.turn == 1)
    before = (await db(snapshot, match.pk))[0]
    await db(services.pause_open, match_id=match.pk, user=alice, channel="a silent socket")
    opened = time.monotonic()
    worker = ComputerWorker(delay=0, poll=POLL)
    loop = asyncio.create_task(worker.run())
    try:
        while (await db(snapshot, match.pk))[0] == before:
            assert time.monotonic() - opened < POLL + 5, "the computers never resumed"
            await asyncio.sleep(0.02)
        held = time.monotonic() - opened
    finally:
        worker.stop()
        await loop
    assert TIMEOUT <= held < TIMEOUT + POLL / 2, held
