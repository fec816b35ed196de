"""A real table server for the end-to-end browser tests: daphne (HTTP + websockets) in a subprocess.

pytest-django's `live_server` speaks only HTTP (WSGI); the table needs its
websocket and the computer-player worker, which live in the ASGI server process
(tablesite/asgi.py starts the worker on the first connection). So one daphne is
started for this folder's tests (package scope: it stops before the rest of
the suite's browser tests, whose matches its computer worker would otherwise
play) against the pytest-django test database, with
``COMPUTER_DELAY`` small so the computers answer quickly. Tests use
``@pytest.mark.django_db(transaction=True)``: what a test writes is committed,
so the server sees it, and the tables are emptied after each test.

Fixtures:

- `table_server` (package): the server's base URL; its log goes to
  ``test-artifacts/daphne-<port>.log``;
- `live` : the base URL for one test (transactional database);
- `make_user(name)`; `context_for(user, lang=None, **context_options)` and
  `signed_in(username, ...)`: a browser context with that user's session cookie
  (no password, no sign-in form);
- `shots`: ``test-artifacts/screenshots/``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.utils import timezone

from games.models import Match
from tests.servers import Daphne, server_env

#: seconds between two computer actions in the test server (settings.COMPUTER_DELAY)
COMPUTER_DELAY = 0.05
#: longer than one pass of the server's computer worker (games.worker.DEFAULT_POLL and a step)
WORKER_PASS = 0.5


@pytest.fixture(scope="package")
def table_server(chromium_path: str, django_db_setup: Any, artifacts_dir: Path) -> Iterator[str]:
    """daphne serving tablesite.asgi on a free port, against the test database
    (`tests.servers.Daphne`, as the fault and hostile tests start it)."""
    server = Daphne(server_env(computer_delay=COMPUTER_DELAY), log_dir=artifacts_dir)
    server.start()
    try:
        yield server.url
    finally:
        server.stop()
    assert not server.stubborn, "the table's server did not end on SIGTERM within 10 s"


@pytest.fixture
def live(table_server: str, transactional_db: Any) -> Iterator[str]:
    """The server's base URL for a test whose writes the server must see.

    Afterwards the server's computers are given nothing more to do before the
    database is emptied: a computer step (a transaction locking several tables)
    running into the flush's table locks deadlocks it."""
    yield table_server
    # A computer step holds its match's row (games.services.moves: FOR UPDATE) from its first
    # statement to its commit: this UPDATE waits for a step under way to end, and a later step
    # finds the match finished and writes nothing.
    Match.objects.filter(status=Match.Status.PLAYING).update(
        status=Match.Status.FINISHED, finished_at=timezone.now()
    )
    # The server may still be writing when the flush comes (a closed page's presence and
    # pause clean-up, the worker's pass over presence and requests). Should that meet the
    # flush's table locks in a deadlock, let PostgreSQL end the server's transaction (the server
    # retries or logs it), not the flush: a failed flush leaves the next test a used
    # database. The deadlock check runs first in whichever waited deadlock_timeout first.
    with connection.cursor() as cursor:
        cursor.execute("SET deadlock_timeout = '10s'")


@pytest.fixture
def make_user(transactional_db: Any) -> Callable[..., Any]:
    def make(username: str, **extra: Any) -> Any:
        # No password (the session is made directly): hashing one costs a second per user.
        return get_user_model().objects.create_user(username, **extra)

    return make


@pytest.fixture
def context_for(live: str, new_context: Callable[..., Any]) -> Callable[..., Any]:
    """``context_for(user, lang="es", viewport=PHONE)``: a browser context carrying `user`'s
    session cookie (``context.user``), optionally with the site language cookie set."""

    def make(user: Any, *, lang: str | None = None, **options: Any) -> Any:
        client = Client()
        client.force_login(user)
        context = new_context(**options)
        cookies = [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live,
            }
        ]
        if lang:
            cookies.append({"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": live})
        context.add_cookies(cookies)
        context.user = user
        return context

    return make


@pytest.fixture
def signed_in(context_for: Callable[..., Any], make_user: Callable[..., Any]) -> Callable[..., Any]:
    """``signed_in("ana", viewport=PHONE)``: a browser context signed in as a new user."""

    def make(username: str, **options: Any) -> Any:
        return context_for(make_user(username), **options)

    return make


@pytest.fixture(scope="session")
def shots(artifacts_dir: Path) -> Path:
    """Where the board's screenshots go (not committed: test-artifacts/ is ignored)."""
    out = artifacts_dir / "screenshots"
    out.mkdir(exist_ok=True)
    return out
