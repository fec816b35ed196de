"""The table page (`/m/<id>/`, the board of a match), its drawers' contents (the log,
`/m/<id>/log/`, and the rules, `/rules/panel/`: fetched when opened, not sent with every
page) and the rules page (`/rules/`).

Thin views: who may look is decided by games.permissions (a player of the match, its
creator, a spectator holding the watch token, staff with the named permission); anyone
else gets the 404 of a match that does not exist; what they see is `games.table.board`'s job
(R24: a hand only for its owner, none for spectators or under the relay cover).
The page renders the board server-side so it works before the websocket connects;
``static/js/table.js`` then keeps it live over ``/ws/m/<id>/``.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_cookie

from games import permissions, services
from games.board.draw import board_html
from games.board.viewer import Viewer
from games.models import Match
from games.permissions import Action as Can
from games.reads.seats import match_with_seats
from games.table import board, board_reads, words
from games.words import rules as rules_text


def _access(request: HttpRequest, match_id: int) -> tuple[Match, tuple[int, ...], bool]:
    """The match, the seats this user plays, and whether they came with the watch token.

    Raises Http404 for anyone who may not watch it (games.permissions), signed in or not,
    exactly as for a match that does not exist: nobody learns which ids exist.
    """
    match = match_with_seats(match_id)
    token = request.GET.get("watch", "")
    user = request.user
    if match is None or not permissions.may(user, Can.WATCH, match, token=token, log_watch=True):
        raise Http404
    return (
        match,
        tuple(permissions.seats_controlled(match, user)),
        permissions.token_ok(match, token),
    )


@require_safe
def table(request: HttpRequest, match_id: int) -> HttpResponse:
    """The table: the live board of a match for a player, the creator or a spectator."""
    with board_reads.snapshot():  # the page's board is one version too
        return _table(request, match_id)


def _table(request: HttpRequest, match_id: int) -> HttpResponse:
    match, controlled, watching = _access(request, match_id)
    token = request.GET.get("watch", "")
    user = request.user
    if match.state is None or match.status == Match.Status.WAITING:
        # Not started: the match page shows the seats and the invitation link.
        detail = reverse("games:detail", args=[match.pk])
        return redirect(f"{detail}?{urlencode({'watch': token})}" if watching else detail)
    signed_in = user if user.is_authenticated else None
    viewer = Viewer(
        user=signed_in,
        controlled=controlled,
        autodraw=bool(controlled) and services.autodraw_of(signed_in),
    )
    b = board.board_context(match=match, viewer=viewer)
    ws_path = reverse("games:table", args=[match.pk]).replace("/m/", "/ws/m/", 1)
    return render(
        request,
        "games/table.html",
        {
            "b": b,
            "board_html": board_html(b),  # a Jinja2 template (games/board/jinja_env.py)
            "match": match,
            "ws_path": ws_path,
            "watch_token": match.watch_token if not controlled and watching else "",
            "strings": words.script_words(),
            "log_url": reverse("games:table_log", args=[match.pk]),
        },
    )


@require_safe
def table_log(request: HttpRequest, match_id: int) -> HttpResponse:
    """The log panel's contents (every action in words, R26), fetched when the panel opens."""
    match, controlled, _watching = _access(request, match_id)
    seat = controlled[0] if len(controlled) == 1 else None  # "You" only when one seat is yours
    return HttpResponse(board.render_log(match=match, viewer_seat=seat))


@require_safe
def rules(request: HttpRequest) -> HttpResponse:
    """R1–R30 in plain words, from `games.words.rules` (the one source)."""
    return render(
        request, "games/rules.html", {"rules": rules_text.sections(), "keys": rules_text.KEYS}
    )


@require_safe
@cache_control(max_age=3600)
@vary_on_cookie  # the language cookie (LocaleMiddleware adds Accept-Language)
def rules_panel(request: HttpRequest) -> HttpResponse:
    """The rules as the table's drawer shows them (fetched when it first opens): the same
    list as the rules page, its anchors prefixed so they do not clash with the table's ids."""
    return render(
        request,
        "games/rules_list.html",
        {
            "rules": rules_text.sections(),
            "keys": rules_text.KEYS,
            "level": 3,
            "id_prefix": "panel-",
        },
    )
