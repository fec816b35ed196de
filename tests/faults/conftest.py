"""Fixtures for the fault tests: real daphne processes (and a private Redis) against the test database.

- `procs` (tests/conftest.py): a `tests.servers.Processes`; every server it started is ended after the test;
- `users(*names)`: users made in the (committed) test database;
- `db(fn, ...)`: run ORM code from an async test.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model


async def db(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    return await sync_to_async(fn, thread_sensitive=True)(*args, **kwargs)


@pytest.fixture
def users(transactional_db: Any) -> Callable[..., list[Any]]:
    def make(*names: str) -> list[Any]:
        return [get_user_model().objects.create_user(name) for name in names]

    return make
