"""R32 "End the match after this round" from the table's menu, in Debian's Chromium, and the
asker told who declined: Ana (in Spanish) asks from the menu's dialog; Ben
(on a 375 px phone) declines; Ana's board says, in Spanish, that Ben declined."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import ChangeRequest, Match
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


@pytest.mark.parametrize(("item", "dialog", "command"), [
    ("last-round-dialog", "#last-round-dialog", "last_round"),
    ("restart-dialog", "#restart-dialog", "restart"),
], ids=["last_round", "restart"])  # fmt: skip
def test_on_a_phone_the_folded_menus_confirm_dialogs_show_and_answer(
    live: str, signed_in: Any, item: str, dialog: str, command: str
) -> None:
    """On a phone the table's tools fold behind one button and fold away again once an item is
    used: the confirm dialog of "End the match after this round" (R32) or "Restart round"
    (R28) still shows, whole, and answers (it was open but unseen inside the folded list,
    holding the page)."""
    ana = signed_in("ana", lang="de", viewport=PHONE, has_touch=True)
    match = seeded.match_create(
        creator=ana.user, seats=[SeatSpec("me"), SeatSpec("computer", level="casual")], seed=7
    )
    table = Table(ana.new_page()).open(f"{live}/m/{match.pk}/")
    page = table.page
    before = table.version()
    page.locator(".tbar__fold").tap()
    page.locator("#board details.tmenu > summary").tap()
    page.locator(f'[data-dialog="{item}"]').tap()
    confirm = page.locator(f'{dialog} [data-cmd="{command}"]')
    confirm.wait_for(state="visible")
    box = page.locator(dialog).bounding_box()
    assert box is not None and box["width"] > 200 and box["height"] > 100
    confirm.tap()
    page.locator(dialog).wait_for(state="hidden")
    table.wait_version_above(before)
    if command == "last_round":
        assert Match.objects.get(pk=match.pk).state["start"].get("final")
    table.assert_no_errors()
