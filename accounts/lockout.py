"""How many wrong passwords lock a login out (django-axes' AXES_FAILURE_LIMIT, a callable).

Two counts are kept (AXES_LOCKOUT_PARAMETERS in tablesite/settings.py): failures for one
user name from one address, and failures from one address across every name (password
spraying: one guess for each of many names). A name is locked out from an
address after `PAIR_LIMIT` failures; an address after `ADDRESS_LIMIT`, so a household or
a school behind one address keeps logging in while one of them mistypes.

axes compares the larger of the two counts with one limit; this answers `PAIR_LIMIT`
when this name's own count from this address has reached it, else `ADDRESS_LIMIT`.
The lockout page (`lockout_response`, AXES_LOCKOUT_CALLABLE) says which of the two
holds from the same answer: this account from this connection, or every account from it.
"""

from __future__ import annotations

from typing import Any

from axes.conf import settings as axes_settings
from axes.helpers import get_client_ip_address, get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

#: wrong passwords for one name from one address before that pair is locked out
PAIR_LIMIT = 5
#: wrong passwords from one address, whatever the names, before the address is locked out
ADDRESS_LIMIT = 30


def failure_limit(request: HttpRequest, credentials: dict[str, Any] | None) -> int:
    address = getattr(request, "axes_ip_address", None) or get_client_ip_address(request)
    attempts = AccessAttempt.objects.filter(
        username=get_client_username(request, credentials), ip_address=address
    )
    cool_off = get_cool_off(request)
    if cool_off is not None:
        attempts = attempts.filter(attempt_time__gte=timezone.now() - cool_off)
    failures = attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0
    return PAIR_LIMIT if failures >= PAIR_LIMIT else ADDRESS_LIMIT


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """The lockout page (HTTP 429), in words that fit the lock: too many wrong passwords
    for this name from this address (`PAIR_LIMIT`: other accounts still log in from
    here), or from this address across names (`ADDRESS_LIMIT`: no account does)."""
    limit = failure_limit(request, credentials)
    context = {
        "failure_limit": limit,
        "by_address": limit != PAIR_LIMIT,
        "cooloff_timedelta": get_cool_off(request),
    }
    return render(
        request, "accounts/locked_out.html", context, status=axes_settings.AXES_HTTP_RESPONSE_CODE
    )
