"""Sign up, log in, log out, password change."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "tile-12-12-engine"


def signed_in_user_id(client: Client) -> str | None:
    return client.session.get("_auth_user_id")


def log_in(client: Client, username: str, password: str) -> bool:
    """Client.login with a request: django-axes (the first auth backend) needs one."""
    return client.login(request=RequestFactory().post("/"), username=username, password=password)


def sign_up(client: Client, username: str = "ana", password: str = PASSWORD, **extra: str):
    return client.post(
        reverse("signup"),
        {"username": username, "password1": password, "password2": password, **extra},
    )


def test_sign_up_creates_the_account_and_signs_in(client: Client) -> None:
    response = sign_up(client)
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    user = get_user_model().objects.get(username="ana")
    assert signed_in_user_id(client) == str(user.pk)

    home = client.get(reverse("home")).content.decode()
    # Just signed up: "Welcome", not "Welcome back" (that is for the next visits).
    name = '<bdi class="pname" title="ana">ana</bdi>'
    assert f"<h1>Welcome, {name}!</h1>" in home and "Welcome back" not in home
    assert "Welcome, ana! Your account is ready." in home
    assert f"Welcome back, {name}!" in client.get(reverse("home")).content.decode()
    # "Play now" tells a visitor no account is needed; not someone signed in already.
    assert "No account needed" not in home and "You and three computer players." in home
    assert "No account needed" in Client().get(reverse("home")).content.decode()


def test_favicon_ico_is_served(client: Client) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response["Content-Type"] == "image/x-icon"
    assert response.content[:4] == b"\0\0\1\0"  # an ICO file's header


def test_sign_up_page_renders_the_form(client: Client) -> None:
    page = client.get(reverse("signup")).content.decode()
    for name in ("username", "password1", "password2", "csrfmiddlewaretoken"):
        assert f'name="{name}"' in page


def test_sign_up_refuses_mismatched_passwords(client: Client) -> None:
    response = client.post(
        reverse("signup"), {"username": "ana", "password1": PASSWORD, "password2": PASSWORD + "x"}
    )
    assert response.status_code == 200
    assert not get_user_model().objects.filter(username="ana").exists()
    assert signed_in_user_id(client) is None
    assert 'aria-invalid="true"' in response.content.decode()


def test_sign_up_refuses_a_taken_name(client: Client) -> None:
    get_user_model().objects.create_user("ana", password=PASSWORD)
    response = sign_up(client)
    assert response.status_code == 200
    assert get_user_model().objects.filter(username="ana").count() == 1


def test_sign_up_follows_a_safe_next_and_ignores_another_site(client: Client) -> None:
    assert sign_up(client, "ana", next="/lobby/")["Location"] == "/lobby/"
    other = Client()
    assert sign_up(other, "bea", next="https://evil.example/")["Location"] == reverse("home")


def test_signed_in_visitors_are_sent_home_from_sign_up(client: Client) -> None:
    client.force_login(get_user_model().objects.create_user("ana", password=PASSWORD))
    response = client.get(reverse("signup"))
    assert response.status_code == 302 and response["Location"] == reverse("home")


def test_log_in_and_log_out(client: Client) -> None:
    get_user_model().objects.create_user("ana", password=PASSWORD)
    assert client.get(reverse("login")).status_code == 200

    wrong = client.post(reverse("login"), {"username": "ana", "password": "nope"})
    assert wrong.status_code == 200 and signed_in_user_id(client) is None

    response = client.post(reverse("login"), {"username": "ana", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert signed_in_user_id(client) is not None

    # Logging out is a POST (a link or image on another page cannot do it).
    assert client.get(reverse("logout")).status_code == 405
    assert signed_in_user_id(client) is not None
    response = client.post(reverse("logout"), follow=True)
    assert signed_in_user_id(client) is None
    assert "You have logged out." in response.content.decode()


def test_log_in_goes_to_next(client: Client) -> None:
    get_user_model().objects.create_user("ana", password=PASSWORD)
    response = client.post(
        reverse("login") + "?next=/lobby/",
        {"username": "ana", "password": PASSWORD, "next": "/lobby/"},
    )
    assert response["Location"] == "/lobby/"


def test_password_change(client: Client) -> None:
    get_user_model().objects.create_user("ana", password=PASSWORD)

    anonymous = client.get(reverse("password_change"))
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith(reverse("login") + "?next=")

    log_in(client, "ana", PASSWORD)
    new = "double-six-spinner"
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == reverse("password_change_done")
    assert "Password changed" in response.content.decode()
    assert signed_in_user_id(client) is not None  # the session survives the change

    fresh = Client()
    assert not log_in(fresh, "ana", PASSWORD)
    assert log_in(fresh, "ana", new)


def test_password_change_needs_the_old_password(client: Client) -> None:
    user = get_user_model().objects.create_user("ana", password=PASSWORD)
    client.force_login(user)
    response = client.post(
        reverse("password_change"),
        {"old_password": "wrong", "new_password1": "x-new-pass-1", "new_password2": "x-new-pass-1"},
    )
    assert response.status_code == 200
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_forms_need_csrf() -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        reverse("signup"), {"username": "ana", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 403
