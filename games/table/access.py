"""A table connection's way in: its language, its match, whether it may watch.

- `scope_language`: the language a connection is answered in, chosen as the page's was
  (Django's LocaleMiddleware: the language cookie, then Accept-Language).
- `may_watch`: whether this user (or the holder of the watch token) may see the match's
  table at all — games.permissions' ``WATCH``, a staff member's watch logged (R24: who
  sees what once in is the viewer's business, games.board.viewer).
- `started_match`: the match a command is about, refused (games.words) while it does not
  exist or still waits for players.

Called in a database thread (the connection's ``call``), except `scope_language`.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from django.utils import translation

from games import permissions
from games.errors import NOT_FOUND, GameError
from games.models import Match
from games.permissions import Action as Can
from games.reads import selectors
from games.reads.seats import match_with_seats
from games.words import sentence


def scope_language(scope: dict[str, Any]) -> str:
    """The connection's language, chosen as LocaleMiddleware chose the page's (cookie, then Accept-Language)."""
    headers = dict(scope.get("headers") or [])
    request = SimpleNamespace(
        COOKIES=scope.get("cookies") or {},
        META={"HTTP_ACCEPT_LANGUAGE": headers.get(b"accept-language", b"").decode("latin-1")},
    )
    return translation.get_language_from_request(request)  # type: ignore[arg-type]  # reads COOKIES and META only


def may_watch(match: Match | None, user: Any, token: str) -> bool:
    """Whether this user (or token holder) may see the match's table at all (games.permissions;
    a staff member's watch is logged)."""
    return match is not None and permissions.may(
        user, Can.WATCH, match, token=token, log_watch=True
    )


def started_match(match_id: int) -> Match:
    """The match a command is about; refused when there is none, or while it waits for players."""
    match = match_with_seats(match_id)
    if match is None:
        raise GameError(NOT_FOUND, sentence("no_such_match"))
    selectors.match_state(match)  # raises not_started while waiting for players
    return match
