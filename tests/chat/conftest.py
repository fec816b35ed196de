"""Fixtures for table talk's page, admin and rule tests: the site_games helpers (users, clients)."""

from __future__ import annotations

from tests.games.matches import (  # noqa: F401  (fixtures shared with site_games)
    _back_to_english,
    admin_client_,
    ana,
    ana_client,
    ben,
    make_user,
)
