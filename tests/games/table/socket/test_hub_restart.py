"""A Redis restart forgets every group and every notice in flight (games.table.hub, `Station`).

The layer's connections retry through it, so nothing raises: a process knows Redis is a
new one by its run id. Its hubs then read their tables again once their groups are joined
again, so a notice sent between the restart and that join (a turn given to a person on
this process, whose next notice would be their own move) is not waited for in vain.
tests/faults/test_redis.py restarts a real Redis under two servers; here the station's
decision is checked alone, on a stand-in for the layer.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from games.table import hub as hubs

pytestmark = pytest.mark.asyncio


class RedisLayer:
    """What the station asks of channels-redis: a shard's client (`connection`), its
    number of shards, and joining a group."""

    ring_size = 1

    def __init__(self) -> None:
        self.run_id = "first"
        self.down = False
        self.joins = 0
        self.asked = 0

    def connection(self, index: int) -> Any:
        layer = self

        class Client:
            async def info(self, section: str) -> dict[str, Any]:
                assert section == "server"
                layer.asked += 1
                if layer.down:
                    raise ConnectionError("Redis is down")
                return {"run_id": layer.run_id}

        return Client()

    async def group_add(self, group: str, channel: str) -> None:
        self.joins += 1


class Table:
    """A hub as the station sees it: told of notices (and how many joins came before each)."""

    def __init__(self, layer: RedisLayer) -> None:
        self.layer = layer
        self.notices: list[dict[str, Any]] = []
        self.joins_before: list[int] = []

    def notice(self, message: dict[str, Any]) -> None:
        self.notices.append(message)
        self.joins_before.append(self.layer.joins)


def station_on(layer: RedisLayer) -> hubs.Station:
    station = hubs.Station()
    station.layer = layer
    station.channel = "specific.test!hub"
    return station


async def test_a_new_run_id_says_redis_restarted_and_a_down_redis_says_nothing_yet() -> None:
    layer = RedisLayer()
    station = station_on(layer)
    assert await station._store_restarted() is False  # the first look: nothing to compare
    assert await station._store_restarted() is False  # the same Redis
    layer.down = True
    assert await station._store_restarted() is False  # down: asked again at the next renewal
    layer.down, layer.run_id = False, "second"
    assert await station._store_restarted() is True  # back, and a new one
    assert await station._store_restarted() is False  # told once


async def test_after_a_restart_every_hub_reads_its_table_again_once_joined(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(hubs, "REDIS_REJOIN_SECONDS", 0.01)
    layer = RedisLayer()
    station = station_on(layer)
    tables = {7: Table(layer), 8: Table(layer)}
    station.hubs = tables  # type: ignore[assignment]
    await station._store_restarted()  # as `join` does before the first group join
    renewing = asyncio.create_task(station._renew())
    try:
        await asyncio.sleep(0.1)
        # the same Redis: asked, but nothing joined again and nothing read
        assert layer.asked > 1
        assert layer.joins == 0
        assert all(t.notices == [] for t in tables.values())

        layer.run_id = "restarted"
        joins = layer.joins
        for _ in range(100):
            if all(t.notices for t in tables.values()):
                break
            await asyncio.sleep(0.01)
        # joined again first (both tables' groups), then read again
        assert all(t.joins_before[0] >= joins + 2 for t in tables.values())
        assert all(t.notices == [{"type": "layer.restarted"}] for t in tables.values())
        await asyncio.sleep(0.1)
        assert all(len(t.notices) == 1 for t in tables.values())  # once per restart
    finally:
        renewing.cancel()
        with pytest.raises(asyncio.CancelledError):
            await renewing


async def test_the_groups_are_joined_again_before_they_expire_without_a_restart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(hubs, "REDIS_REJOIN_SECONDS", 0.01)
    monkeypatch.setattr(hubs, "GROUP_RENEW_SECONDS", 0.05)
    layer = RedisLayer()
    station = station_on(layer)
    tables = {7: Table(layer), 8: Table(layer)}
    station.hubs = tables  # type: ignore[assignment]
    await station._store_restarted()
    renewing = asyncio.create_task(station._renew())
    try:
        for _ in range(200):
            if layer.joins >= 4:
                break
            await asyncio.sleep(0.01)
        assert layer.joins >= 4  # both tables' groups, twice over
        assert layer.asked > layer.joins // 2  # asked more often than joined
        assert all(t.notices == [] for t in tables.values())  # the same Redis: nothing to read
    finally:
        renewing.cancel()
        with pytest.raises(asyncio.CancelledError):
            await renewing
