"""Asking the others at a shared table, in Debian's Chromium (fault 3).

Ana restarts the round at a table she shares with Ben: nothing restarts yet; her board
says the others are asked, Ben's shows the request with Accept and Decline (on a
375 px phone) with the time answers close on his own clock, and his tap on Accept
restarts the round (R28) for both. A request nobody answers leaves both boards by
itself once its minute is over.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import services
from games.models import ChangeRequest, Match
from games.services import SeatSpec
from tests import seeded
from tests.conftest import PHONE

from .table import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def ana_asks_ben(live: str, signed_in: Any) -> tuple[Match, Table, Table]:
    """Ana and Ben (on a phone) at one table; Ana restarts the round, which asks Ben."""
    ana_context = signed_in("ana")
    ben_context = signed_in("ben", viewport=PHONE)
    match = seeded.match_create(
        creator=ana_context.user, seats=[SeatSpec("me"), SeatSpec("human")], seed=7
    )
    services.seat_join(match_id=match.pk, user=ben_context.user, token=match.invite_token)
    ana = Table(ana_context.new_page()).open(f"{live}/m/{match.pk}/")
    ben = Table(ben_context.new_page()).open(f"{live}/m/{match.pk}/")
    ana.page.locator(".tmenu summary, details.tmenu > summary").first.click()
    ana.page.locator(
        '[data-dialog="restart-dialog"]'
    ).click()  # the in-page "Restart this round?" (R28)
    ana.page.locator('#restart-dialog [data-cmd="restart"]').click()
    return match, ana, ben


def test_the_other_player_accepts_a_restart_on_the_board(live: str, signed_in: Any) -> None:
    match, ana, ben = ana_asks_ben(live, signed_in)
    ana.page.wait_for_selector(".ask")
    assert "Waiting for the others" in ana.page.locator(".ask").inner_text()
    assert ana.page.locator('.ask [data-cmd="accept"]').count() == 0

    ben.page.wait_for_selector('.ask [data-cmd="accept"]')
    assert "\u2068ana\u2069 asks to restart the round" in ben.page.locator(".ask").inner_text()
    # When answers close, on this device's clock (the server's text says UTC).
    clock = ben.page.locator(".ask time[data-ask-time]")
    assert re.fullmatch(r"\d\d:\d\d:\d\d( [AP]M)?", clock.inner_text()), clock.inner_text()
    assert Match.objects.get(pk=match.pk).rounds.get().restarts == 0
    ben.page.get_by_role("button", name="Accept").click()
    ben.page.wait_for_selector(".ask", state="detached")
    ana.page.wait_for_selector(".ask", state="detached")
    assert Match.objects.get(pk=match.pk).rounds.get().restarts == 1
    ana.assert_no_errors()
    ben.assert_no_errors()


def test_a_request_nobody_answers_closes_on_time_on_both_boards(live: str, signed_in: Any) -> None:
    """Once its minute is over the request leaves both boards by itself (the server's computer
    worker closes it), and their logs say nobody answered in time."""
    match, ana, ben = ana_asks_ben(live, signed_in)
    ben.page.wait_for_selector('.ask [data-cmd="accept"]')
    ChangeRequest.objects.filter(match=match).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    for table in (ana, ben):
        table.page.wait_for_selector(".ask", state="detached", timeout=5000)
        # The log's lines are fetched by its drawer when it opens (static/js/panels.js): read them so.
        log = table.page.evaluate(
            "async () => (await fetch(document.querySelector('[data-log-url]')"
            ".dataset.logUrl)).text()"
        )
        assert "Nobody answered the restart request in time" in log
    assert ChangeRequest.objects.get(match=match).status == ChangeRequest.Status.EXPIRED
    assert Match.objects.get(pk=match.pk).rounds.get().restarts == 0
    ana.assert_no_errors()
    ben.assert_no_errors()
