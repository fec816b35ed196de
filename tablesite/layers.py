"""The in-memory channel layer the site uses in one server process (no REDIS_URL).

Channels' `InMemoryChannelLayer` looks through every channel's queue and every
group's members for expired entries on each `receive` and `group_send`. A table
page's connection waits in `receive` all the time and every move sends to a group,
so with N open connections each move costs O(N) of that sweep, O(N²) for a busy
server: at 100 four-seat tables (bench/load.py) the sweep took about a tenth of the
server's CPU. Expiry is a timeout (a message unread for `expiry` seconds, a group
membership older than `group_expiry`), so sweeping at most every `SWEEP_SECONDS`
keeps its meaning, up to that much later; everything else is Channels' own code.
"""

from __future__ import annotations

import time
from typing import Any

from channels.layers import InMemoryChannelLayer

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
