"""`{% table_tips %}`: the first-time tips still to show the signed-in player (games.lobby.learn),
as JSON for static/js/tips.js (the words translated here, on the server, for the length of
the page's `match`, R31)."""

from __future__ import annotations

from typing import Any

from django import template
from django.middleware.csrf import get_token
from django.urls import reverse
from django.utils.html import json_script
from django.utils.safestring import SafeString

from games.lobby.learn import tips_context

register = template.Library()


@register.simple_tag(takes_context=True)
def table_tips(context: dict[str, Any]) -> SafeString:
    request = context["request"]
    rounds = getattr(context.get("match"), "length", None)  # (a page without a match: the standard)
    data = tips_context(request.user, **({"rounds": rounds} if isinstance(rounds, int) else {}))
    if not request.user.is_authenticated:
        data.update(off=True, tips=[])
    data.update(url=reverse("tips"), csrf=get_token(request), rules=reverse("games:rules"))
    return json_script(data, "table-tips")
