"""One click from the front page to a table: "Play now against computers" and
"Play with friends" (a private table whose invitation link is shared, or the create form with
its friends' seats filled in, for computers, the match's length and the pace too).

A visitor without an account becomes a guest first (`accounts.guests`, throttled per
address by `accounts.throttle`); the tables made here are private (not listed in the
lobby). Thin views: `games.services.match_create` creates the match.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts import guests, throttle
from games import services
from games.lobby import forms
from games.models import MAX_SEATS, Match
from games.words import sentence

#: the level of the computers of "Play now": the middle one
COMPUTER_LEVEL = forms.CASUAL
#: the computers of "Play now" (a four-seat table: you and three computers)
COMPUTERS = 3
#: "Play with friends": how many free seats the front page offers at most
MAX_FRIENDS = MAX_SEATS - 1


def player(request: HttpRequest) -> Any:
    """The signed-in user, or a new guest for a visitor; None past the guest throttle
    (the message is queued for the page)."""
    if request.user.is_authenticated:
        return request.user
    if not throttle.allow(throttle.Attempt.Kind.GUEST, request):
        messages.error(
            request,
            sentence("guests_throttled"),
        )
        return None
    return guests.create(request)


def home_context() -> dict[str, Any]:
    """What the front page's choices need."""
    return {"friend_counts": range(1, MAX_FRIENDS + 1)}


def refused(request: HttpRequest) -> HttpResponse:
    """The front page again, with the throttle's message (429 Too Many Requests)."""
    return render(request, "home.html", home_context(), status=429)


@require_POST
def play_computers(request: HttpRequest) -> HttpResponse:
    """A private table: the visitor and three computers; the match starts at once."""
    user = player(request)
    if user is None:
        return refused(request)
    seats = [services.SeatSpec(kind="me")] + [
        services.SeatSpec(kind="computer", level=COMPUTER_LEVEL) for _n in range(COMPUTERS)
    ]
    match = services.match_create(creator=user, seats=seats, listed=False)
    return redirect("games:table", match.pk)


@require_POST
def play_friends(request: HttpRequest) -> HttpResponse:
    """A private table with free seats for friends; its page shows the invitation link."""
    try:
        friends = int(request.POST.get("friends", "1"))
    except ValueError:
        friends = 0
    if not 1 <= friends <= MAX_FRIENDS:
        messages.error(request, sentence("friends_range", most=MAX_FRIENDS))
        return render(request, "home.html", home_context(), status=400)
    user = player(request)
    if user is None:
        return refused(request)
    if request.POST.get("choose"):
        # "More choices": the create form, its friends' seats filled in, where computers, the
        # match's length and the pace are chosen too (a visitor is a guest by now, so may use it).
        return redirect(f"{reverse('games:create')}?friends={friends}")
    seats = [services.SeatSpec(kind="me")] + [
        services.SeatSpec(kind="human") for _n in range(friends)
    ]
    match = services.match_create(creator=user, seats=seats, listed=False)
    messages.success(request, sentence("table_ready"))
    return redirect("games:detail", match.pk)


def live_matches() -> Any:
    """Listed matches being played now, for "Watch a game" (newest change first)."""
    return Match.objects.filter(status=Match.Status.PLAYING, listed=True).order_by("-updated_at")


def private_playing() -> bool:
    """Whether private matches are being played: "Watch a game" then says why it shows none."""
    return Match.objects.filter(status=Match.Status.PLAYING, listed=False).exists()
