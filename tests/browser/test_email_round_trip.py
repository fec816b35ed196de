"""The e-mail round trip in Chromium, at 1280×800 and 375×667 in en/es/de: sign up
with an address, the confirmation e-mail goes through a real SMTP server on loopback
(aiosmtpd), the link opens in the browser and confirms the address; the e-mail page and the
turn-mail form are in the site's form style and fit the window.

Served by pytest-django's live server (these pages need no websocket), in this process, so
the SMTP settings below are the server's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from accounts.models import EmailAddress
from tests.accounts.test_email import Inbox, smtp_server

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

RUNS = [
    ("en", {"width": 1280, "height": 800}),
    ("es", {"width": 375, "height": 667}),
    ("de", {"width": 375, "height": 667}),
]
CONFIRMED = {"en": "is confirmed", "es": "está confirmada", "de": "ist bestätigt"}

#: the form's fields and button: inside the card, inside the window, in the site's field style
FORM = """(sel) => {
  const form = document.querySelector(sel);
  const card = form.closest('.card').getBoundingClientRect();
  const inside = [...form.querySelectorAll('input:not([type=hidden]), select, button')].map((el) => {
    const r = el.getBoundingClientRect(); return r.left >= card.left - 1 && r.right <= card.right + 1; });
  const fields = form.querySelectorAll('.field').length;
  return {inside, fields, scroll: document.scrollingElement.scrollWidth, inner: window.innerWidth,
          button: getComputedStyle(form.querySelector('button[type=submit]')).backgroundColor};
}"""


@pytest.fixture
def inbox(settings: Any) -> Iterator[Inbox]:
    with smtp_server(settings) as box:
        yield box


def test_sign_up_confirm_by_the_e_mailed_link_and_turn_mail_form(
    live_server: Any, new_context: Any, inbox: Inbox, shots: Any
) -> None:
    for k, (lang, viewport) in enumerate(RUNS):
        context = new_context(viewport=viewport)
        context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
        page = context.new_page()
        page.goto(f"{live_server.url}/accounts/signup/")
        name = f"mailer{k}"
        page.fill("#id_username", name)
        page.fill("#id_email", f"{name}@example.org")
        page.fill("#id_password1", "tile-12-12-engine")
        page.fill("#id_password2", "tile-12-12-engine")
        page.locator("form[action$='/signup/'] button[type=submit]").click()
        page.wait_for_url(f"{live_server.url}/")
        assert len(inbox.messages) == k + 1 and inbox.messages[k][0] == [f"{name}@example.org"]
        link = inbox.link(k)
        page.goto(live_server.url + link)
        page.screenshot(path=str(shots / f"email-confirm-{lang}.png"), full_page=True)
        page.locator("form button[type=submit].btn--primary").click()
        page.wait_for_url(re.compile(r".*/accounts/email/$"))
        assert CONFIRMED[lang] in page.locator(".email-state").inner_text()
        user = get_user_model().objects.get(username=name)
        assert EmailAddress.objects.get(user=user).verified
        got = page.evaluate(FORM, "form[action$='/accounts/email/'][novalidate]")
        assert all(got["inside"]) and got["fields"] == 1 and got["scroll"] <= got["inner"], (
            lang,
            got,
        )
        page.screenshot(path=str(shots / f"email-page-{lang}.png"), full_page=True)

        page.goto(f"{live_server.url}/account/turn-mail/")
        got = page.evaluate(FORM, "form[action$='/account/turn-mail/']")
        assert all(got["inside"]) and got["fields"] == 2 and got["scroll"] <= got["inner"], (
            lang,
            got,
        )
        assert got["button"] not in ("rgba(0, 0, 0, 0)", "rgb(239, 239, 239)"), (
            got
        )  # the site's button, not the browser's
        # the checkbox on its label's line, before it
        box, label = (
            page.locator("#id_enabled").bounding_box(),
            page.locator("label[for=id_enabled]").bounding_box(),
        )
        assert (
            box
            and label
            and box["x"] < label["x"]
            and abs((box["y"] + box["height"] / 2) - (label["y"] + label["height"] / 2))
            < label["height"]
        )
        page.screenshot(path=str(shots / f"turn-mail-{lang}.png"), full_page=True)
        context.close()


@pytest.mark.parametrize("viewport", [RUNS[0][1], RUNS[1][1]], ids=["1280x800", "375x667"])
def test_send_the_link_again_keeps_its_distance_from_the_label_below(
    live_server: Any, new_context: Any, inbox: Inbox, viewport: dict[str, int]
) -> None:
    """On the e-mail page of an unconfirmed address, the "Send the link again" button
    touched the label of the address field under it."""
    from django.conf import settings
    from django.test import Client

    from accounts import emails

    user = get_user_model().objects.create_user("ana")
    emails.set_address(user, "ana@example.org")
    client = Client()
    client.force_login(user)
    context = new_context(viewport=viewport)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/email/")
    button = page.locator("form:has(input[value=resend]) button").bounding_box()
    label = page.locator("label[for=id_email]").bounding_box()
    assert button and label
    assert label["y"] - (button["y"] + button["height"]) >= 16, (button, label)
