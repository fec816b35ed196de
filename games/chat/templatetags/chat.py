"""`{% load chat %}`: table talk's parts for other wings' pages.

- ``{% match_chat match %}``: the match's chat, oldest first, for the replay page
  (templates/history/replay.html): its lines for the match's participants, nothing for anyone
  else (games.permissions, Talk.LOOK_BACK: not a stranger, not staff).
"""

from __future__ import annotations

from typing import Any

from django import template

from games.chat import services
from games.models import Match

register = template.Library()


@register.inclusion_tag("chat/_look_back.html", takes_context=True)
def match_chat(context: template.Context, match: Match) -> dict[str, Any]:
    return {"chat": services.look_back(match, context["request"].user)}
