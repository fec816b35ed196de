"""What every page's template may show of the games (tablesite/settings.py TEMPLATES)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest


def your_turns(request: HttpRequest) -> dict[str, Any]:
    """``your_turns``: how many matches wait for the signed-in user's move (games.reads.queries
    `your_turn_count`), counted only when a template uses it (a callable: base.html's menu)."""
    from games.reads.queries import your_turn_count

    user = getattr(request, "user", None)
    return {"your_turns": lambda: your_turn_count(user)}
