"""`{% load history %}`: the history wing's parts for pages of the root (match page, match lists).

- ``{% match_scores match %}``: the running-totals chart and the round table
  (templates/history/_scores.html), nothing before a round has ended;
- ``{% replay_url match %}``: the replay viewer's address for a match.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from games.history import scores
from games.history.boards import seat_style
from games.models import Match

register = template.Library()


@register.inclusion_tag("history/_scores.html")
def match_scores(match: Match) -> dict[str, Any]:
    rows = scores.round_rows(match)
    seats = sorted(match.seats.all(), key=lambda s: s.index)
    names = [s.display_name for s in seats]
    styles = [seat_style(s.index) for s in seats]
    return {
        "chart": scores.chart_svg(
            names,
            [c for c, _s, _p in styles],
            rows,
            shapes=[p for _c, _s, p in styles],
            rounds=match.length,
        ),
        "round_rows": rows,
        "names": names,
        "legend": scores.legend(names, styles),
        "show": bool(rows),
    }


@register.simple_tag
def replay_url(match: Match) -> str:
    return reverse("history:replay", args=[match.pk])
