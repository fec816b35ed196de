"""From the front page to a first turn as a guest, in a real browser (en, es, de; 1280×800
and 375×667): one click to the table, the first-time tips (shown at their moment, and
never again after "don't show tips again"), keeping the guest account with its match,
and a friend joining by the invitation link."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from accounts.models import Guest, Preferences
from games.models import Match
from tests.i18n_helpers import english_leaks

from .table import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDE = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 667}
TABLE_URL = re.compile(r".*/m/(\d+)/$")


def visitor(new_context: Any, live: str, lang: str, viewport: dict[str, int]) -> Any:
    """A new browser context without an account, reading `lang`."""
    context = new_context(viewport=viewport)
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": live}])
    return context


def tip_shown(page: Any) -> str:
    """The id of the tip on the screen, or ""."""
    return page.evaluate("(() => { const t = document.getElementById('tip');"
                         " return t && !t.hidden ? t.dataset.tip : ''; })()")


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["1280x800", "375x667"])
@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_a_visitor_plays_a_first_turn_learns_from_tips_and_keeps_the_account(
        lang: str, viewport: dict[str, int], live: str, new_context: Any, shots: Path) -> None:
    page = visitor(new_context, live, lang, viewport).new_page()
    table = Table(page)
    page.goto(live + "/")
    assert page.locator("html").get_attribute("lang") == lang
    if lang != "en":
        assert english_leaks(page.content(), lang) == []
    size = f"{lang}-{viewport['width']}"
    page.screenshot(path=str(shots / f"front-{size}.png"), full_page=True)

    # Click 1: "Play now against computers" -> a table with three computers, as a guest.
    page.click("#play-now")
    page.wait_for_url(TABLE_URL)
    match = Match.objects.get(pk=int(TABLE_URL.match(page.url).group(1)))
    guest = Guest.objects.get().user
    assert match.created_by == guest and match.listed is False and match.players == 4
    table.wait_connected()

    # Our first turn comes (after the engine search and, if a computer holds the engine, its
    # placing). Holding the engine ourselves, we confirm it first.
    # The engine tip came with the engine search (a tip stays until dismissed).
    table.wait_turn_or_over()
    page.wait_for_function("() => document.getElementById('tip')?.dataset.tip === 'engine'")
    with page.expect_response(lambda r: r.url.endswith("/accounts/tips/") and r.status == 204):
        page.click("#tip [data-tip-ok]")  # "Got it": this one tip is dismissed for good
    assert Preferences.objects.get(user=guest).tips_seen == ["engine"]
    if table.phase() == "engine":
        table.press("engine")
    assert table.phase() == "first" and table.your_turn()
    page.wait_for_function("() => document.getElementById('tip')?.dataset.tip === 'first_chain'")
    assert page.locator("#tip").is_visible()
    page.screenshot(path=str(shots / f"tip-{size}.png"))

    # "What can I do?" lists the tiles that fit, in words.
    page.click("[data-cando] summary")
    can = page.locator("[data-cando] .cando")
    assert can.is_visible() and can.locator(".cando__tiles li").count() == len(table.playable())
    # Its first line is the instruction of the moment: the board's status (static/js/cando.js).
    status = page.eval_on_selector("#board .board", "b => b.dataset.status")
    assert status and can.locator(".cando__now").inner_text() == status
    page.keyboard.press("Escape")
    assert not can.is_visible()

    # "Don't show tips again": gone now, and not back after a reload at the same moment.
    with page.expect_response(lambda r: r.url.endswith("/accounts/tips/") and r.status == 204):
        page.click("#tip [data-tip-never]")
    assert not tip_shown(page)
    assert Preferences.objects.get(user=guest).tips_off is True
    page.reload()
    table.wait_connected()
    page.wait_for_timeout(300)
    assert table.phase() == "first" and table.your_turn()
    assert not tip_shown(page) and page.locator(".tip").count() == 0

    # After the table loaded: a tile, then its train (2 clicks); a hand that cannot start
    # its train passes instead (1 click).
    clicks = 0
    act, tile, train = table.first_fit()
    if act == "play":
        table.play(tile, train)
        clicks += 2
        assert table.board.locator(f'.train[data-train="{train}"] .ttile').count() == 1
    else:
        table.press(act)
        clicks += 1
    assert clicks <= 2
    table.assert_no_errors()

    # The guest keeps the account: a name and a password, and the match is still theirs.
    page.goto(live + "/accounts/keep/")
    name = f"player{lang}{viewport['width']}"
    page.fill('input[name="username"]', name)
    page.fill('input[name="password1"]', "tile-12-12-engine")
    page.fill('input[name="password2"]', "tile-12-12-engine")
    page.locator('form[action$="/accounts/keep/"] button[type="submit"]').click()
    page.wait_for_url(re.compile(r".*/matches/$"))
    assert page.locator(f'a[href="/m/{match.pk}/"]').count() >= 1
    assert not Guest.objects.exists()
    page.click(f'a[href="/m/{match.pk}/"]')
    table.wait_connected()
    assert table.data("seat") == "0"
    page.context.close()  # no page still asking the server while the database is emptied


@pytest.mark.parametrize("lang, viewport", [("en", PHONE), ("es", WIDE), ("de", PHONE)],
                         ids=["en-375x667", "es-1280x800", "de-375x667"])
def test_a_friend_joins_by_the_invitation_link(lang: str, viewport: dict[str, int], live: str,
                                               new_context: Any) -> None:
    host = visitor(new_context, live, lang, viewport).new_page()
    host.goto(live + "/")
    host.locator('form[action$="/play/friends/"] button[type="submit"]').click()
    host.wait_for_url(re.compile(r".*/m/\d+/about/$"))
    link = host.input_value("#invite-link")
    match = Match.objects.get()
    assert match.listed is False and match.status == Match.Status.WAITING

    friend = visitor(new_context, live, lang, viewport).new_page()
    table = Table(friend)
    friend.goto(link)
    friend.locator('form button[name="seat"]').first.click()  # one click: the free seat, as a guest
    friend.wait_for_url(TABLE_URL)
    table.wait_connected()
    assert table.data("seat") == "1"
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    assert Guest.objects.count() == 2
    if lang != "en":
        assert english_leaks(friend.content(), lang) == []
    friend.context.close()  # no page still asking the server while the database is emptied
    host.context.close()
