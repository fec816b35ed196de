"""Fixtures for the hostile requests against the site as a whole (every page, the Content-
Security-Policy, the websocket handshake's origin, request bodies): the table socket's
settings (tests/games/table/socket/conftest.py `realtime_settings`: the in-memory channel
layer, `COMPUTER_DELAY = 0`, no background worker in this process, which a connection to
`tablesite.asgi.application` would otherwise start)."""

from __future__ import annotations

from tests.games.table.socket.conftest import realtime_settings  # noqa: F401
