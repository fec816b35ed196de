"""Fixtures for the history wing (replays, scores, stats): the site_games helpers
(`create`, `step`, `play_rounds`, users and clients), matches played through the services."""

from __future__ import annotations

from tests.games.matches import (  # noqa: F401  (fixtures shared with site_games)
    _back_to_english,
    admin_client_,
    ana,
    ana_client,
    ben,
    make_user,
)
