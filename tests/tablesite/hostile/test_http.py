"""Hostile HTTP requests (Hypothesis): random ids, tokens, query strings and methods on
every page of a match, the lobby, the accounts and the admin.

Whoever asks (anonymous, a stranger, a player), nothing is ever a server error (5xx),
a page that only reads answers other methods with 405, and a stranger or an anonymous
visitor gets a 4xx or the way to the login page, never another user's data: no
invitation or watch token, no tile of anyone's hand.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import services
from games.models import Match
from games.services import SeatSpec
from tests import seeded

pytestmark = pytest.mark.django_db

METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"]
#: pages whose only job is to show something: other methods are refused (405)
READ_ONLY = [
    "/m/{id}/",
    "/m/{id}/log/",
    "/m/{id}/about/",
    "/m/{id}/watch/{token}/",
    "/rules/",
    "/how-to-play/",
    "/lobby/",
    "/matches/",
]
#: every route of a match, the lobby and the admin, with {id} and {token} to fill in
MATCH_PAGES = READ_ONLY + [
    "/m/{id}/join/{token}/",
    "/lobby/new/",
    "/admin/games/match/{id}/change/",
    "/admin/games/match/{id}/replay/",
    "/admin/games/match/{id}/export/",
    "/admin/games/match/{id}/delete/",
    "/admin/games/match/{id}/history/",
]
OTHER_PAGES = [
    "/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/logout/",
    "/accounts/password/",
    "/accounts/keep/",
    "/accounts/tips/",
    "/play/computers/",
    "/play/friends/",
    "/i18n/setlang/",
    "/admin/",
    "/admin/login/",
    "/admin/games/match/",
    "/static/../settings.py",
    "/m/",
    "/m/x/",
    "/ws/m/1/",
    "/m/-1/",
]


@pytest.fixture
def world(django_user_model: Any, settings: Any) -> dict[str, Any]:
    # Random POSTs to the login form hash a password each time: the fast hasher keeps the fuzz quick.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    _SESSIONS.clear()
    alice = django_user_model.objects.create_user("alice")
    bob = django_user_model.objects.create_user("bob")
    carol = django_user_model.objects.create_user("carol")
    playing = seeded.match_create(
        creator=alice,
        seed=7,
        listed=False,
        seats=[
            SeatSpec("me"),
            SeatSpec("local", name="Ana"),
            SeatSpec("human"),
            SeatSpec("computer", level="casual"),
        ],
    )
    services.seat_join(match_id=playing.pk, user=bob, token=playing.invite_token)
    waiting = seeded.match_create(
        creator=alice,
        seed=8,
        listed=False,
        seats=[SeatSpec("me"), SeatSpec("human"), SeatSpec("human")],
    )
    playing.refresh_from_db()
    secrets = {playing.invite_token, playing.watch_token, waiting.invite_token, waiting.watch_token}
    return {
        "users": {"alice": alice, "bob": bob, "carol": carol, "anonymous": None},
        "matches": [playing, waiting],
        "secrets": secrets,
    }


def hand_tiles(html: str) -> list[str]:
    return re.findall(r'data-tile="(\d+-\d+)"', html)


_SESSIONS: dict[int, str] = {}


def client_for(user: Any) -> Client:
    """A client signed in as `user` (None: anonymous); sessions are reused between examples."""
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        from django.contrib.sessions.models import Session

        cookie = _SESSIONS.get(user.pk)
        if cookie is None or not Session.objects.filter(session_key=cookie).exists():
            client.force_login(user)
            _SESSIONS[user.pk] = client.cookies["sessionid"].value
        else:
            client.cookies["sessionid"] = cookie
    return client


def request(
    client: Client, method: str, path: str, query: dict[str, str], body: dict[str, str]
) -> Any:
    url = path + ("?" + urlencode(query) if query else "")
    if method in ("GET", "HEAD", "OPTIONS", "TRACE"):
        return client.generic(method, url)
    return client.generic(
        method, url, urlencode(body), content_type="application/x-www-form-urlencoded"
    )


TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=30)
IDS = st.one_of(
    st.integers(-5, 10**6),
    st.integers(),
    st.sampled_from(["0", "00", "1e3", "abc", "%00", "..", ""]),
)
TOKENS = st.one_of(
    TEXT.map(lambda t: quote(t, safe="")), st.sampled_from(["", "x" * 500, "%2F", "..%2F"])
)


@settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    who=st.sampled_from(["alice", "bob", "carol", "anonymous"]),
    method=st.sampled_from(METHODS),
    page=st.sampled_from(MATCH_PAGES + OTHER_PAGES),
    match=st.sampled_from([0, 1, None]),
    raw_id=IDS,
    token=TOKENS,
    real_token=st.booleans(),
    query=st.dictionaries(
        st.sampled_from(["watch", "step", "next", "page", "seat", "x"]) | TEXT, TEXT, max_size=3
    ),
    body=st.dictionaries(
        st.sampled_from(["seat", "seed", "csrfmiddlewaretoken", "language", "next"]) | TEXT,
        TEXT,
        max_size=3,
    ),
)
def test_no_request_is_a_server_error_or_shows_a_stranger_anything(
    world: dict[str, Any],
    who: str,
    method: str,
    page: str,
    match: int | None,
    raw_id: Any,
    token: str,
    real_token: bool,
    query: dict[str, str],
    body: dict[str, str],
) -> None:
    target: Match | None = world["matches"][match] if match is not None else None
    match_id = str(target.pk) if target is not None else quote(str(raw_id), safe="%")
    if target is not None and real_token and who in ("alice", "bob"):
        token = (
            target.invite_token if "join" in page else target.watch_token
        )  # the players know their links
    path = page.format(id=match_id, token=token or "t")
    response = request(client_for(world["users"][who]), method, path, query, body)
    status = response.status_code
    assert status < 500, (who, method, path, status)
    if (
        method not in ("GET", "HEAD")
        and page in READ_ONLY
        and (target is not None or "{id}" not in page)
    ):
        assert status == 405, (who, method, path, status)
    if who in ("carol", "anonymous") and (target is not None and "{id}" in page):
        assert status >= 400 or (status == 302 and "/login/" in response.get("Location", "")), (
            who,
            method,
            path,
            status,
            response.get("Location"),
        )
    body_text = response.content.decode(errors="replace")
    if who in ("carol", "anonymous"):
        for secret in world["secrets"]:
            assert secret not in body_text, (who, method, path)
        assert hand_tiles(body_text) == [], (who, method, path)


def test_a_stranger_with_every_url_of_a_match_gets_nothing(world: dict[str, Any]) -> None:
    """The same as the fuzz, every route once, for the stranger and for anonymous."""
    for who in ("carol", "anonymous"):
        client = client_for(world["users"][who])
        for target in world["matches"]:
            for page in MATCH_PAGES:
                if "{id}" not in page:
                    continue
                response = client.get(page.format(id=target.pk, token="wrong"))
                assert response.status_code in (302, 403, 404), (who, page, response.status_code)
                if response.status_code == 302:
                    assert "/login/" in response["Location"], (who, page, response["Location"])
                text = response.content.decode()
                assert not any(s in text for s in world["secrets"]) and hand_tiles(text) == []


def test_read_only_pages_refuse_other_methods(world: dict[str, Any]) -> None:
    client = client_for(world["users"]["alice"])
    playing = world["matches"][0]
    for page in READ_ONLY:
        path = page.format(id=playing.pk, token=playing.watch_token)
        assert client.get(path).status_code in (200, 302), path
        for method in ("POST", "PUT", "PATCH", "DELETE"):
            assert request(client, method, path, {}, {}).status_code == 405, (method, path)
