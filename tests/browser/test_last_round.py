"""R32 "End the match after this round" from the table's menu, in Debian's Chromium, and the
asker told who declined: Ana (in Spanish) asks from the menu's dialog; Ben
(on a 375 px phone) declines; Ana's board says, in Spanish, that Ben declined."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import ChangeRequest
from games.services import SeatSpec
from tests import seeded
from tests.conftest import PHONE

from .table import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_declined_end_after_this_round_is_seen_by_the_asker(
    live: str, signed_in: Any, shots: Any
) -> None:
    ana_context = signed_in("ana", lang="es")
    ben_context = signed_in("ben", viewport=PHONE)
    match = seeded.match_create(
        creator=ana_context.user, seats=[SeatSpec("me"), SeatSpec("human")], seed=7
    )
    services.seat_join(match_id=match.pk, user=ben_context.user, token=match.invite_token)
    ana = Table(ana_context.new_page()).open(f"{live}/m/{match.pk}/")
    ben = Table(ben_context.new_page()).open(f"{live}/m/{match.pk}/")
    ana.page.locator("details.tmenu > summary").first.click()
    ana.page.locator('[data-dialog="last-round-dialog"]').click()
    ana.page.locator('#last-round-dialog [data-cmd="last_round"]').click()
    ben.page.wait_for_selector('.ask [data-cmd="decline"]')
    assert "asks to end the match after this round" in ben.page.locator(".ask").inner_text()
    ben.page.locator('.ask [data-cmd="decline"]').click()
    told = ana.page.locator("[data-answered]")
    told.wait_for()
    assert (
        told.inner_text()
        == "\u2068ben\u2069 rechazó tu petición de terminar la partida tras esta ronda."
    )
    ana.page.screenshot(path=str(shots / "last-round-declined-es.png"))
    assert ChangeRequest.objects.get(match=match).status == ChangeRequest.Status.DECLINED
    ana.assert_no_errors()
    ben.assert_no_errors()
