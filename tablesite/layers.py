"""The channel layers the site uses: in-memory in one server process (no REDIS_URL), else Redis.

Channels' `InMemoryChannelLayer` looks through every channel's queue and every
group's members for expired entries on each `receive` and `group_send`. A table
page's connection waits in `receive` all the time and every move sends to a group,
so with N open connections each move costs O(N) of that sweep, O(N²) for a busy
server: at 100 four-seat tables (bench/load.py) the sweep took about a tenth of the
server's CPU. Expiry is a timeout (a message unread for `expiry` seconds, a group
membership older than `group_expiry`), so sweeping at most every `SWEEP_SECONDS`
keeps its meaning, up to that much later; everything else is Channels' own code.

On Redis (several server processes), `TableRedisChannelLayer` is channels-redis with one
more call, `group_send_elsewhere`: a group message for the group's members in the other
processes only. A change made in a process is told to that process's table hubs directly
(games.notify), and HAProxy sends every page of a table to one process, so the layer's copy
of a move's notice mostly had one member to reach, its own sender, which read it back from
Redis only to drop it: eight Redis calls a move (the group read, the send's pipeline and
script, the receive's pop and clean-up) and the message's encoding and decoding. Now it goes
where it is needed, or nowhere: one round trip reads the group, and that is all.
"""

from __future__ import annotations

import time
from typing import Any

from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer

#: seconds between two sweeps for expired messages and group memberships
SWEEP_SECONDS = 1.0


class SweepingInMemoryChannelLayer(InMemoryChannelLayer):
    """`InMemoryChannelLayer`, sweeping for expired entries once a second, not on every call."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._swept_at = float("-inf")

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept_at < SWEEP_SECONDS:
            return
        self._swept_at = now
        super()._clean_expired()


#: the key that marks a group message for the other processes only (never sent on)
_ELSEWHERE = "__elsewhere__"


class TableRedisChannelLayer(RedisChannelLayer):
    """channels-redis, and `group_send_elsewhere`."""

    async def group_send_elsewhere(self, group: str, message: dict[str, Any]) -> None:
        """`group_send`, but to the group's members outside this process: channels of other
        layer instances (each process has one; its channels are named with its prefix).
        The group's members are read first, in one round trip with `group_send`'s clean-up
        of the expired ones: with none elsewhere, the usual case behind the proxy, that is all."""
        key = self._group_key(group)
        connection = self.connection(self.consistent_hash(group))
        async with connection.pipeline(transaction=False) as pipe:
            pipe.zremrangebyscore(key, min=0, max=int(time.time()) - self.group_expiry)
            pipe.zrange(key, 0, -1)
            _expired, members = await pipe.execute()
        if all(self._here(member.decode("utf8")) for member in members):
            return
        await self.group_send(group, {**message, _ELSEWHERE: True})

    def _here(self, channel: str) -> bool:
        """Whether `channel` is one of this instance's (`new_channel` names them with its prefix)."""
        return f".{self.client_prefix}!" in channel

    def _map_channel_keys_to_connection(self, channel_names: Any, message: Any) -> Any:
        # channels-redis's one step between reading a group's members and sending to them
        if message.get(_ELSEWHERE):
            message = {k: v for k, v in message.items() if k != _ELSEWHERE}
            channel_names = [name for name in channel_names if not self._here(name)]
        return super()._map_channel_keys_to_connection(channel_names, message)
