"""Forms need their CSRF token, and logging in is throttled (django-axes).

- every form that changes something (sign up, log in, log out, password change,
  create a match, join a seat, the language switcher, the admin's login) answers 403
  to a POST without the CSRF token, and works with it;
- the 6th attempt after 5 wrong passwords for one name from one address is refused
  with 429 and the lockout page, even with the right password, in the visitor's
  language; the same name from another address, and other names from the same
  address, log in as usual; after the 15-minute cool-off the name logs in again;
- the admin's login form is throttled the same way.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone, translation
from django.utils.translation import ngettext

from accounts import lockout
from games.services import SeatSpec
from tests import seeded
from tests.i18n_helpers import english_leaks

pytestmark = pytest.mark.django_db

PASSWORD = "tile-12-12-engine"


@pytest.fixture(autouse=True)
def fast_hasher(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def ana(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("ana", password=PASSWORD)


def csrf_client(user: Any = None, **extra: Any) -> Client:
    client = Client(enforce_csrf_checks=True, **extra)
    if user is not None:
        client.force_login(user)
    return client


def token_from(client: Client, path: str) -> str:
    """The CSRF token a page's form carries (as a browser would submit it)."""
    response = client.get(path)
    assert response.status_code == 200, path
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', response.content.decode())
    assert found, f"{path} has no CSRF token in its form"
    return found.group(1)


