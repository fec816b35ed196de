"""An account's e-mail address: given at sign-up or on the account's e-mail page, confirmed by
a signed link that works only for its own account, for `EMAIL_CONFIRM_DAYS` days, for the
address it was sent to, and only if no other account confirmed that address first.

The round trip goes through a real SMTP server on loopback (aiosmtpd), as in production."""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes
from email.message import Message
from typing import Any
from unittest import mock

import pytest
from aiosmtpd.controller import Controller
from django.contrib.auth import get_user_model
from django.core import signing
from django.test import Client
from django.urls import reverse

from accounts import emails
from accounts.models import EmailAddress
from tablesite.env import email as email_settings

pytestmark = pytest.mark.django_db

PASSWORD = "tile-12-12-engine"
LINK = re.compile(r"http://\S+(/accounts/email/confirm/\S+/)")


class Inbox:
    """aiosmtpd's handler: keeps every message the server accepts."""

    def __init__(self) -> None:
        self.messages: list[tuple[list[str], Message]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 (aiosmtpd's name)
        self.messages.append((list(envelope.rcpt_tos), message_from_bytes(envelope.content)))
        return "250 OK"

    def link(self, k: int = -1) -> str:
        body = self.messages[k][1].get_payload(decode=True).decode()
        found = LINK.search(body)
        assert found, body
        return found.group(1)


@contextmanager
def smtp_server(settings: Any) -> Iterator[Inbox]:
    """A real SMTP server on 127.0.0.1 and Django's SMTP backend pointed at it."""
    inbox = Inbox()
    with socket.socket() as probe:  # a free port (aiosmtpd's Controller cannot take port 0)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", controller.port
        settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
        settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
        yield inbox
    finally:
        controller.stop()


@pytest.fixture
def smtp(settings: Any) -> Iterator[Inbox]:
    with smtp_server(settings) as inbox:
        yield inbox


def signed_in(username: str, email: str = "") -> tuple[Any, Client]:
    user = get_user_model().objects.create_user(username)
    client = Client()
    client.force_login(user)
    if email:
        emails.set_address(user, email)
    return user, client


def row(user: Any) -> EmailAddress:
    return EmailAddress.objects.get(user=user)


def test_sign_up_with_an_address_then_follow_the_link(smtp: Inbox) -> None:
    client = Client()
    response = client.post(
        reverse("signup"),
        {
            "username": "ana",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "email": "Ana@Example.ORG",
        },
    )
    assert response.status_code == 302
    ana = get_user_model().objects.get(username="ana")
    assert ana.email == "Ana@example.org" and not row(ana).verified
    assert emails.verified_address(ana) is None  # no turn e-mail before the link is followed
    ((to, message),) = smtp.messages
    assert to == ["Ana@example.org"] and "Confirm" in message["Subject"]
    link = smtp.link()
    page = client.get(link)
    assert page.status_code == 200 and "Ana@example.org" in page.content.decode()
    assert not row(ana).verified  # a GET (a mail scanner following links) changes nothing
    done = client.post(link, follow=True)
    assert "your e-mail address is confirmed" in done.content.decode()
    assert row(ana).verified and emails.verified_address(ana) == "Ana@example.org"
    # following it again says so and changes nothing
    again = client.get(link)
    assert "confirmed already" in again.content.decode()


def test_sign_up_without_an_address_sends_nothing(smtp: Inbox) -> None:
    client = Client()
    client.post(
        reverse("signup"),
        {"username": "ana", "password1": PASSWORD, "password2": PASSWORD, "email": ""},
    )
    ana = get_user_model().objects.get(username="ana")
    assert ana.email == "" and not EmailAddress.objects.exists() and smtp.messages == []


def test_sign_up_with_a_bad_address_is_refused_and_makes_no_account(smtp: Inbox) -> None:
    response = Client().post(
        reverse("signup"),
        {
            "username": "ana",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "email": "not an address",
        },
    )
    assert (
        response.status_code == 200 and "Enter a valid email address." in response.content.decode()
    )
    assert not get_user_model().objects.filter(username="ana").exists() and smtp.messages == []


def test_the_account_page_adds_changes_and_removes_the_address(smtp: Inbox) -> None:
    ana, client = signed_in("ana")
    assert client.get(reverse("email")).status_code == 200
    client.post(reverse("email"), {"action": "save", "email": "ana@example.org"})
    assert len(smtp.messages) == 1 and smtp.messages[0][0] == ["ana@example.org"]
    client.post(smtp.link())
    assert row(ana).verified
    # saving the same address again sends nothing and keeps it confirmed
    client.post(reverse("email"), {"action": "save", "email": "ana@example.org"})
    assert len(smtp.messages) == 1 and row(ana).verified
    # a new address starts unconfirmed, with its own link
    client.post(reverse("email"), {"action": "save", "email": "ana@new.example"})
    assert (
        not row(ana).verified
        and len(smtp.messages) == 2
        and smtp.messages[1][0] == ["ana@new.example"]
    )
    page = client.get(reverse("email")).content.decode()
    assert 'data-state="unverified"' in page and "ana@new.example" in page
    # a bad address is refused and changes nothing
    response = client.post(reverse("email"), {"action": "save", "email": "nope@"})
    assert response.status_code == 200 and row(ana).address == "ana@new.example"
    # empty removes it
    client.post(reverse("email"), {"action": "save", "email": ""})
    ana.refresh_from_db()
    assert ana.email == "" and not EmailAddress.objects.filter(user=ana).exists()


def same_link(one: str, two: str) -> bool:
    """Two confirmation links for the same account and address: what they sign agrees (the
    signature's timestamp, in seconds, may differ)."""

    def signed(link: str) -> Any:
        return signing.loads(link.rstrip("/").rsplit("/", 1)[1], salt=emails.SALT)

    return bool(signed(one) == signed(two))


def test_send_again_waits_a_minute(smtp: Inbox) -> None:
    ana, client = signed_in("ana")
    client.post(reverse("email"), {"action": "save", "email": "ana@example.org"})
    refused = client.post(reverse("email"), {"action": "resend"}, follow=True).content.decode()
    assert "less than a minute ago" in refused and len(smtp.messages) == 1
    EmailAddress.objects.filter(user=ana).update(sent_at=row(ana).sent_at - emails.RESEND_AFTER)
    client.post(reverse("email"), {"action": "resend"})
    # the same link (account and address); only its signing second may differ
    assert len(smtp.messages) == 2 and same_link(smtp.link(0), smtp.link(1))


def test_someone_elses_link_is_refused(smtp: Inbox) -> None:
    ana, ana_client = signed_in("ana")
    ana_client.post(reverse("email"), {"action": "save", "email": "ana@example.org"})
    _ben, ben_client = signed_in("ben")
    link = smtp.link()
    assert ben_client.get(link).status_code == 400
    refused = ben_client.post(link)
    assert refused.status_code == 400 and "made for another account" in refused.content.decode()
    assert not row(ana).verified
    # signed out: the sign-in page first, nothing confirmed
    response = Client().post(link)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert not row(ana).verified


def test_an_expired_or_altered_link_is_refused(smtp: Inbox, settings: Any) -> None:
    ana, client = signed_in("ana")
    client.post(reverse("email"), {"action": "save", "email": "ana@example.org"})
    link = smtp.link()
    later = time.time() + settings.EMAIL_CONFIRM_DAYS * 86400 + 60
    with mock.patch("django.core.signing.time.time", return_value=later):
        refused = client.post(link)
    assert refused.status_code == 400 and "days old" in refused.content.decode()
    assert not row(ana).verified
    altered = link[:-3] + ("A" if link[-3] != "A" else "B") + link[-2:]
    assert "not valid" in client.post(altered).content.decode() and not row(ana).verified
    assert client.post(link).status_code == 302 and row(ana).verified  # in time it works


def test_changing_the_address_voids_the_older_links(smtp: Inbox) -> None:
    ana, client = signed_in("ana")
    client.post(reverse("email"), {"action": "save", "email": "ana@example.org"})
    first = smtp.link()
    client.post(reverse("email"), {"action": "save", "email": "ana@new.example"})
    refused = client.post(first)
    assert refused.status_code == 400 and "no longer has" in refused.content.decode()
    assert not row(ana).verified
    # back to the first address: the first link is still void (a new one was sent)
    client.post(reverse("email"), {"action": "save", "email": "ana@example.org"})
    assert client.post(first).status_code == 400 and not row(ana).verified
    client.post(smtp.link())
    assert row(ana).verified and row(ana).address == "ana@example.org"


def test_an_address_confirmed_by_another_account_cannot_be_confirmed_again(smtp: Inbox) -> None:
    ana, ana_client = signed_in("ana")
    ana_client.post(reverse("email"), {"action": "save", "email": "shared@example.org"})
    ben, ben_client = signed_in("ben")
    ben_client.post(reverse("email"), {"action": "save", "email": "Shared@example.org"})
    ana_link, ben_link = smtp.link(0), smtp.link(1)
    ana_client.post(ana_link)
    assert row(ana).verified
    refused = ben_client.post(ben_link)
    assert (
        refused.status_code == 400 and "Another account has confirmed" in refused.content.decode()
    )
    assert not row(ben).verified and emails.verified_address(ben) is None
    # the database says the same if two confirmations race past the check
    ben_row = row(ben)
    with mock.patch.object(emails, "check", return_value=(None, ben_row)):
        assert emails.confirm(ben, "ignored") == emails.Outcome.TAKEN
    assert not row(ben).verified


def test_guests_keep_their_account_before_adding_an_address(smtp: Inbox) -> None:
    from django.utils import timezone

    from accounts.models import Guest

    guest = get_user_model().objects.create_user("CleverOtter417")
    Guest.objects.create(user=guest, last_seen=timezone.now())
    client = Client()
    client.force_login(guest)
    response = client.get(reverse("email"))
    assert response.status_code == 302 and response["Location"] == reverse("guest_keep")


def test_the_turn_mail_page_says_whether_the_address_is_confirmed(smtp: Inbox) -> None:
    ana, client = signed_in("ana")
    page = client.get(reverse("history:turn_mail")).content.decode()
    assert "no e-mail address" in page and reverse("email") in page
    emails.set_address(ana, "ana@example.org")
    assert "is not confirmed yet" in client.get(reverse("history:turn_mail")).content.decode()


# ------------------------------------------------------------------ settings from the environment


def test_email_url_sets_the_smtp_server() -> None:
    config = email_settings(
        {"EMAIL_URL": "smtp://user%40site:secret@mail.example.org:587/?tls=True"}, debug=False
    )
    assert config["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (
        config["EMAIL_HOST"],
        config["EMAIL_PORT"],
        config["EMAIL_HOST_USER"],
        config["EMAIL_HOST_PASSWORD"],
        config["EMAIL_USE_TLS"],
    ) == ("mail.example.org", 587, "user@site", "secret", True)


def test_email_host_variables_and_the_defaults() -> None:
    config = email_settings(
        {
            "EMAIL_HOST": "smtp.example.org",
            "EMAIL_PORT": "2525",
            "EMAIL_HOST_USER": "u",
            "EMAIL_HOST_PASSWORD": "p",
            "EMAIL_USE_TLS": "true",
        },
        debug=True,
    )
    assert config["EMAIL_BACKEND"].endswith("smtp.EmailBackend")  # a host given: SMTP even in DEBUG
    assert (config["EMAIL_HOST"], config["EMAIL_PORT"], config["EMAIL_USE_TLS"]) == (
        "smtp.example.org",
        2525,
        True,
    )
    assert email_settings({}, debug=True)["EMAIL_BACKEND"].endswith("console.EmailBackend")
    production = email_settings({}, debug=False)
    assert (
        production["EMAIL_BACKEND"].endswith("smtp.EmailBackend")
        and production["EMAIL_HOST"] == "localhost"
    )
    with pytest.raises(ValueError, match="not a boolean"):
        email_settings({"EMAIL_HOST": "h", "EMAIL_USE_TLS": "maybe"}, debug=False)
    with pytest.raises(ValueError, match="cannot both"):
        email_settings({"EMAIL_HOST": "h", "EMAIL_USE_TLS": "1", "EMAIL_USE_SSL": "1"}, debug=False)


def the_link(smtp: Inbox) -> str:
    body = smtp.messages[-1][1].get_payload(decode=True).decode()
    found = re.search(r"https?://\S+/accounts/email/confirm/\S+/", body)
    assert found, body
    return found.group(0)


def address_saved_on_play_example_org(smtp: Inbox, settings: Any) -> str:
    """ana saves her address on the account page, reached as play.example.org: the link sent."""
    settings.ALLOWED_HOSTS = ["play.example.org"]
    _user, client = signed_in("ana")
    client.post(
        reverse("email"),
        {"action": "save", "email": "ana@example.org"},
        HTTP_HOST="play.example.org",
    )
    return the_link(smtp)


def test_without_site_url_the_link_is_on_the_host_the_person_used(
    smtp: Inbox, settings: Any
) -> None:
    """Unset, SITE_URL no longer sends people to 127.0.0.1:8000."""
    settings.SITE_URL = ""
    assert address_saved_on_play_example_org(smtp, settings).startswith(
        "http://play.example.org/accounts/email/confirm/"
    )
    # the sign-up's e-mail too
    Client(HTTP_HOST="play.example.org").post(
        reverse("signup"),
        {
            "username": "bea",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "email": "bea@example.org",
        },
    )
    assert the_link(smtp).startswith("http://play.example.org/accounts/email/confirm/")


def test_a_set_site_url_makes_the_link_whatever_host_was_used(smtp: Inbox, settings: Any) -> None:
    settings.SITE_URL = "https://train.example.net/"
    assert address_saved_on_play_example_org(smtp, settings).startswith(
        "https://train.example.net/accounts/email/confirm/"
    )
