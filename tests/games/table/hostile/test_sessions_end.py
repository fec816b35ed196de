"""An open table socket ends with the session it was opened with.

alice plays at a table (her seat 0, a computer) in two browsers: `phone` and `laptop`,
each with its own session. Logging out on the phone closes the phone's socket within a
second (`consumers.SESSION_ENDED`); the laptop's stays. Changing the password or
deactivating the account closes every socket of hers. A session that ended without
anyone being told (deleted from the store) is caught before the next command: the
socket closes and the command is not applied. Each way, the pause of a closed socket
(R26) ends with it.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.models import Session
from django.test import Client

from engine.bots import choose
from engine.views import view
from games import services
from games.models import Match, Pause
from games.table.consumers import SESSION_ENDED
from tests.games.table.socket.conftest import TIMEOUT, Browser, db, state_of

pytestmark = [pytest.mark.django_db(transaction=True)]

#: the issue's bound: "close that user's open sockets within a second"
WITHIN = 1.0
PASSWORD = "a-long-enough-passw0rd"


def signed_in(user: Any) -> Client:
    """A browser of `user` with a session of its own (the password set first, as at sign-up)."""
    user.refresh_from_db()
    if not user.check_password(PASSWORD):
        user.set_password(PASSWORD)
        user.save()
    client = Client()
    client.force_login(user)
    return client


async def open_socket(match_id: int, client: Client) -> Browser:
    from tablesite.asgi import application

    cookie = client.cookies["sessionid"].value
    communicator = WebsocketCommunicator(
        application,
        f"/ws/m/{match_id}/",
        headers=[
            (b"origin", b"http://testserver"),
            (b"host", b"testserver"),
            (b"cookie", f"sessionid={cookie}".encode()),
        ],
    )
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected
    browser = Browser(communicator)
    await browser.expect("board")
    return browser


async def closed_within(browser: Browser, seconds: float) -> int:
    """The close code the server sends within `seconds` (boards on the way are skipped)."""
    end = time.monotonic() + seconds
    while True:
        out = await browser.communicator.receive_output(max(0.01, end - time.monotonic()))
        if out["type"] == "websocket.close":
            return int(out["code"])


async def still_open(browser: Browser) -> None:
    assert await browser.alive()


@pytest.fixture
def table(make_match: Any, alice: Any) -> Match:
    match = make_match("me", "computer")
    while state_of(match.pk).turn != 0:  # the computer plays until it is alice's turn
        assert services.computer_step(match_id=match.pk) is not None
    return match


@pytest.mark.asyncio
async def test_logout_closes_that_sessions_socket_within_a_second(table: Match, alice: Any) -> None:
    phone, laptop = await db(signed_in, alice), await db(signed_in, alice)
    on_phone, on_laptop = await open_socket(table.pk, phone), await open_socket(table.pk, laptop)
    await on_phone.send(type="panel", open=True)
    await on_phone.expect("board")
    started = time.monotonic()
    response = await db(phone.post, "/accounts/logout/")
    assert response.status_code == 302
    assert await closed_within(on_phone, WITHIN) == SESSION_ENDED
    assert time.monotonic() - started < WITHIN + 0.5
    await on_phone.communicator.send_input({"type": "websocket.disconnect", "code": SESSION_ENDED})
    await on_phone.communicator.wait(TIMEOUT)
    assert not await db(lambda: Pause.objects.exists())  # its pause ended with it
    await still_open(on_laptop)  # another device's session still holds
    await on_laptop.communicator.disconnect()


@pytest.mark.asyncio
async def test_a_password_change_closes_every_socket_of_the_user(table: Match, alice: Any) -> None:
    phone, laptop = await db(signed_in, alice), await db(signed_in, alice)
    on_phone, on_laptop = await open_socket(table.pk, phone), await open_socket(table.pk, laptop)
    response = await db(
        laptop.post,
        "/accounts/password/",
        {
            "old_password": PASSWORD,
            "new_password1": "another-l0ng-password",
            "new_password2": "another-l0ng-password",
        },
    )
    assert response.status_code == 302
    assert await closed_within(on_phone, WITHIN) == SESSION_ENDED
    # The laptop's own session moved to a new key: its page reconnects with the new cookie.
    assert await closed_within(on_laptop, WITHIN) == SESSION_ENDED
    again = await open_socket(table.pk, laptop)
    await still_open(again)
    await again.communicator.disconnect()


@pytest.mark.asyncio
async def test_deactivating_the_account_closes_its_sockets(table: Match, alice: Any) -> None:
    phone = await db(signed_in, alice)
    on_phone = await open_socket(table.pk, phone)

    def deactivate() -> None:
        alice.refresh_from_db()
        alice.is_active = False
        alice.save()

    await db(deactivate)
    assert await closed_within(on_phone, WITHIN) == SESSION_ENDED


@pytest.mark.asyncio
async def test_a_session_gone_unannounced_is_caught_before_the_next_command(
    table: Match, alice: Any
) -> None:
    phone = await db(signed_in, alice)
    on_phone = await open_socket(table.pk, phone)
    version = on_phone.version
    state = await db(state_of, table.pk)
    await db(
        lambda: Session.objects.all().delete()
    )  # expired, cleared, or deleted behind Django's back
    await on_phone.send(
        type="act",
        seat=0,
        action=choose(view(state, 0), "casual").to_json(),
        version=version,
        request_id="after-logout",
    )
    assert await closed_within(on_phone, WITHIN) == SESSION_ENDED
    assert await db(lambda: Match.objects.get(pk=table.pk).version) == version  # nothing applied


def test_the_check_reads_a_session_without_changing_it(alice: Any) -> None:
    """The socket's check says whether the session still signs alice in; tidying a stale
    session (get_user flushes it) is left to the browser's next page request."""
    from accounts.sessions import session_user_id

    browser = signed_in(alice)
    key = browser.cookies["sessionid"].value
    assert session_user_id(key) == alice.pk
    assert session_user_id("no-such-session") is None and session_user_id("") is None
    alice.set_password("changed-elsewhere-0k")
    alice.save()
    assert session_user_id(key) is None
    assert Session.objects.filter(session_key=key).exists()  # read, not flushed
