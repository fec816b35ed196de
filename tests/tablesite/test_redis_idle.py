"""A table left idle stays connected through Redis (found by bench/load.py --processes 2).

channels-redis waits for a connection's next message with a blocking pop of up to
5 s, and redis-py 8 abandons any read after 5 s unless told otherwise: every idle
websocket was closed with 1011 after about 5 s. tablesite/env.py gives the Redis
connections a longer read timeout. Here a real daphne with the Redis channel layer
serves two players who say nothing for 8 s; then one plays and both see the move.

Needs PostgreSQL and Debian's redis-server: the layer is a private Redis on a free port
(`tests.servers.Redis`), which no other test process hears; match ids repeat across the
test processes' databases.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from bench.load import session_cookie
from bench.load_clients import choose
from bench.load_server import Servers, server_env
from games import services
from games.services import SeatSpec
from tests import seeded
from tests.servers import processes

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

IDLE = 8.0


async def until_board(ws: Any, at_least: int) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), timeout=20))
        if message["type"] == "board" and message["version"] >= at_least:
            return message
        if message["type"] == "update" and message["v"] >= at_least:  # only the changed parts
            return {**message, "version": message["v"]}


def test_idle_websockets_stay_open_and_hear_the_next_move(django_user_model: Any) -> None:
    players = [django_user_model.objects.create_user(f"idle{i}") for i in range(2)]
    match = seeded.match_create(
        creator=players[0], seed=3, listed=False, seats=[SeatSpec("me"), SeatSpec("human")]
    )
    services.seat_join(match_id=match.pk, user=players[1], token=match.invite_token)
    cookies = [session_cookie(u) for u in players]

    params = connection.settings_dict  # the test database, which the server must use too
    url = (
        f"postgres://{params['USER']}{':' + params['PASSWORD'] if params.get('PASSWORD') else ''}"
        f"@{params['HOST'] or '127.0.0.1'}:{params['PORT'] or 5432}/{params['NAME']}"
    )
    with processes() as procs:
        redis = procs.redis()
        env = server_env(url, redis_url=redis.url, conn_max_age=0)
        env.update(SECRET_KEY=settings.SECRET_KEY, COMPUTER_WORKER="off")
        servers = Servers(env=env, count=1)
        serve_idle_players(servers, match.pk, cookies)


def serve_idle_players(servers: Servers, match_id: int, cookies: list[str]) -> None:
    from websockets.asyncio.client import connect
    from websockets.typing import Origin

    try:
        servers.start()
        port = servers.ports[0]

        async def play() -> None:
            sockets = [
                await connect(
                    f"ws://127.0.0.1:{port}/ws/m/{match_id}/",
                    origin=Origin(f"http://127.0.0.1:{port}"),
                    additional_headers={"Cookie": f"sessionid={c}"},
                    ping_interval=None,
                )
                for c in cookies
            ]
            boards = [await until_board(ws, 0) for ws in sockets]
            await asyncio.sleep(IDLE)  # nothing is said either way
            mover = next(i for i, b in enumerate(boards) if b["your_turn"])
            version = boards[mover]["version"]
            action = choose(boards[mover]["html"], mover)
            await sockets[mover].send(
                json.dumps(
                    {
                        "type": "act",
                        "seat": mover,
                        "action": action,
                        "version": version,
                        "request_id": uuid.uuid4().hex,
                    }
                )
            )
            for ws in sockets:
                assert (await until_board(ws, version + 1))["version"] == version + 1
            for ws in sockets:
                await ws.close()

        asyncio.run(play())
        assert servers.alive()
        assert "Timeout reading" not in servers.servers[0].log_path.read_text()
    finally:
        servers.stop()
