"""Throttles for creating accounts: sign-ups and guests per address (a small table,
`accounts.models.Attempt`, so every server process counts the same attempts).

`settings.ACCOUNT_THROTTLES` maps a kind to (at most this many, per these seconds);
the defaults below hold when it is not set.

Counting and recording are one step: `allow` holds a PostgreSQL
transaction-level advisory lock on (kind, address) while it counts and inserts, so
parallel requests from one address queue on it instead of all reading the same count
(30 parallel guest creations made 15 guests where the limit was 10)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.http import HttpRequest
from django.utils import timezone

from accounts.models import Attempt

#: the first key of the advisory locks taken here (the second is the hash of kind and address)
LOCK_SPACE = 0x7A11  # "throttle"; other advisory locks in the site use other first keys

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
    with transaction.atomic():
        with connection.cursor() as cursor:
            # Held until this transaction ends: the count below and the insert are one step.
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [LOCK_SPACE, f"{kind} {ip}"]
            )
        since = timezone.now() - timedelta(seconds=seconds)
        Attempt.objects.filter(kind=kind, address=ip, created_at__lt=since).delete()
        if Attempt.objects.filter(kind=kind, address=ip).count() >= most:
            return False
        Attempt.objects.create(kind=kind, address=ip)
        return True
