"""Notes when a guest was last seen (at most once a day per session), for `remove_guests`."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from accounts import guests

SESSION_KEY = "guest_seen"


class GuestSeenMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            today = timezone.now().date().isoformat()
            if request.session.get(SESSION_KEY) != today:
                request.session[SESSION_KEY] = today
                if guests.is_guest(user):
                    guests.touch(user)
        return self.get_response(request)
