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
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_http_methods, require_safe

from games import permissions
from games.history import boards, reviews, scores, words
from games.history.replays import (
    NotReplayable,
    RoundReplay,
    parse_position,
    round_replay,
)
from games.models import Match, Seat
from games.permissions import Action as Can
from games.reads.seats import match_seats, match_with_seats


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


def reader_seats(match: Match, request: HttpRequest) -> set[int]:
    """The seats the reader played themselves (their notes say "you"); a pass-and-play seat is
    someone else at the creator's device."""
    user_id = request.user.pk
    return {
        s.index for s in match_seats(match) if s.kind == Seat.Kind.HUMAN and s.user_id == user_id
    }


def expert_context(
    request: HttpRequest, replay: RoundReplay, k: int, *, shown: bool
) -> dict[str, Any]:
    """The expert's choices for the replayed round (games.history.reviews): where the review
    stands, a note per reviewed step and the note of step `k`. A read: queues nothing."""
    state = reviews.review_of(replay)
    notes = words.expert_notes(
        state.moves, boards.names(replay), reader_seats(replay.match, request)
    )
    by_step = {n["step"]: n for n in notes}
    if state.status == "done":
        current = by_step.get(k)
        fallback = words.expert_elsewhere()
    else:
        current, fallback = None, words.expert_computing()
    return {
        "status": state.status,
        "shown": shown,
        "notes": notes,
        "differs": {n["step"] for n in notes if n["differs"]},
        "current": current,
        "fallback": fallback,
        "url": reverse("history:replay_review", args=[replay.match.pk])
        + "?"
        + urlencode({"round": replay.round.number}),
        "elsewhere": words.expert_elsewhere(),
        "computing": words.expert_computing(),
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
                {"match": match, "nothing": True},
            )
        raise Http404(words.round_not_ended()) from None
    context = viewer_context(rep, k)
    context["expert"] = expert_context(
        request, rep, context["step"], shown=request.GET.get("expert") == "1"
    )
    # Under it, the match's table talk for its participants (the chat's {% match_chat %}).
    return render(request, "history/replay.html", context)


def _json_position(request: HttpRequest, match: Match) -> tuple[RoundReplay, int] | JsonResponse:
    """The replay of the round and the step the query names (`round`, `step`), or, for a
    round not yet ended, the 404 the replay's scripts read."""
    number, k = parse_position(request.GET.get("round"), request.GET.get("step"))
    try:
        return round_replay(match, number), k
    except NotReplayable:
        return JsonResponse({"error": words.round_not_ended()}, status=404)


@require_safe
def replay_step(request: HttpRequest, match_id: int) -> JsonResponse:
    """One position as JSON: {round, step, last, html, line, url}."""
    match = _viewable(request, match_id)
    found = _json_position(request, match)
    if isinstance(found, JsonResponse):
        return found
    rep, k = found
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


@require_http_methods(["GET", "HEAD", "POST"])
def replay_review(request: HttpRequest, match_id: int) -> HttpResponse:
    """The expert's choices for one ended round: GET says where they stand, as JSON
    {status, notes (HTML)}; POST asks for them (queued for the worker, games.history.reviews,
    never worked out here), then answers the same — or, for a form sent without the page's
    script, goes back to the replay with the choices shown."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    match = _viewable(request, match_id)
    found = _json_position(request, match)
    if isinstance(found, JsonResponse):
        return found
    rep, k = found
    if request.method == "POST" and reviews.review_of(rep).status in ("ask", "computing"):
        reviews.ask(rep.round)
    if request.method == "POST" and "application/json" not in request.headers.get("Accept", ""):
        return HttpResponseRedirect(
            position_url(match.pk, rep.round.number, k) + "&expert=1#replay-expert"
        )
    expert = expert_context(request, rep, k, shown=True)
    return JsonResponse(
        {
            "status": expert["status"],
            "notes": render_to_string(
                "history/_expert_notes.html", {"expert": expert}, request=request
            ),
        }
    )
