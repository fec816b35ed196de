"""After Redis restarts, the first table page to connect is let in.

Before: each server process's channel layer kept its Redis connections in a pool, all
dead once Redis restarted, and redis-py (no retry policy, as channels-redis builds its
pools) failed the first command on one: the first page to connect after the restart
(its ``group_add``) was closed with 4503 (LAYER_RESTART) and had to reconnect. Now the
layer's connections retry a broken connection (tablesite.env.redis_retry), so that page
gets its board like any other. Redis really gone still closes it with 4503.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from games import services
from games.table.consumers import LAYER_RESTART
from tablesite.env import channel_layers
from tests.faults.conftest import db
from tests.games.table.socket.conftest import TIMEOUT, Browser, session_cookie, spec
from tests.servers import Processes

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True), pytest.mark.slow]


async def page(match_id: int, cookie: str) -> WebsocketCommunicator:
    from tablesite.asgi import application

    communicator = WebsocketCommunicator(
        application,
        f"/ws/m/{match_id}/",
        headers=[
            (b"origin", b"http://testserver"),
            (b"host", b"testserver"),
            (b"cookie", f"sessionid={cookie}".encode()),
        ],
    )
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected
    return communicator


async def test_the_first_page_after_a_redis_restart_gets_its_board(
    procs: Processes, users: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPUTER_WORKER", "off")
    redis = procs.redis()
    settings.CHANNEL_LAYERS = channel_layers(
        redis.url
    )  # a fresh layer, as a server with REDIS_URL has
    (alice,) = await db(users, "alice")
    match = await db(services.match_create, creator=alice, seats=[spec("me"), spec("computer")])
    cookie = await db(session_cookie, alice)

    before = await page(match.pk, cookie)  # the layer's pool now holds live connections
    await Browser(before).expect("board")
    await before.disconnect(timeout=TIMEOUT)

    redis.kill()
    redis.start()

    after = await page(match.pk, cookie)
    out = await after.receive_output(TIMEOUT)
    assert out["type"] == "websocket.send", out  # not {"type": "websocket.close", "code": 4503}
    assert '"type": "board"' in out["text"] or '"type":"board"' in out["text"]
    await after.disconnect(timeout=TIMEOUT)

    # Redis gone for good: the page is still closed quietly, to reconnect later.
    redis.kill()
    gone = await page(match.pk, cookie)
    out = await gone.receive_output(TIMEOUT)
    while out["type"] == "websocket.send":
        out = await gone.receive_output(TIMEOUT)
    assert out == {"type": "websocket.close", "code": LAYER_RESTART}
