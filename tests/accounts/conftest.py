"""Fixtures for the accounts' tests (guests and the front page's one-click tables, sign-up,
e-mail, names, forms, throttles and tips): those of tests/games/matches.py (users, clients,
`create` and `play` through the services)."""

from tests.games.matches import _back_to_english, ana, ana_client, ben, make_user  # noqa: F401
