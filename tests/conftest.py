"""Fixtures shared by every test folder.

Keep this file generic; fixtures for one area go in ``tests/<area>/conftest.py``.
Each test folder needs an ``__init__.py`` (test modules in different folders may
share a name).

Browser tests use Debian's Chromium (``/usr/bin/chromium``, or ``$CHROMIUM_PATH``)
through Playwright; Playwright's own browser downloads are never used. Without
Chromium they are skipped, except under ``CI=true`` where they fail.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run browser tests last: the session's Playwright keeps an event loop running
    in the main thread, which async tests (pytest-asyncio) must not meet."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.fixture(autouse=True)
def _english_between_tests() -> Iterator[None]:
    """Each test starts in the default language: a request through LocaleMiddleware
    leaves its language active in the thread, which would leak into later tests."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes", "on"}


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    """Folder for screenshots and other files tests leave for people to look at."""
    ARTIFACTS_DIR.mkdir(exist_ok=True)
    return ARTIFACTS_DIR


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
    if not os.access(path, os.X_OK):
        message = (
            f"Chromium not found at {path}: install Debian's chromium "
            "(apt-get install chromium chromium-driver; `bash .ci/test` does it as root)"
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
    """
    contexts: list[Any] = []

    def make(**options: Any) -> Any:
        options.setdefault("viewport", DESKTOP)
        options.setdefault("locale", "en-US")
        context = browser.new_context(**options)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_context: Callable[..., Any]) -> Any:
    """One page in a fresh desktop-sized context."""
    return new_context().new_page()
