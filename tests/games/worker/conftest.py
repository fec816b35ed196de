"""Fixtures for the computer-player worker's tests (games/worker/): the table socket's
(tests/games/table/socket/conftest.py): the in-memory channel layer, `COMPUTER_DELAY = 0`
and no background worker (the tests drive `ComputerWorker` themselves); `alice`;
`make_match(*kinds)` with casual computers; `connect(match, user)`."""

from __future__ import annotations

from tests.games.table.socket.conftest import alice, connect, make_match, realtime_settings  # noqa: F401
