"""A mail server that fails never fails a page nor leaves a half-made account.

Sign-up with an address, and the account's e-mail page, each against a mail server that
refuses the connection, accepts it and never speaks (a short EMAIL_TIMEOUT), hangs up in
the middle of the message, refuses the login, offers no STARTTLS, or speaks no TLS where
TLS is expected: no 500; the account is made and the person signed in, its address kept;
the page says the link could not be sent and offers "Send again", which works once the
mail server works (a real one on loopback, aiosmtpd, as in tests/accounts/test_email.py)."""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult
from django.contrib.auth import get_user_model
from django.db.models import F
from django.test import Client
from django.urls import reverse

from accounts import emails
from accounts.models import EmailAddress
from tests.accounts.test_email import PASSWORD, Inbox, smtp_server

pytestmark = pytest.mark.django_db

#: every way the mail server fails here
FAILURES = ["refused", "silent", "hangs_up", "bad_login", "no_starttls", "not_tls"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class HangUp:
    """aiosmtpd's handler: drops the connection once the message is under way."""

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 (aiosmtpd's name)
        server.transport.close()
        return "250 OK"  # never reaches the client


def refuse_login(*args: Any) -> AuthResult:
    return AuthResult(success=False, handled=False)


@contextmanager
def failing_mail_server(kind: str, settings: Any) -> Iterator[None]:
    """Django's SMTP backend pointed at a mail server that fails as `kind` says."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_TIMEOUT = 0.5
    if kind == "refused":  # nothing listens on the port
        settings.EMAIL_PORT = free_port()
        yield
        return
    if kind == "silent":  # the connection is taken (the listen backlog) and never answered
        with socket.socket() as listener:
            listener.bind(("127.0.0.1", 0))
            listener.listen(8)
            settings.EMAIL_PORT = listener.getsockname()[1]
            yield
        return
    options: dict[str, Any] = {}
    handler: Any = Inbox()
    if kind == "hangs_up":
        handler = HangUp()
    elif kind == "bad_login":
        options = {"authenticator": refuse_login, "auth_require_tls": False}
        settings.EMAIL_HOST_USER, settings.EMAIL_HOST_PASSWORD = "site", "wrong"
    elif kind == "no_starttls":  # the server offers no STARTTLS
        settings.EMAIL_USE_TLS = True
    elif kind == "not_tls":  # TLS from the first byte, to a server that speaks plain SMTP
        settings.EMAIL_USE_SSL = True
    controller = Controller(handler, hostname="127.0.0.1", port=free_port(), **options)
    controller.start()
    try:
        settings.EMAIL_PORT = controller.port
        yield
    finally:
        controller.stop()


def row(user: Any) -> EmailAddress:
    return EmailAddress.objects.get(user=user)


def signed_in_as(client: Client) -> str | None:
    return client.session.get("_auth_user_id")


def may_try_again_now(user: Any) -> None:
    """As if `emails.RETRY_AFTER` had passed since the failed try."""
    EmailAddress.objects.filter(user=user).update(failed_at=F("failed_at") - emails.RETRY_AFTER)


def send_again_works(client: Client, user: Any, settings: Any) -> None:
    """Once the mail server works, "Send again" sends a link that confirms the address."""
    with smtp_server(settings) as inbox:
        settings.EMAIL_TIMEOUT = 5
        too_soon = client.post(reverse("email"), {"action": "resend"}, follow=True)
        assert "wait a few seconds" in too_soon.content.decode() and inbox.messages == []
        may_try_again_now(user)
        sent = client.post(reverse("email"), {"action": "resend"}, follow=True)
        assert sent.status_code == 200 and "We sent a new link" in sent.content.decode()
        ((to, _message),) = inbox.messages
        assert to == [user.email]
        fresh = row(user)
        assert fresh.sent_at is not None and not fresh.link_failed
        page = client.get(reverse("email")).content.decode()
        assert 'data-state="unverified"' in page  # no longer "could not be sent"
        client.post(inbox.link())
    assert row(user).verified


@pytest.mark.parametrize("kind", FAILURES)
def test_sign_up_while_the_mail_server_fails(
    kind: str, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    client = Client()
    with failing_mail_server(kind, settings), caplog.at_level(logging.WARNING, "accounts"):
        response = client.post(
            reverse("signup"),
            {
                "username": "ana",
                "password1": PASSWORD,
                "password2": PASSWORD,
                "email": "ana@example.org",
            },
        )
    assert response.status_code == 302 and response["Location"] == reverse("home")
    ana = get_user_model().objects.get(username="ana")
    assert signed_in_as(client) == str(ana.pk)  # signed in with the new account
    assert ana.email == "ana@example.org" and row(ana).address == "ana@example.org"
    assert row(ana).link_failed and row(ana).sent_at is None and not row(ana).verified
    assert "mail server did not take it" in caplog.text and "ana@example.org" not in caplog.text
    home = client.get(response["Location"]).content.decode()
    assert "We could not send the link to ana@example.org" in home
    assert "Send again" in home and 'name="action" value="resend"' in home
    page = client.get(reverse("email")).content.decode()
    assert 'data-state="not-sent"' in page and "Send the link again" in page
    # The account is whole: signed out, its name and password sign it in again.
    client.post(reverse("logout"))
    assert signed_in_as(client) is None
    client.post(reverse("login"), {"username": "ana", "password": PASSWORD})
    assert signed_in_as(client) == str(ana.pk)
    send_again_works(client, ana, settings)


@pytest.mark.parametrize("kind", FAILURES)
def test_the_email_page_while_the_mail_server_fails(kind: str, settings: Any) -> None:
    ben = get_user_model().objects.create_user("ben", password=PASSWORD)
    client = Client()
    client.force_login(ben)
    with failing_mail_server(kind, settings):
        response = client.post(reverse("email"), {"action": "save", "email": "ben@example.org"})
        assert response.status_code == 302
        page = client.get(reverse("email")).content.decode()
        assert "We could not send the link to ben@example.org" in page
        assert 'data-state="not-sent"' in page and "Send the link again" in page
        assert page.count('value="resend"') == 1  # the page's own button, not a second one
        ben.refresh_from_db()
        assert ben.email == "ben@example.org" and row(ben).link_failed
        # Send again while the server still fails: the same words, no 500
        may_try_again_now(ben)
        again = client.post(reverse("email"), {"action": "resend"}, follow=True)
        assert again.status_code == 200
        assert "We could not send the link to ben@example.org" in again.content.decode()
    send_again_works(client, ben, settings)


def test_two_tries_at_once_send_one_link(settings: Any) -> None:
    """The try is claimed in the row: a page that read the row before another page's link
    went (two clicks, two tabs) is told to wait, and sends nothing."""
    dora = get_user_model().objects.create_user("dora")
    row_ = emails.set_address(dora, "dora@example.org")
    assert row_ is not None
    first, second = (EmailAddress.objects.get(pk=row_.pk) for _ in range(2))
    with smtp_server(settings) as inbox:
        assert emails.send_confirmation(first) == emails.Delivery.SENT
        assert emails.send_confirmation(second) == emails.Delivery.WAIT
        assert len(inbox.messages) == 1
    with failing_mail_server("refused", settings):
        emails.EmailAddress.objects.filter(pk=row_.pk).update(
            sent_at=F("sent_at") - emails.RESEND_AFTER
        )
        first, second = (EmailAddress.objects.get(pk=row_.pk) for _ in range(2))
        assert emails.send_confirmation(first) == emails.Delivery.FAILED
        assert emails.send_confirmation(second) == emails.Delivery.WAIT
        assert second.link_failed  # so the words say "wait a few seconds"


@pytest.mark.parametrize(
    ("lang", "words", "button"),
    [
        ("es", "Ahora mismo no pudimos enviar el enlace a eva@example.org", "Enviar otra vez"),
        ("de", "Wir konnten den Link gerade nicht an eva@example.org senden", "Noch einmal senden"),
    ],
)
def test_the_words_in_spanish_and_german(lang: str, words: str, button: str, settings: Any) -> None:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    with failing_mail_server("refused", settings):
        home = client.post(
            reverse("signup"),
            {
                "username": "eva",
                "password1": PASSWORD,
                "password2": PASSWORD,
                "email": "eva@example.org",
            },
            follow=True,
        ).content.decode()
    assert words in home and button in home
