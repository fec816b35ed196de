"""R29 "Play again" at the end of a match, in Debian's Chromium: Ana (in German, with the
keyboard) and Ben (on a 375 px phone, with a tap) finish a one-round match (R31), each
sees the other's answer as it comes, both choose "Play again" and both pages move to the
new match at the same table; once that one is over too, their history counts both."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.history.models import PlayerStats
from games.models import Match
from games.reads import selectors
from games.services import SeatSpec
from tests import seeded
from tests.conftest import PHONE
from tests.games.matches import play

from .table import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: the page asks for the board often: the moves here are made where its server is not told
CHECK = "window.MT_CHECK_MS = 300;"


def test_r29_both_play_again_and_both_pages_move_to_the_new_match(
    live: str, signed_in: Any, shots: Any
) -> None:
    ana_context = signed_in("ana", lang="de")
    ben_context = signed_in("ben", viewport=PHONE, has_touch=True)
    for context in (ana_context, ben_context):
        context.add_init_script(CHECK)
    ana_user, ben_user = ana_context.user, ben_context.user
    match = seeded.match_create(
        creator=ana_user, seats=[SeatSpec("me"), SeatSpec("human")], seed=7, rounds=1
    )
    services.seat_join(match_id=match.pk, user=ben_user, token=match.invite_token)
    ana = Table(ana_context.new_page()).open(f"{live}/m/{match.pk}/")
    ben = Table(ben_context.new_page()).open(f"{live}/m/{match.pk}/")
    while play(match, 500).status != Match.Status.FINISHED:  # the round, to its end
        pass
    for table in (ana, ben):
        table.page.wait_for_selector('[data-cmd="play_again"]', timeout=15_000)
    assert ben.page.locator(".end-offer").inner_text().count("Still deciding") == 2

    # Ana answers with the keyboard; Ben's board shows it at once, and nobody moves yet.
    ana.page.locator('[data-cmd="play_again"]').focus()
    ana.page.keyboard.press("Enter")
    ben.page.wait_for_selector('[data-answer="yes"]')
    ana.page.wait_for_selector(".end-offer__note")
    assert "Du spielst noch einmal" in ana.page.locator(".end-offer__note").inner_text()
    # the phone's panel fits its width: nothing cut at 375 px
    panel = ben.page.locator(".end-offer")
    assert panel.evaluate("e => e.scrollWidth <= e.clientWidth")
    box = panel.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    ben.page.screenshot(path=str(shots / "play-again-phone.png"), full_page=True)
    assert selectors.next_match(match) is None

    # Ben taps: the new match is made, and both pages go there by themselves.
    ben.page.locator('[data-cmd="play_again"]').tap()
    new = None
    for table in (ana, ben):
        table.page.wait_for_function(
            f"() => !location.pathname.startsWith('/m/{match.pk}/')", timeout=15_000
        )
        new = selectors.next_match(match)
        assert new is not None and table.page.url.endswith(f"/m/{new.pk}/")
    assert new is not None and new.table_id == match.table_id and new.length == 1
    assert new.seed != match.seed
    assert [s.user_id for s in new.seats.order_by("index")] == [ana_user.pk, ben_user.pk]
    assert ana.errors == [] and ben.errors == []

    # The old match's page keeps the way to the new one, without moving whoever opens it.
    old = ana_context.new_page()
    old.goto(f"{live}/m/{match.pk}/")
    link = old.locator("a[data-follow]")
    link.wait_for()
    assert link.get_attribute("href") == f"/m/{new.pk}/"
    assert old.url.endswith(f"/m/{match.pk}/")

    # History and ratings count both matches.
    while play(new, 500).status != Match.Status.FINISHED:
        pass
    for user in (ana_user, ben_user):
        stats = PlayerStats.objects.get(user=user)
        assert (stats.matches, stats.rated_matches) == (2, 2)


def test_r29_a_person_leaves_and_the_creator_keeps_their_seat_open_for_an_invitation(
    live: str, signed_in: Any
) -> None:
    ana_context, ben_context = signed_in("ana"), signed_in("ben", lang="es")
    for context in (ana_context, ben_context):
        context.add_init_script(CHECK)
    match = seeded.match_create(
        creator=ana_context.user,
        seats=[SeatSpec("me"), SeatSpec("human"), SeatSpec("computer", level="expert")],
        seed=7,
        rounds=1,
    )
    services.seat_join(match_id=match.pk, user=ben_context.user, token=match.invite_token)
    while play(match, 500).status != Match.Status.FINISHED:
        pass
    ana = Table(ana_context.new_page()).open(f"{live}/m/{match.pk}/")
    ben = Table(ben_context.new_page()).open(f"{live}/m/{match.pk}/")
    ben.page.locator('[data-cmd="leave_table"]').click()
    ben.page.wait_for_selector(".end-offer__note")
    assert ben.page.locator(".end-offer__note").inner_text() == "Has salido de la mesa."
    # Ana chooses, with the keyboard, what Ben's seat becomes; then plays again.
    choice = ana.page.locator("#again-seat-1")
    choice.wait_for()
    assert choice.input_value() == "casual"  # until she chooses: a casual computer
    choice.focus()
    choice.select_option("open")
    ana.page.wait_for_function("() => document.getElementById('again-seat-1').value === 'open'")
    ben.page.wait_for_selector("text=Su puesto queda libre.")
    ana.page.locator('[data-cmd="play_again"]').click()
    ana.page.wait_for_function(
        f"() => !location.pathname.startsWith('/m/{match.pk}/')", timeout=15_000
    )
    new = selectors.next_match(match)
    # a table waiting for a player opens on its page with the invitation
    assert new is not None and f"/m/{new.pk}/" in ana.page.url
    assert [(s.kind, s.user_id, s.level) for s in new.seats.order_by("index")] == [
        ("human", ana_context.user.pk, ""),
        ("human", None, ""),  # open: the new table waits for someone Ana invites
        ("computer", None, "expert"),
    ]
    # Ben, who left, is shown the way to the new match but stays where he is.
    link = ben.page.locator(f'a[href="/m/{new.pk}/"]')
    link.wait_for(timeout=15_000)
    assert link.get_attribute("data-follow") is None
    assert ben.page.url.endswith(f"/m/{match.pk}/")
    assert ana.errors == [] and ben.errors == []
