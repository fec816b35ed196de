"""Real daphne processes on one database agree on the channel layer, or the newcomer refuses.

A server on Redis runs; a second one started without ``REDIS_URL`` (it served, logging
"computer players: worker started in process", and its pages missed the first one's
moves), or on another database number of the same Redis, exits with status 3 before it
listens, in one log line and no traceback. The first one killed with SIGKILL stops
counting at once: a server without Redis then starts, and one on Redis is refused beside
it. (The guard itself, case by case: tests/games/table/socket/test_layer_agreement.py.)
"""

from __future__ import annotations

import asyncio

import pytest

from tests.servers import Daphne, Processes

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True), pytest.mark.slow]


async def assert_refused(server: Daphne, *labels: str) -> None:
    with pytest.raises(RuntimeError, match="exited with 3"):
        await asyncio.to_thread(server.start)
    log = server.log()
    refusal = [line for line in log.splitlines() if "refuses to start" in line]
    assert len(refusal) == 1, log
    for label in labels:
        assert label in refusal[0], refusal[0]
    assert "Traceback" not in log and "worker started" not in log, log


async def test_a_server_of_another_layer_is_refused(procs: Processes) -> None:
    redis = procs.redis()
    on_redis = procs.daphne(redis_url=redis.url, COMPUTER_WORKER="off")

    without_redis = procs.daphne(start=False)
    await assert_refused(without_redis, "the in-memory layer", f"{redis.url} on ")

    other_db = redis.url.removesuffix("/0") + "/1"
    await assert_refused(procs.daphne(redis_url=other_db, start=False), f"{other_db} on ")

    on_redis.kill()
    await asyncio.to_thread(without_redis.start)
    assert without_redis.running
    await assert_refused(
        procs.daphne(redis_url=redis.url, COMPUTER_WORKER="off", start=False),
        f"{redis.url} on ",
        "the in-memory layer",
    )
