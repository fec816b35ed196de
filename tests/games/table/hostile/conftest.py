"""Fixtures for the hostile-input and secrecy tests.

The websocket fixtures are the socket tests' own (tests/games/table/socket/conftest.py):
`connect(match, user, watch=...)` gives a `Browser` on ``/ws/m/<id>/`` through the
real ASGI application (origin check, session cookie), with the in-memory channel
layer, `COMPUTER_DELAY = 0` and no background worker; `alice`, `bob`, `carol` are
users and `make_match(*kinds)` makes a match as alice. `procs` (tests/conftest.py) starts real servers
(tests/servers.py) for the few checks that need a real socket.
"""

from __future__ import annotations

from tests.games.table.socket.conftest import (  # noqa: F401  (the socket tests' fixtures)
    alice,
    bob,
    carol,
    connect,
    make_match,
    realtime_settings,
)
