"""The in-memory channel layer of one server process (tablesite/layers.py): Channels'
own, with its sweep for expired entries run once a second instead of on every call."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.layers import InMemoryChannelLayer

from tablesite import layers
from tablesite.layers import SweepingInMemoryChannelLayer

pytestmark = pytest.mark.asyncio


async def test_a_group_message_reaches_every_member() -> None:
    layer = SweepingInMemoryChannelLayer()
    channels = [await layer.new_channel() for _ in range(3)]
    for channel in channels:
        await layer.group_add("match-1", channel)
    await layer.group_send("match-1", {"type": "match.changed", "version": 7})
    for channel in channels:
        assert await layer.receive(channel) == {"type": "match.changed", "version": 7}


async def test_many_calls_sweep_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A move sends to a group and every connection waits in receive: the sweep, which
    looks at every channel and group member, is not repeated for each of them."""
    sweeps: list[float] = []
    original = InMemoryChannelLayer._clean_expired

    def counted(self: Any) -> None:
        sweeps.append(1)
        original(self)

    monkeypatch.setattr(InMemoryChannelLayer, "_clean_expired", counted)
    layer = SweepingInMemoryChannelLayer()
    channel = await layer.new_channel()
    await layer.group_add("match-1", channel)
    for version in range(200):
        await layer.group_send("match-1", {"type": "match.changed", "version": version})
        assert (await layer.receive(channel))["version"] == version
    assert len(sweeps) == 1


async def test_expired_memberships_and_messages_still_go(monkeypatch: pytest.MonkeyPatch) -> None:
    """Expiry keeps its meaning, at most a sweep interval later: a membership older than
    `group_expiry` gets no more messages, and a message unread for `expiry` is dropped."""
    monkeypatch.setattr(layers, "SWEEP_SECONDS", 0.1)
    layer = SweepingInMemoryChannelLayer(expiry=1, group_expiry=1)
    old, unread, fresh = [await layer.new_channel() for _ in range(3)]
    await layer.group_add("match-1", old)
    await layer.send(unread, {"type": "stale"})
    await asyncio.sleep(2.2)  # group memberships count in whole seconds
    await layer.group_add("match-1", fresh)
    await layer.group_send("match-1", {"type": "match.changed", "version": 1})
    assert await layer.receive(fresh) == {"type": "match.changed", "version": 1}
    assert old not in layer.groups["match-1"]
    assert unread not in layer.channels
