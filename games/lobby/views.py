"""Pages around the table: My matches, the lobby, creating, joining and watching a match.

Thin views (design.md): the services (`games.services`) create matches and seat
players, the selectors (`games.reads.selectors`) find the matches to list, and
`games.reads.queries.match_summary` turns a match into a list row from public information
only (R24). The table itself (`/m/<id>/`) is the board's page.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Prefetch, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.utils.http import urlencode
from django.views.decorators.http import require_http_methods, require_safe

from accounts import guests
from games import permissions, services
from games.errors import NOT_FOUND, SEAT_TAKEN, GameError
from games.lobby import quick
from games.lobby.forms import INVITED, NONE, OTHER_SEATS, MatchCreateForm, kind_field
from games.models import MAX_SEATS, Match, Seat
from games.permissions import Action as Can
from games.reads import selectors
from games.reads.queries import match_summary
from games.reads.seats import match_seats as seats_of
from games.reads.seats import match_with_seats
from games.words import sentence

#: finished matches shown per page of "My matches"
FINISHED_PER_PAGE = 20


def _with_seats(matches: QuerySet[Match]) -> QuerySet[Match]:
    return matches.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))


def _links(request: HttpRequest, match: Match) -> dict[str, str]:
    """The invitation and spectator links of a match, absolute so they can be shared."""
    return {
        "invite_url": request.build_absolute_uri(
            reverse("games:join", args=[match.pk, match.invite_token])
        ),
        "watch_url": request.build_absolute_uri(
            reverse("games:watch", args=[match.pk, match.watch_token])
        ),
    }


# ------------------------------------------------------------------ my matches


@require_safe
@login_required
def my_matches(request: HttpRequest) -> HttpResponse:
    """The signed-in user's matches in progress and finished, each resumable in one click."""
    mine = _with_seats(selectors.my_matches(request.user))
    in_progress = [
        match_summary(m, request.user) for m in mine.exclude(status=Match.Status.FINISHED)
    ]
    in_progress.sort(key=lambda s: not s.your_turn)  # the matches waiting for you first (stable)
    finished_page = Paginator(
        mine.filter(status=Match.Status.FINISHED), FINISHED_PER_PAGE
    ).get_page(request.GET.get("page"))
    finished = [match_summary(m, request.user) for m in finished_page.object_list]
    return render(
        request,
        "games/my_matches.html",
        {
            "in_progress": in_progress,
            "finished": finished,
            "finished_page": finished_page,
        },
    )


# ------------------------------------------------------------------ lobby


#: listed matches being played shown in the lobby
LIVE_SHOWN = 20


def _form(request: HttpRequest, data: object = None) -> MatchCreateForm:
    return MatchCreateForm(
        data,
        initial=_friends_seats(request),
        creator_name=request.user.get_username(),
        creator_pk=request.user.pk,
        guest=guests.is_guest(request.user),
    )


def _friends_seats(request: HttpRequest) -> dict[str, str]:
    """``?friends=2`` (the front page's "More choices"): the seats after the creator's are that many
    invited people's, the rest left empty, for the creator to add computers to."""
    try:
        friends = int(request.GET.get("friends", ""))
    except ValueError:
        return {}
    if not 1 <= friends <= MAX_SEATS - 1:
        return {}
    return {kind_field(n): INVITED if n <= friends + 1 else NONE for n in OTHER_SEATS}


