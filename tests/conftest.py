"""Fixtures shared by every test folder.

Keep this file generic; fixtures for one area go in ``tests/<area>/conftest.py``.
Each test folder needs an ``__init__.py`` (test modules in different folders may
share a name).

`bash .ci/test` runs the suite in two processes (pytest-xdist, ``-n 2 --dist loadgroup``).
Each has its own test database (pytest-django's ``_gw0``/``_gw1`` suffix), its own
servers and private Redis servers on free ports, its own Chromium (files in test-artifacts/
are named by test or by port), and, on a shared Redis, its own channel-layer key
prefix (`worker_name`): match ids repeat across the workers' databases, so a group such
as ``match-5`` must not be shared. Tests that must not run beside another one of their
kind would share an ``xdist_group`` mark (one worker runs a group's tests one after
another; `_xdist_groups` makes that hold under pytest 9); none needs one now.
``TEST_WORKERS=0`` runs the suite in one process.

Browser tests use Debian's Chromium through Playwright: its headless shell
(``/usr/bin/chromium-headless-shell``, package chromium-headless-shell: the same Blink,
V8 and rendering without the browser's window, about half the CPU per page), else
``/usr/bin/chromium``, or ``$CHROMIUM_PATH``; Playwright's own browser downloads are never
used. Without Chromium they are skipped, except under ``CI=true`` where they fail.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from tests.servers import Processes

# The expert's choices in replays are worked out only for the rounds a test asks about
# (games.history.reviews): every round that ends would keep a background thread busy.
# The test servers inherit it (tests.servers.server_env copies the environment).
os.environ.setdefault("EXPERT_REVIEWS", "asked")

REPO_ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS_DIR = REPO_ROOT / "test-artifacts"

# Flags for a headless Chromium on a machine without network or display, as root.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

PHONE = {"width": 375, "height": 740}
DESKTOP = {"width": 1280, "height": 860}


def worker_name() -> str:
    """This pytest process's name among pytest-xdist's workers (``gw0``, ``gw1``...), ``main``
    in a run without workers: for whatever two processes of one run must not share."""
    return os.environ.get("PYTEST_XDIST_WORKER") or "main"


def pytest_configure(config: pytest.Config) -> None:
    """On Redis (``REDIS_URL`` set), this process's channel layer gets a key prefix of its
    own: match ids repeat across the workers' (and other runs') databases, so a group such
    as ``match-5`` would otherwise reach another process's tests."""
    from django.conf import settings

    if not settings.configured:
        return  # without Django (the engine's tests): no channel layer
    layer = settings.CHANNEL_LAYERS["default"]
    if "redis" in str(layer.get("BACKEND", "")).lower():
        layer.setdefault("CONFIG", {})["prefix"] = f"test-{worker_name()}-{os.getpid()}"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run browser tests last: the session's Playwright keeps an event loop running
    in the main thread, which async tests (pytest-asyncio) must not meet. Within each
    half, the tests marked `slow` first: the workers take tests one after another as
    they finish them, so a long test left for the end keeps one worker busy while the
    other waits with nothing to do. Under ``--dist loadgroup``, name each test's
    `xdist_group` in its id (`_xdist_groups`)."""
    items.sort(
        key=lambda item: (
            item.get_closest_marker("browser") is not None,
            item.get_closest_marker("slow") is None,
        )
    )
    if getattr(config.option, "loadgroup", False):  # set in pytest-xdist's workers
        _xdist_groups(items)


def _xdist_groups(items: list[pytest.Item]) -> None:
    """What pytest-xdist's loadgroup does, for pytest 9: ``test_x@group`` is the id the
    controller schedules by (one worker runs a group's tests). xdist 3.8 writes the suffix
    into ``item._nodeid``, which pytest 9 no longer reads (the id lives in ``item._id``),
    so without this every xdist_group mark is silently ignored."""
    try:
        from _pytest.nodeid import coerce_node_id  # pytest 9
    except ImportError:  # an earlier pytest: xdist's own suffix holds
        return
    for item in items:
        names = sorted(
            {
                str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                for mark in item.iter_markers("xdist_group")
            }
        )
        if names and "@" not in item.nodeid and hasattr(item, "_id"):
            item._id = coerce_node_id(f"{item.nodeid}@{'_'.join(names)}")


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: Any, django_db_blocker: Any) -> Iterator[None]:
    """pytest-django's test database, whose commits do not wait for the disk
    (``synchronous_commit = off`` for every connection to it: this process's, the test
    servers', the computer workers'). A commit is still seen at once by every other
    connection; only a crash of PostgreSQL itself could lose the last ones, which no test
    does. The transactional tests (servers, browsers, faults) commit thousands of times.

    At the end, every other connection to it is ended before pytest-django drops it: those
    this process opened in other threads (asgiref's thread for the ORM calls of async tests,
    the table's database threads) stay open until then, and PostgreSQL's DROP DATABASE
    waits five seconds for them, then fails (and the database is left behind)."""
    from django.db import connection

    with django_db_blocker.unblock(), connection.cursor() as cursor:
        name = connection.ops.quote_name(connection.settings_dict["NAME"])
        cursor.execute(f"ALTER DATABASE {name} SET synchronous_commit = off")
        cursor.execute("SET synchronous_commit = off")
    operations = type(connection.ops)
    truncate = operations.sql_flush
    operations.sql_flush = _flush_by_delete(truncate)  # type: ignore[method-assign]
    yield
    operations.sql_flush = truncate  # type: ignore[method-assign]
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


def _flush_by_delete(truncate: Callable[..., list[str]]) -> Callable[..., list[str]]:
    """PostgreSQL's `sql_flush` (what empties the tables after a transactional test, in
    Django's ``flush``), with DELETE for TRUNCATE: TRUNCATE makes new files for each of the
    forty tables and their indexes (0.3 to 0.6 s a test, though they hold a few rows), a
    DELETE of a few rows takes milliseconds. ``flush`` runs the statements in one
    transaction, which first locks every table against writes (as TRUNCATE would, but
    reads go on): no row can come in between two DELETEs. The foreign keys are checked at
    the commit (Django makes them DEFERRABLE INITIALLY DEFERRED), when every table is empty.
    Sequences are not reset, as pytest-django's flush does not reset them."""

    def sql_flush(
        self: Any,
        style: Any,
        tables: list[str],
        *,
        reset_sequences: bool = False,
        allow_cascade: bool = False,
    ) -> list[str]:
        if not tables or reset_sequences or allow_cascade:
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        names = [style.SQL_FIELD(self.quote_name(table)) for table in tables]
        return [f"LOCK TABLE {', '.join(names)} IN EXCLUSIVE MODE"] + [
            f"DELETE FROM {name}" for name in names
        ]

    return sql_flush


@pytest.fixture(autouse=True)
def _english_between_tests() -> Iterator[None]:
    """Each test starts in the default language: a request through LocaleMiddleware
    leaves its language active in the thread, which would leak into later tests. Without
    Django (the engine's tests run without it: ``pytest tests/engine -p no:django``) there is
    no language to reset."""
    from django.conf import settings

    if not settings.configured:
        yield
        return
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _the_flush_comes_last(request: pytest.FixtureRequest) -> Iterator[None]:
    """After a transactional test the tables are emptied (in this thread: the flush locks
    every table against writes, then deletes their rows; see `_flush_by_delete`). The
    table's database threads may still be at work then: a hub making the boards of a change
    made at the end of the test, a closed socket's clean-up. Such a write, holding one
    table while asking for the next, can meet the flush's locks in a deadlock, and a failed
    flush leaves the next test a used database. So: wait until those threads are idle, then
    let PostgreSQL end their side, not the flush's, should it still happen (the deadlock
    check runs first in whichever waited `deadlock_timeout` first)."""
    yield
    marker = request.node.get_closest_marker("django_db")
    if marker is None or not marker.kwargs.get("transaction"):
        return
    threads = sys.modules.get("games.table.threads")
    if threads is not None:
        threads.idle()
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SET deadlock_timeout = '10s'")


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes", "on"}


@pytest.fixture
def procs(transactional_db: Any) -> Iterator[Processes]:
    """Real servers for one test (`tests.servers.Processes`: daphnes, Redis, HAProxy),
    every one stopped before the test database is emptied."""
    from tests.servers import processes

    with processes() as pool:
        yield pool


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    """Folder for screenshots and other files tests leave for people to look at."""
    ARTIFACTS_DIR.mkdir(exist_ok=True)
    return ARTIFACTS_DIR


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = (
        os.environ.get("CHROMIUM_PATH")
        or shutil.which("chromium-headless-shell")
        or shutil.which("chromium")
        or "/usr/bin/chromium"
    )
    if not os.access(path, os.X_OK):
        message = (
            f"Chromium not found at {path}: install Debian's chromium "
            "(apt-get install chromium-headless-shell chromium chromium-driver;"
            " `bash .ci/test` does it as root)"
        )
        if in_ci():
            pytest.fail(message + " [CI=true: browser tests must run]")
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[Any]:
    """A headless Chromium shared by the whole session."""
    # Playwright's sync API keeps an event loop in this thread; the Django ORM
    # calls made by the test itself are still synchronous and safe.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def new_context(browser: Any) -> Iterator[Callable[..., Any]]:
    """Make browser contexts (one per simulated person); all closed after the test.

    ``new_context(viewport=PHONE, locale="es-ES")`` takes Playwright's options.

    Whatever a page of these contexts does against the site's Content-Security-Policy (an
    inline style or script the browser refused, which it reports on the console) fails
    the test once it is over: such a piece of the page silently does not work.
    """
    contexts: list[Any] = []
    refused: list[str] = []

    def console(message: Any) -> None:
        if message.type == "error" and "Content Security Policy" in message.text:
            page = message.page  # the page the message came from (None for a worker's)
            refused.append(f"{page.url if page else message.location.get('url')}: {message.text}")

    def make(**options: Any) -> Any:
        options.setdefault("viewport", DESKTOP)
        options.setdefault("locale", "en-US")
        context = browser.new_context(**options)
        context.set_default_timeout(10_000)
        context.on("console", console)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()
    assert not refused, refused


@pytest.fixture
def page(new_context: Callable[..., Any]) -> Any:
    """One page in a fresh desktop-sized context."""
    return new_context().new_page()
