"""Request types for views (for the type checker only: nothing here changes how a request
is handled)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest


class AuthenticatedHttpRequest(HttpRequest):
    """The request of a view behind `login_required`: its user is signed in."""

    user: User
