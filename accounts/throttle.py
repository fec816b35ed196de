"""Throttles for creating accounts: sign-ups and guests per address (a small table,
`accounts.models.Attempt`, so every server process counts the same attempts).

`settings.ACCOUNT_THROTTLES` maps a kind to (at most this many, per these seconds);
the defaults below hold when it is not set."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone

from accounts.models import Attempt

#: kind -> (limit, window in seconds)
DEFAULTS: dict[str, tuple[int, int]] = {
    Attempt.Kind.SIGNUP: (5, 3600),
    Attempt.Kind.GUEST: (10, 3600),
}


def address(request: HttpRequest) -> str:
    """The visitor's address as the server sees it (behind a proxy: daphne --proxy-headers)."""
    return request.META.get("REMOTE_ADDR") or "0.0.0.0"


def limit(kind: str) -> tuple[int, int]:
    return getattr(settings, "ACCOUNT_THROTTLES", {}).get(kind, DEFAULTS[kind])


def allow(kind: str, request: HttpRequest) -> bool:
    """Count one more `kind` from the request's address; False (nothing counted) past the limit."""
    most, seconds = limit(kind)
    ip = address(request)
    since = timezone.now() - timedelta(seconds=seconds)
    Attempt.objects.filter(kind=kind, address=ip, created_at__lt=since).delete()
    if Attempt.objects.filter(kind=kind, address=ip).count() >= most:
        return False
    Attempt.objects.create(kind=kind, address=ip)
    return True
