"""The replay viewer's pages: one match's ended rounds step by step, for those who may look
back at it (games.permissions: its creator, its players, staff with the admin's permission).

``/m/<id>/replay/?round=5&step=42`` is the page at that position (a link to every
position); ``/m/<id>/replay/step/?round=5&step=42`` answers the same position as
JSON for the page's script (autoplay, keys, the log's links). Only ended rounds are
ever drawn (`games.history.replays`), whoever asks (R24).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_safe

from games import permissions
from games.chat import services as chat
from games.history import boards, scores, words
from games.history.replays import (
    NotReplayable,
    RoundReplay,
    parse_position,
    round_replay,
)
from games.models import Match
from games.permissions import Action as Can
from games.seats import match_with_seats


def position_url(match_id: int, number: int, step: int) -> str:
    return (
        reverse("history:replay", args=[match_id])
        + "?"
        + urlencode({"round": number, "step": step})
    )


def _viewable(request: HttpRequest, match_id: int) -> Match:
    match = match_with_seats(match_id)
    if match is None or not permissions.may(request.user, Can.LOOK_BACK, match):
        raise Http404(words.no_match_to_look_back())
    return match


def viewer_context(replay: RoundReplay, k: int) -> dict[str, Any]:
    """What the viewer partial (templates/history/_viewer.html) needs: board, log, rounds, chart."""
    match = replay.match
    step = replay.step(k)
    names = boards.names(replay)
    rows = scores.round_rows(match)
    styles = [boards.seat_style(i) for i in range(match.players)]
    colours = [c for c, _shape, _path in styles]
    return {
        "match": match,
        "replay": replay,
        "number": replay.round.number,
        "step": step.index,
        "last": replay.last,
        "board_html": boards.step_html(replay, step.index),
        "lines": words.log_lines(replay, names),
        "outcome": words.outcome_line(replay.steps[-1].state, names),
        "rounds": [
            {"number": n, "url": position_url(match.pk, n, 0), "current": n == replay.round.number}
            for n in replay.ended
        ],
        "step_url": reverse("history:replay_step", args=[match.pk]),
        "page_url": reverse("history:replay", args=[match.pk]),
        "chart": scores.chart_svg(
            names, colours, rows, shapes=[p for _c, _s, p in styles], rounds=match.length
        ),  # R31: the x axis is the match's length
        "round_rows": rows,
        "names": names,
        "legend": scores.legend(names, styles),
        "seat_numbers": range(1, match.players + 1),
    }


@require_safe
def replay(request: HttpRequest, match_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    match = _viewable(request, match_id)
    number, k = parse_position(request.GET.get("round"), request.GET.get("step"))
    try:
        rep = round_replay(match, number)
    except NotReplayable:
        if number is None:
            return render(
                request,
                "history/replay.html",
                {"match": match, "nothing": True, "chat": chat.look_back(match, request.user)},
            )
        raise Http404(words.round_not_ended()) from None
    # The table talk: for the match's participants only, not staff (games.permissions Talk.LOOK_BACK).
    return render(
        request,
        "history/replay.html",
        {**viewer_context(rep, k), "chat": chat.look_back(match, request.user)},
    )


@require_safe
def replay_step(request: HttpRequest, match_id: int) -> JsonResponse:
    """One position as JSON: {round, step, last, html, line, url}."""
    match = _viewable(request, match_id)
    number, k = parse_position(request.GET.get("round"), request.GET.get("step"))
    try:
        rep = round_replay(match, number)
    except NotReplayable:
        return JsonResponse({"error": words.round_not_ended()}, status=404)
    step = rep.step(k)
    names = boards.names(rep)
    return JsonResponse(
        {
            "round": rep.round.number,
            "step": step.index,
            "last": rep.last,
            "html": str(boards.step_html(rep, step.index)),
            "line": words.step_line(step, names),
            "url": position_url(match.pk, rep.round.number, step.index),
        }
    )
