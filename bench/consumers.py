"""A table connection without its socket, for the benchmarks and the tests that drive
the server's board code in one process (bench/action.py, bench/load_growth.py,
tests/tablesite/test_gc.py).

It lives in bench/, not in tests/ nor in the product: bench/ is not installed with the
site (pyproject's packages are engine, tablesite, games and accounts), the tests import
bench/ already (tests/bench), and a benchmark run on its own needs no test package.
What the connection holds is the product's own `TableConsumer.start`, so it cannot drift
from what `connect` sets.
"""

from __future__ import annotations

from typing import Any

from accounts import sessions
from games.table.consumers import TableConsumer


def table_consumer(
    match_id: int, user: Any, *, language: str = "en", session_key: str | None = None
) -> TableConsumer:
    """A connection to `match_id`'s table as `TableConsumer.connect` leaves it once `user` is
    let in (nothing sent yet, "draw and pass for me" off), its socket and groups aside;
    with `session_key`, a signed-in session checked before each command as there."""
    consumer = TableConsumer()
    consumer.start(match_id, user, language)
    if session_key is not None:
        consumer.session = sessions.SessionCheck(session_key)
    return consumer
