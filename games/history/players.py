"""Player pages: an account's finished matches, stats and rating, and the leaderboard."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from games import length, permissions
from games.history.models import PlayerStats
from games.history.stats import KINDS, LEADERBOARD_MIN, leaderboard
from games.models import Match, Seat

PER_PAGE = 20


@dataclass(frozen=True)
class HistoryRow:
    match: Match
    #: the match's players ranked by their final totals, lowest first (R22), each with their
    #: place (tied totals share one: 1, 1, 3), not in seat order, which read like a ranking
    seats: list[dict[str, Any]]
    #: "won", "shared", "lost"
    result: str
    result_text: str
    total: int | None
    place: int | None
    #: a shorter match's length in words ("7 rounds from 6-6", R31); "" for the standard match
    length_label: str = ""


def _kind_label(kind: str) -> str:
    return {
        "people": _("against people"),
        "beginner": _("against beginner computers"),
        "casual": _("against casual computers"),
        "expert": _("against expert computers"),
    }[kind]


def history_rows(user: Any, matches: list[Match]) -> list[HistoryRow]:
    rows = []
    for m in matches:
        seats = sorted(m.seats.all(), key=lambda s: s.index)
        totals = (m.state or {}).get("totals") or [None] * len(seats)
        mine = next((s for s in seats if s.kind == Seat.Kind.HUMAN and s.user_id == user.pk), None)
        best = min((t for t in totals if t is not None), default=None)
        winners = [i for i, t in enumerate(totals) if t is not None and t == best]
        total = totals[mine.index] if mine is not None else None
        if mine is None:
            result, text = "", _("Pass-and-play")
        elif mine.index in winners and len(winners) > 1:
            result, text = "shared", _("Shared win")
        elif mine.index in winners:
            result, text = "won", _("Won")
        else:
            result, text = "lost", _("Lost")
        place = 1 + sum(1 for t in totals if t is not None and total is not None and t < total)
        rows.append(
            HistoryRow(
                match=m,
                result=result,
                result_text=text,
                total=total,
                place=place if mine else None,
                length_label="" if length.is_standard(m.length) else length.label(m.length),
                seats=ranked(seats, totals, mine),
            )
        )
    return rows


def ranked(seats: list[Seat], totals: list[int | None], mine: Seat | None) -> list[dict[str, Any]]:
    """The seats by final total, lowest first (R22: the lowest total wins), with their places
    (equal totals share a place: 1, 1, 3) and the player's own marked."""
    order = sorted(seats, key=lambda s: (totals[s.index] is None, totals[s.index] or 0, s.index))
    return [
        {
            "place": 1
            + sum(1 for t in totals if t is not None and total is not None and t < total),
            "number": s.index + 1,
            "name": s.display_name,
            "total": total,
            "me": s is mine,
            "computer": s.kind == Seat.Kind.COMPUTER,
        }
        for s in order
        for total in [totals[s.index]]
    ]


@require_safe
@login_required
def player(request: HttpRequest, username: str) -> HttpResponse:
    """One account's record: stats, rating with its uncertainty, and the finished matches the
    viewer may replay (like lichess: a private match shows only to those who may open it,
    games.permissions; the stats count every match, naming none)."""
    who = get_object_or_404(get_user_model(), username=username)
    stats = PlayerStats.objects.filter(user=who).first()
    finished = (
        Match.objects.filter(
            status=Match.Status.FINISHED, seats__user=who, seats__kind=Seat.Kind.HUMAN
        )
        .filter(permissions.may_look_back_q(request.user))
        .distinct()
        .order_by("-finished_at", "-pk")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
    )
    page = Paginator(finished, PER_PAGE).get_page(request.GET.get("page"))
    by_kind = []
    if stats is not None:
        for kind in KINDS:
            row = stats.by_opponents.get(kind)
            if row:
                by_kind.append({"label": _kind_label(kind), **row})
    return render(
        request,
        "history/player.html",
        {
            "who": who,
            "stats": stats,
            "by_kind": by_kind,
            "page": page,
            "rows": history_rows(who, list(page.object_list)),
            "leaderboard_min": LEADERBOARD_MIN,
            "own": who.pk == request.user.pk,
        },
    )


@require_safe
@login_required
def players(request: HttpRequest) -> HttpResponse:
    """The leaderboard: players with enough rated matches (among people), by rating."""
    return render(
        request, "history/leaderboard.html", {"rows": leaderboard(), "minimum": LEADERBOARD_MIN}
    )
