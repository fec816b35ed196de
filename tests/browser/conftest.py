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
  ``test-artifacts/browser-server.log``;
- `live` : the base URL for one test (transactional database);
- `make_user(name)`; `context_for(user, lang=None, **context_options)` and
  `signed_in(username, ...)`: a browser context with that user's session cookie
  (no password, no sign-in form);
- `shots`: ``test-artifacts/screenshots/``.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games.models import Match
from tests.conftest import REPO_ROOT

#: seconds between two computer actions in the test server (settings.COMPUTER_DELAY)
COMPUTER_DELAY = "0.05"
#: longer than one pass of the server's computer worker (games.worker.DEFAULT_POLL and a step)
WORKER_PASS = 0.5
START_TIMEOUT = 30.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _database_url(db: dict[str, Any]) -> str:
    """A postgres:// URL for the test database pytest-django created (its NAME is the test name)."""
    user = quote(db.get("USER") or "", safe="")
    password = quote(db.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = db.get("HOST") or "127.0.0.1"
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{auth}{host}{port}/{quote(db['NAME'], safe='')}"


@pytest.fixture(scope="package")
def table_server(chromium_path: str, django_db_setup: Any, artifacts_dir: Path) -> Iterator[str]:
    """daphne serving tablesite.asgi on a free port, against the test database."""
    from django.db import connection

    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("TEST_DATABASE_NAME", "REDIS_URL")}
    env.update(
        DATABASE_URL=_database_url(connection.settings_dict),
        DEBUG="true",  # static files straight from static/, no collectstatic
        ALLOWED_HOSTS="127.0.0.1,localhost",
        COMPUTER_DELAY=COMPUTER_DELAY,
        COMPUTER_WORKER="on",
        CONN_MAX_AGE="0",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    log_path = artifacts_dir / "browser-server.log"
    log = log_path.open("w")
    daphne = Path(sys.executable).with_name("daphne")
    command = [str(daphne), "-b", "127.0.0.1", "-p", str(port), "tablesite.asgi:application"]
    process = subprocess.Popen(command, cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"daphne exited with {process.returncode}; see {log_path}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"daphne did not answer within {START_TIMEOUT}s; see {log_path}") from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@pytest.fixture
def live(table_server: str, transactional_db: Any) -> Iterator[str]:
    """The server's base URL for a test whose writes the server must see.

    Afterwards the server's computers are given nothing more to do before the
    database is emptied: a computer step (a transaction locking several tables)
    running into the flush's TRUNCATE deadlocks it."""
    yield table_server
    Match.objects.filter(status=Match.Status.PLAYING).update(status=Match.Status.FINISHED,
                                                             finished_at=timezone.now())
    time.sleep(WORKER_PASS)  # a step already under way ends (it finds the match finished)


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
        cookies = [{"name": settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[settings.SESSION_COOKIE_NAME].value, "url": live}]
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
