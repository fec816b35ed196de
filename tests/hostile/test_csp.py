"""A Content-Security-Policy without inline script: a second wall behind the escaping (issue 13).

Every page carries the header; its script-src allows only the site's own files, and no
page holds an inline script or an inline event handler (they would stop working under
the policy, so a test that renders the pages finds them first).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.services import SeatSpec

pytestmark = pytest.mark.django_db

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)
HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)


def policy(response: Any) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


def test_pages_carry_a_policy_without_inline_script_and_hold_none(django_user_model: Any) -> None:
    root = django_user_model.objects.create_superuser("root", password=None)
    match = services.match_create(
        creator=root, seats=[SeatSpec("me"), SeatSpec("computer", level="casual")]
    )
    client = Client()
    client.force_login(root)
    pages = [
        reverse("home"),
        reverse("games:lobby"),
        reverse("games:my_matches"),
        reverse("games:rules"),
        reverse("games:table", args=[match.pk]),
        reverse("games:detail", args=[match.pk]),
        reverse("games:create"),
        reverse("admin:games_match_replay", args=[match.pk]),
        reverse("admin:games_match_change", args=[match.pk]),
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        directives = policy(response)
        assert directives["script-src"] == ["'self'"], url
        assert (
            "'unsafe-inline'" not in directives["script-src"]
            and "'unsafe-eval'" not in directives["script-src"]
        )
        assert directives["object-src"] == ["'none'"] and directives["frame-ancestors"] == [
            "'none'"
        ]
        html = response.content.decode()
        assert not INLINE_SCRIPT.findall(html), (url, INLINE_SCRIPT.findall(html))
        assert not HANDLER.findall(html), (url, HANDLER.findall(html)[:3])
    anonymous = Client().get(reverse("login"))
    assert policy(anonymous)["script-src"] == ["'self'"]
