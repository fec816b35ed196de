"""The login lockout on a real daphne server (ASGI: django-axes' async middleware path)."""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request

import pytest
from django.contrib.auth import get_user_model

from tests.servers import Processes

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

PASSWORD = "tile-12-12-engine"


def post_login(server_url: str, username: str, password: str) -> tuple[int, str]:
    """A browser's login: fetch the form (CSRF cookie and token), post it. (status, page)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(f"{server_url}/accounts/login/", timeout=30).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token, "the login form carries its CSRF token"
    data = urllib.parse.urlencode(
        {"username": username, "password": password, "csrfmiddlewaretoken": token.group(1)}
    ).encode()
    request = urllib.request.Request(
        f"{server_url}/accounts/login/",
        data=data,
        headers={"Referer": f"{server_url}/accounts/login/"},
    )
    try:
        response = opener.open(request, timeout=30)
        return response.status, response.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_the_lockout_holds_on_the_asgi_server(procs: Processes) -> None:
    get_user_model().objects.create_user("ana", password=PASSWORD)
    get_user_model().objects.create_user("ben", password=PASSWORD)
    server = procs.daphne()
    for attempt in range(4):
        status, page = post_login(server.url, "ana", f"wrong-{attempt}")
        assert status == 200 and "Too many attempts" not in page
    assert post_login(server.url, "ana", "wrong-4")[0] == 429
    status, page = post_login(server.url, "ana", PASSWORD)  # the 6th attempt, the right password
    assert status == 429 and "Too many attempts" in page
    status, page = post_login(server.url, "ben", PASSWORD)  # another name from the same address
    assert (
        status == 200 and "Too many attempts" not in page
    )  # followed the redirect home, signed in
