"""Fixtures for guests, the front page's one-click tables, throttles and tips: those of
tests/site_games (users, clients, `create` and `play` through the services)."""

from tests.games.matches import _back_to_english, ana, ana_client, ben, make_user  # noqa: F401
