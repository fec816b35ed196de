"""The table over the Redis channel layer (channels-redis), as several server processes use it.

Needs Redis at REDIS_URL or 127.0.0.1:6379; skipped without it, except under
CI=true, where Redis runs and the tests must not skip.
"""

from __future__ import annotations

import asyncio
import io
import os
import socket
import uuid
from typing import Any
from urllib.parse import urlparse

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from engine.bots import choose
from engine.views import view
from games import services
from tests.conftest import in_ci
from tests.games.table.socket.conftest import db, hand_tiles, play, rid, seat_of, snapshot, state_of


def redis_url() -> str:
    url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/14"
    parsed = urlparse(url)
    try:
        socket.create_connection(
            (parsed.hostname or "127.0.0.1", parsed.port or 6379), timeout=1
        ).close()
    except OSError:
        message = f"Redis is not reachable at {url}"
        if in_ci():
            pytest.fail(message + " [CI=true: the Redis channel layer must be tested]")
        pytest.skip(message)
    return url


@pytest.fixture
def redis_layer(settings: Any) -> str:
    url = redis_url()
    # A prefix of its own, so that nothing else on this Redis hears these groups.
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "tablesite.layers.TableRedisChannelLayer",
            "CONFIG": {"hosts": [url], "prefix": f"test-{uuid.uuid4().hex[:8]}"},
        }
    }
    return url


def step_outside_any_event_loop(match_id: int) -> Any:
    """A computer step from a thread of its own, as ``run_computers`` runs it in another process."""
    try:
        return services.computer_step(match_id=match_id)
    finally:
        connection.close()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_two_consumers_share_the_table_through_redis(
    redis_layer: str, make_match: Any, alice: Any, bob: Any, connect: Any
) -> None:
    from channels.layers import get_channel_layer
    from channels_redis.core import RedisChannelLayer

    assert isinstance(get_channel_layer(), RedisChannelLayer)
    match = await db(make_match, "me", "human", "computer")
    await db(services.seat_join, match_id=match.pk, user=bob, token=match.invite_token)
    await db(play, match.pk, {0: alice, 1: bob}, until=lambda s: s.turn in (0, 1))
    a = await connect(match, alice)
    b = await connect(match, bob)
    state = await db(state_of, match.pk)
    mover, other, seat = (a, b, 0) if state.turn == 0 else (b, a, 1)
    await mover.send(
        type="act",
        seat=seat,
        action=choose(view(state, seat), "casual").to_json(),
        version=mover.version,
        request_id=rid(),
    )
    version = (await mover.expect("ack"))["version"]
    mine, theirs = await mover.expect("board"), await other.board(at_least=version)
    assert mine["version"] == theirs["version"] == version
    assert (seat_of(mine), seat_of(theirs)) == (seat, 1 - seat)
    after = await db(state_of, match.pk)
    assert sorted(hand_tiles(theirs)) == sorted(f"{max(t)}-{min(t)}" for t in after.hands[1 - seat])
    # A computer's move made outside this event loop (another process, in production) reaches both.
    await db(play, match.pk, {0: alice, 1: bob}, until=lambda s: s.turn == 2)
    version = (await db(snapshot, match.pk))[0]
    await a.catch_up(version)
    await b.catch_up(version)
    assert await asyncio.get_running_loop().run_in_executor(
        None, step_outside_any_event_loop, match.pk
    )
    for browser in (a, b):
        assert (await browser.board(at_least=version + 1))["version"] == version + 1


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_run_computers_once_plays_and_the_table_hears_it(
    redis_layer: str, make_match: Any, alice: Any, connect: Any
) -> None:
    match = await db(make_match, "me", "computer")
    await db(play, match.pk, {0: alice}, until=lambda s: s.turn == 1)
    me = await connect(match, alice)
    out = io.StringIO()
    await db(call_command, "run_computers", "--once", "--delay", "0", stdout=out)
    assert out.getvalue().strip() == "computer actions taken: 1"
    assert (await me.board())["version"] == me.version == (await db(snapshot, match.pk))[0]


def test_run_computers_refuses_the_in_memory_layer(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    with pytest.raises(CommandError, match="REDIS_URL"):
        call_command("run_computers", "--once")
