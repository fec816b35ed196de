"""One socket's flood of frames is bounded (games.table.budget).

Before: no per-connection limit. One spectator's 10,000 ``sync`` frames were each
answered with a board, queuing minutes of board work on the server. Now a connection
has a token bucket, spent as its frames arrive (`budget.Metered`) (`budget.BURST` frames at once, `budget.RATE` a second): past it, a
frame is dropped undecoded, the first of a run is answered with one ``too_many`` error
and, after `budget.TOLERANCE` more, the connection is closed with `budget.CLOSE_CODE`.
The table beside it keeps answering its player meanwhile.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from games.table import budget
from games.table.budget import Budget, Verdict
from tests.games.table.socket.conftest import TIMEOUT, Browser, db

pytestmark = [pytest.mark.django_db(transaction=True)]

FLOOD = 10_000


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_budget_allows_a_burst_then_its_rate_then_warns_once_and_closes() -> None:
    clock = Clock()
    bucket = Budget(rate=2.0, burst=3, tolerance=4, clock=clock)
    assert [bucket.spend() for _n in range(3)] == [Verdict.ACCEPT] * 3  # a burst
    assert bucket.spend() is Verdict.WARN  # the first frame past it: one error
    assert bucket.spend() is Verdict.DROP  # then silence
    clock.now += 0.5  # half a second: one more frame's worth
    assert bucket.spend() is Verdict.ACCEPT
    assert bucket.spend() is Verdict.WARN  # a new run of refusals is told again
    assert [bucket.spend() for _n in range(3)] == [Verdict.DROP, Verdict.DROP, Verdict.CLOSE]
    clock.now += 3600  # an hour idle fills the bucket only to its size
    assert [bucket.spend() for _n in range(4)] == [Verdict.ACCEPT] * 3 + [Verdict.WARN]


def test_a_page_at_its_busiest_stays_within_the_budget() -> None:
    """A page checks every 20 s (tests: every 0.3 s) and a person clicks a few times a second."""
    clock = Clock()
    bucket = Budget(clock=clock)
    for _n in range(600):  # a minute of five frames a second, plus a burst of 20 on connect
        clock.now += 0.2
        assert bucket.spend() is Verdict.ACCEPT
    assert all(bucket.spend() is Verdict.ACCEPT for _n in range(20))


@pytest.mark.slow
@pytest.mark.asyncio
async def test_a_flood_of_10000_syncs_is_cut_off_while_the_table_beside_it_keeps_its_pace(
    make_match: Any, alice: Any, connect: Any
) -> None:
    match = await db(make_match, "me", "computer")
    player: Browser = await connect(match, alice)
    spectator: Browser = await connect(match, watch=match.watch_token)
    # the player's round trip before the flood
    started = time.monotonic()
    await player.alive()
    before = time.monotonic() - started

    flooder: WebsocketCommunicator = spectator.communicator
    frame = json.dumps({"type": "sync"})
    for _n in range(FLOOD):  # queued at once, as a socket's frames are
        await flooder.send_input({"type": "websocket.receive", "text": frame})

    # While the flood is being handled, the player's page is answered as before.
    during = []
    for _n in range(3):
        started = time.monotonic()
        await player.alive()
        during.append(time.monotonic() - started)
    assert max(during) < max(5.0, 20 * before), (before, during)

    # The flooder gets at most its budget's boards, one error in words, then the close.
    boards, errors = 0, []
    started = time.monotonic()
    while True:
        out = await flooder.receive_output(TIMEOUT)
        if out["type"] == "websocket.close":
            assert out["code"] == budget.CLOSE_CODE
            break
        message = json.loads(out["text"])
        if message["type"] == "error":
            errors.append(message)
        else:
            boards += 1
    cut_off = time.monotonic() - started
    print(
        f"\nflood: player's sync {before:.3f} s before, {max(during):.3f} s at most during; "
        f"flooder cut off after {boards} boards in {cut_off:.2f} s"
    )
    assert [e["code"] for e in errors] == [budget.TOO_MANY]
    assert "too many messages" in errors[0]["message"]
    # The frames are counted as they arrive (all at once here), not as they are handled: the
    # bucket's size, give or take a second's refill. (Counted as handled, a busy server that
    # took longer than 1/RATE per board never found the flood too fast: 2,264 boards.)
    assert boards <= budget.BURST + budget.RATE, (boards, cut_off)
    await flooder.send_input({"type": "websocket.disconnect", "code": budget.CLOSE_CODE})
    await player.alive()