@require_safe
def lobby(request: HttpRequest) -> HttpResponse:
    """Create a match; the listed matches with a free seat to join; the listed matches
    being played, to watch."""
    form = _form(request) if request.user.is_authenticated else None
    open_matches = [match_summary(m, request.user) for m in _with_seats(selectors.open_matches())]
    live = [match_summary(m, request.user) for m in _with_seats(quick.live_matches())[:LIVE_SHOWN]]
    return render(
        request,
        "games/lobby.html",
        {
            "form": form,
            "open_matches": open_matches,
            "live": live,
            "only_private": not live and quick.private_playing(),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def match_create(request: HttpRequest) -> HttpResponse:
    """Create a match (R2 seats, R4 seed, R31 length) and go to its table."""
    form = _form(request, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            match = services.match_create(
                creator=request.user,
                seats=form.seat_specs(),
                seed=form.cleaned_data["seed"],
                listed=form.cleaned_data.get("listed", False),
                pace=form.cleaned_data["pace"],
                away_limit=form.cleaned_data["away_limit"],
                rounds=form.cleaned_data["length"],
            )
        except GameError as e:
            form.add_error(None, e.message)
        else:
            if match.status == Match.Status.WAITING:
                text = sentence("match_ready", id=match.pk)
            else:
                text = sentence("match_started", id=match.pk)
            messages.success(request, text)
            return redirect("games:table", match.pk)
    return render(request, "games/create.html", {"form": form})


# ------------------------------------------------------------------ a match


@require_safe
def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    """A short page about one match: seats, round, totals, whose turn, and its links.

    Players of the match see the invitation and spectator links; anyone holding the
    spectator token (`?watch=`) sees the public summary; everyone else (games.permissions)
    gets a 404, signed in or not, so the page does not tell strangers that the match exists.
    """
    match = match_with_seats(match_id)
    token = request.GET.get("watch", "")
    if match is None or not permissions.may(request.user, Can.WATCH, match, token=token):
        raise Http404  # the same for a match that does not exist: nobody learns which ids exist
    watching = permissions.token_ok(match, token)
    participant = permissions.may(request.user, Can.SEE_LINKS, match)
    table_url = reverse("games:table", args=[match.pk])
    if watching and not participant:
        table_url += "?" + urlencode({"watch": match.watch_token})
    context = {
        "summary": match_summary(match, request.user),
        "participant": participant,
        "watching": watching and not participant,
        "table_url": table_url,
    }
    if participant:
        context.update(_links(request, match))
    return render(request, "games/match_detail.html", context)


@require_safe
def match_seats(request: HttpRequest, match_id: int) -> HttpResponse:
    """The seats card of a match's page alone, for its players while it waits for friends
    (static/js/waiting.js asks for it every few seconds instead of reloading the page).
    ``X-Match-Status`` says whether the match has started: then the page goes to the table.
    Anyone else gets the 404 the page gives them."""
    match = match_with_seats(match_id)
    if match is None or not permissions.may(request.user, Can.SEE_LINKS, match):
        raise Http404
    response = render(request, "games/_match_seats.html", {"s": match_summary(match, request.user)})
    response["X-Match-Status"] = match.status
    response["Cache-Control"] = "no-store"
    return response


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, match_id: int, token: str) -> HttpResponse:
    """Take a free seat with an invitation link (a wrong token is a 404). A visitor
    without an account may join as a guest (one click), or log in first."""
    match = match_with_seats(match_id)
    if match is None or not constant_time_compare(token, match.invite_token):
        raise Http404
    if request.method == "POST" and not request.user.is_authenticated and _free_seats(match):
        if quick.player(request) is None:
            return redirect(request.get_full_path())
    already = _held_seat(match, request.user)
    error = ""
    if request.method == "POST" and already is not None:
        messages.info(request, sentence("seat_held", number=already.index + 1))
        return redirect("games:table", match.pk)
    if request.method == "POST":
        try:
            seat_index: int | None = int(request.POST.get("seat", ""))
        except ValueError:
            seat_index = None
        try:
            seat = services.seat_join(
                match_id=match.pk, user=request.user, token=token, seat_index=seat_index
            )
        except GameError as e:
            if e.code == NOT_FOUND:
                raise Http404 from None
            match = match_with_seats(match_id)
            if match is None:
                raise Http404 from None
            if e.code != SEAT_TAKEN:
                error = e.message
            elif _free_seats(match):
                error = sentence("seat_just_taken")
            else:
                error = sentence("match_full_now")
        else:
            messages.success(request, sentence("joined", id=match.pk, number=seat.index + 1))
            return redirect("games:table", match.pk)
    free = _free_seats(match)
    # shown once: as the error after a refused POST, as a notice on a GET
    notice = not free and not already and not error
    return render(
        request,
        "games/join.html",
        {
            "summary": match_summary(match, request.user),
            "free_seats": free,
            "already": already,
            "error": error,
            "closed": sentence("seed_chosen_no_join") if notice and match.seed_chosen else "",
            "full": notice and not match.seed_chosen,
        },
        status=409 if error else 200,
    )


def _held_seat(match: Match, user: object) -> Seat | None:
    pk = getattr(user, "pk", None)
    if pk is None:
        return None
    return next((s for s in seats_of(match) if s.kind == Seat.Kind.HUMAN and s.user_id == pk), None)


def _free_seats(match: Match) -> list[Seat]:
    """The seats a visitor may take; none at a match whose creator chose the seed (R4: they
    know every hand), as `services.seat_join` says too."""
    if match.seed_chosen:
        return []
    return sorted(
        (
            s
            for s in seats_of(match)
            if s.kind == Seat.Kind.HUMAN and s.user_id is None and not s.name
        ),
        key=lambda s: s.index,
    )


@require_safe
def watch(request: HttpRequest, match_id: int, token: str) -> HttpResponse:
    """A spectator link: the table page in spectator mode (no hand is shown, R24)."""
    match = get_object_or_404(Match, pk=match_id)
    if not permissions.may(request.user, Can.WATCH_LINK, match, token=token):
        raise Http404
    return HttpResponseRedirect(
        f"{reverse('games:table', args=[match.pk])}?{urlencode({'watch': token})}"
    )