def test_every_form_refuses_a_post_without_its_csrf_token(ana: Any, django_user_model: Any) -> None:
    ben = django_user_model.objects.create_user("ben", password=PASSWORD)
    staff = django_user_model.objects.create_user(
        "root", password=PASSWORD, is_staff=True, is_superuser=True
    )
    waiting = seeded.match_create(creator=ana, seats=[SeatSpec("me"), SeatSpec("human")], seed=1)
    forms = [
        (
            None,
            "/accounts/signup/",
            {"username": "eve", "password1": PASSWORD, "password2": PASSWORD},
        ),
        (None, "/accounts/login/", {"username": "ana", "password": PASSWORD}),
        (None, "/i18n/setlang/", {"language": "de", "next": "/"}),
        (None, "/admin/login/", {"username": "root", "password": PASSWORD}),
        (ana, "/accounts/logout/", {}),
        (
            ana,
            "/accounts/password/",
            {
                "old_password": PASSWORD,
                "new_password1": "x-new-pass-1",
                "new_password2": "x-new-pass-1",
            },
        ),
        (ana, "/lobby/new/", {"seed": "5", "seat_0": "me", "seat_1": "computer"}),
        (ben, f"/m/{waiting.pk}/join/{waiting.invite_token}/", {"seat": "1"}),
        (staff, f"/admin/games/match/{waiting.pk}/change/", {"listed": "on"}),
    ]
    for user, path, data in forms:
        response = csrf_client(user).post(path, data)
        assert response.status_code == 403, (path, response.status_code)
    waiting.refresh_from_db()
    assert waiting.seats.get(index=1).user is None  # the join did not happen
    assert not django_user_model.objects.filter(username="eve").exists()
    assert django_user_model.objects.get(username="ana").check_password(PASSWORD)

    # With the token the same forms work (so the 403s above were about the token alone).
    client = csrf_client()
    token = token_from(client, "/accounts/login/")
    response = client.post(
        "/accounts/login/", {"username": "ana", "password": PASSWORD, "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 302 and client.session.get("_auth_user_id") == str(ana.pk)
    joiner = csrf_client(ben)
    token = token_from(joiner, f"/m/{waiting.pk}/join/{waiting.invite_token}/")
    response = joiner.post(
        f"/m/{waiting.pk}/join/{waiting.invite_token}/", {"seat": "1", "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 302
    assert waiting.seats.get(index=1).user == ben


def log_in(client: Client, username: str, password: str, path: str = "/accounts/login/") -> Any:
    return client.post(path, {"username": username, "password": password})


def signed_in(client: Client) -> bool:
    return client.session.get("_auth_user_id") is not None


def test_the_sixth_attempt_after_five_wrong_passwords_is_locked_out(
    ana: Any, django_user_model: Any
) -> None:
    django_user_model.objects.create_user("ben", password=PASSWORD)
    assert lockout.PAIR_LIMIT == 5
    here = Client(REMOTE_ADDR="203.0.113.7")
    for attempt in range(1, 5):
        response = log_in(here, "ana", f"wrong-{attempt}")
        assert response.status_code == 200 and not signed_in(here), (
            attempt
        )  # the form, with its error
    response = log_in(here, "ana", "wrong-5")
    assert response.status_code == 429  # the 5th failure locks the name out from this address
    response = log_in(here, "ana", PASSWORD)  # the 6th attempt, with the right password
    assert response.status_code == 429 and not signed_in(here)
    page = response.content.decode()
    assert "Too many attempts" in page and "15 minutes" in page
    assert "for this account 5 times" in page and "any account" not in page  # this name's lock
    assert PASSWORD not in page

    # Another name from the same address, the same name from another address: not affected.
    neighbour = Client(REMOTE_ADDR="203.0.113.7")
    assert log_in(neighbour, "ben", PASSWORD).status_code == 302 and signed_in(neighbour)
    elsewhere = Client(REMOTE_ADDR="198.51.100.20")
    assert log_in(elsewhere, "ana", PASSWORD).status_code == 302 and signed_in(elsewhere)

    # Still locked here until the cool-off has passed.
    again = Client(REMOTE_ADDR="203.0.113.7")
    assert log_in(again, "ana", PASSWORD).status_code == 429
    from axes.models import AccessAttempt

    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert log_in(again, "ana", PASSWORD).status_code == 302 and signed_in(again)


@pytest.mark.parametrize("lang", ["es", "de"])
@pytest.mark.parametrize("by_address", [False, True])
def test_the_lockout_page_speaks_the_visitors_language(
    ana: Any, lang: str, by_address: bool
) -> None:
    client = Client(REMOTE_ADDR="203.0.113.9", HTTP_ACCEPT_LANGUAGE=lang)
    names = [f"player{n}" for n in range(lockout.ADDRESS_LIMIT)] if by_address else ["ana"] * 5
    for attempt, name in enumerate(names):
        log_in(client, name, f"wrong-{attempt}")
    response = log_in(client, "ana", PASSWORD)
    assert response.status_code == 429
    html = response.content.decode()
    assert f'lang="{lang}"' in html
    assert english_leaks(html, lang) == []
    with translation.override(lang):  # the sentence of the lock that holds
        by_name = ngettext(
            "A wrong password was given for this account %(limit)s time from your "
            "connection, so logging in to it from here is paused.",
            "A wrong password was given for this account %(limit)s times from your "
            "connection, so logging in to it from here is paused.",
            5,
        ) % {"limit": 5}
    assert (by_name in html) is not by_address


def test_the_admin_login_is_throttled_too(django_user_model: Any) -> None:
    django_user_model.objects.create_user(
        "root", password=PASSWORD, is_staff=True, is_superuser=True
    )
    client = Client(REMOTE_ADDR="192.0.2.44")
    for attempt in range(5):
        log_in(client, "root", f"wrong-{attempt}", path="/admin/login/")
    response = log_in(client, "root", PASSWORD, path="/admin/login/")
    assert response.status_code == 429 and not signed_in(client)


def test_password_spraying_from_one_address_is_locked_out_across_names(
    django_user_model: Any,
) -> None:
    """One guess for each of many names was never locked out. The 30th
    failure from one address, whatever the names, locks the address out; another address
    is not affected, and a household's few mistakes lock nobody out."""
    for n in range(lockout.ADDRESS_LIMIT):
        django_user_model.objects.create_user(f"player{n}")
    django_user_model.objects.create_user("ben", password=PASSWORD)
    sprayer = Client(REMOTE_ADDR="203.0.113.50")
    for n in range(lockout.ADDRESS_LIMIT - 1):
        assert log_in(sprayer, f"player{n}", "Summer2026!").status_code == 200, n
    assert log_in(sprayer, f"player{lockout.ADDRESS_LIMIT - 1}", "Summer2026!").status_code == 429
    # Now every name from that address waits for the cool-off, even with the right password,
    # and the page says so: not "this account", but any account from this connection.
    response = log_in(Client(REMOTE_ADDR="203.0.113.50"), "ben", PASSWORD)
    page = response.content.decode()
    assert response.status_code == 429 and "Too many attempts" in page and "15 minutes" in page
    assert f"{lockout.ADDRESS_LIMIT} times from your connection" in page
    assert "any account from here is paused" in page and "this account" not in page
    assert log_in(Client(REMOTE_ADDR="198.51.100.21"), "ben", PASSWORD).status_code == 302
