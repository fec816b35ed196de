"""From the front page to a first turn as a guest, in a real browser (en, es, de; 1280×800
and 375×667): one click to the table and one more to play the first turn (every click in
the tab counted from the front page's load), the first-time tips (shown at their moment,
never over our train, the Mexican train or the hand on a phone, and never again after
"don't show tips again"), keeping the guest account with its match, and a friend joining
by the invitation link while the host's page waits for them without reloading."""

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
    return page.evaluate(
        "(() => { const t = document.getElementById('tip');"
        " return t && !t.hidden ? t.dataset.tip : ''; })()"
    )


#: the tip on the screen, read in one go: which one, whether the whole card shows, and the focus
TIP_STATE = """() => {
  const t = document.getElementById('tip');
  return {tip: t.dataset.tip, hidden: t.hidden, compact: t.classList.contains('tip--compact'),
          text: t.querySelector('.tip__text').checkVisibility(),
          focus: document.activeElement.matches('#tip [data-tip-ok]')};
}"""


def read_the_whole_tip(page: Any) -> None:
    """The "Read" button opens the compact tip's whole card (over the hand until dismissed) and puts the
    focus on "Got it". The computers play on meanwhile: should the tip's moment pass right after
    the click (the tip goes, or the next one comes, as a title again), the one showing then is
    read; a "Read" that opens nothing fails after a few tries."""
    for _ in range(4):
        page.wait_for_function("() => !document.getElementById('tip').hidden")
        page.click("#tip [data-tip-read]")
        state = page.evaluate(TIP_STATE)
        if state["hidden"] or state["compact"]:
            continue  # gone, or another tip came after the click: that one is read next
        assert state["text"] and state["focus"], state
        return
    raise AssertionError(f"'Read' did not open the tip: {page.evaluate(TIP_STATE)}")


#: every click a person makes in this tab (mouse, touch, or Enter/Space on a button: trusted
#: events only), counted at the document before anything on the page sees it, across loads
COUNT_CLICKS = """
document.addEventListener("click", (e) => {
  if (e.isTrusted) sessionStorage.setItem("clicks", String(Number(sessionStorage.getItem("clicks") || 0) + 1));
}, true);
"""


def clicks(page: Any) -> int:
    return int(page.evaluate("Number(sessionStorage.getItem('clicks') || 0)"))


def box(page: Any, selector: str) -> list[float]:
    return page.eval_on_selector(
        selector,
        "el => { const r = el.getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; }",
    )


def overlaps(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def first_move(page: Any, table: Table) -> str:
    """Our first turn's move, with the fewest clicks the table offers; returns what was done.
    Holding the engine double (R7): a lit tile (it places the engine and starts our train),
    or, with no tile to start it, Confirm engine, which also passes (R10). Otherwise a lit
    tile (R8: one tap, our own train), or Pass when none fits (R10)."""
    if table.phase() == "engine":
        starter = page.locator(".htile[data-after-engine]")
        if starter.count():
            page.click(f'.htile[data-tile="{starter.first.get_attribute("data-tile")}"]')
            return "play"
        assert page.locator('[data-act="engine"][data-then="pass"]').count() == 1
        page.click('[data-act="engine"]')
        return "pass"
    assert table.phase() == "first" and table.your_turn()
    playable = table.playable()
    if playable:
        tile = next(iter(playable))
        assert playable[tile] == [table.data("seat")]  # R8: our own train only
        page.click(f'.htile[data-tile="{tile}"]')
        return "play"
    page.click('.hand__actions [data-act="pass"]')
    return "pass"


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["1280x800", "375x667"])
@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_a_visitor_plays_a_first_turn_learns_from_tips_and_keeps_the_account(
    lang: str, viewport: dict[str, int], live: str, new_context: Any, shots: Path
) -> None:
    context = visitor(new_context, live, lang, viewport)
    context.add_init_script(COUNT_CLICKS)
    page = context.new_page()
    table = Table(page)
    page.goto(live + "/")
    page.evaluate("sessionStorage.setItem('clicks', '0')")  # counted from the front page's load
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

    # Our first turn comes (after the engine search and, if a computer holds the engine,
    # its placing), with the engine tip on the screen, in its slot under the hand: it covers
    # neither our train, the Mexican train nor the hand, and moves nothing when it goes.
    table.wait_turn_or_over()
    page.wait_for_function("() => document.getElementById('tip')?.dataset.tip === 'engine'")
    seat = table.data("seat")
    mine = f'.train[data-owner="{seat}"]'
    page.screenshot(path=str(shots / f"tip-{size}.png"))
    tip = box(page, "#tip")
    if viewport is PHONE:
        assert not overlaps(tip, box(page, ".hand__tiles"))
        hand_top = box(page, ".hand")[1]
        for part in (mine, ".train--mexican"):  # what of them shows above the hand
            row = box(page, part)
            assert not overlaps(tip, row[:3] + [min(row[3], hand_top)]), (part, tip, row)
    before = {part: box(page, part) for part in (mine, ".hand")}
    # Dismissed before our move: the tip lasts only while the first turns do, and after a
    # pass the computers may end them at once.
    with page.expect_response(lambda r: r.url.endswith("/accounts/tips/") and r.status == 204):
        page.click("#tip [data-tip-ok]")  # "Got it": this one tip is dismissed for good
    assert Preferences.objects.get(user=guest).tips_seen == ["engine"]
    if viewport is PHONE:
        assert {part: box(page, part) for part in (mine, ".hand")} == before

    # Click 2: one click plays the first turn ("Got it" on the tip is not a move).
    done = first_move(page, table)
    if done == "play":
        table.wait(f"!!b.querySelector('{mine} .ttile')")
        assert table.board.locator(f"{mine} .ttile").count() == 1
    else:  # R10: a pass without drawing leaves a marker on our train
        table.wait(f"!!b.querySelector('{mine}.train--open')")
    moves = clicks(page) - 1
    assert moves <= 2, f"{moves} clicks from the front page to a played first turn"
    table.assert_no_errors()

    # The next tip at its moment: still our first turn after a tile (R9), or a marker after a pass.
    nxt = "first_chain" if done == "play" else "marker"
    page.wait_for_function(f"() => document.getElementById('tip')?.dataset.tip === '{nxt}'")
    assert page.locator("#tip").is_visible()
    # Escape dismisses it as "Got it" does, when nothing else is open.
    with page.expect_response(lambda r: r.url.endswith("/accounts/tips/") and r.status == 204):
        page.keyboard.press("Escape")
    assert not tip_shown(page)
    assert Preferences.objects.get(user=guest).tips_seen == ["engine", nxt]

    if done == "play":
        # "What can I do?" lists the tiles that fit, in words (on a phone the table's tools
        # fold behind one button of its top bar).
        if viewport == PHONE:
            page.click(".tbar__fold")
        page.click("[data-cando] summary")
        can = page.locator("[data-cando] .cando")
        assert can.is_visible() and can.locator(".cando__tiles li").count() == len(table.playable())
        # Its first line is the instruction of the moment: the board's status (static/js/cando.js).
        status = page.eval_on_selector("#board .board", "b => b.dataset.status")
        assert status and can.locator(".cando__now").inner_text() == status
        page.keyboard.press("Escape")
        assert not can.is_visible()

    # "Don't show tips again" (here on the next tip that comes, or set before one comes):
    # gone now, and not back after a reload. Asked at our turn, when nothing moves until we
    # do: after a pass the computers' first turns would end the engine tip's moment (and
    # bring the marker's, perhaps compact) under the click.
    table.wait_turn_or_over()
    Preferences.objects.filter(user=guest).update(tips_seen=[])  # every tip's moment may come again
    page.reload()
    table.wait_connected()
    page.wait_for_function(
        "() => !!document.getElementById('tip') && !document.getElementById('tip').hidden"
    )
    if page.locator("#tip.tip--compact").count():  # a short page: the title only, and "Read"
        read_the_whole_tip(page)
    with page.expect_response(lambda r: r.url.endswith("/accounts/tips/") and r.status == 204):
        page.click("#tip [data-tip-never]")
    assert not tip_shown(page)
    assert Preferences.objects.get(user=guest).tips_off is True
    page.reload()
    table.wait_connected()
    page.wait_for_timeout(300)
    assert not tip_shown(page) and page.locator(".tip").count() == 0
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


@pytest.mark.parametrize(
    "lang, viewport",
    [("en", PHONE), ("es", WIDE), ("de", PHONE)],
    ids=["en-375x667", "es-1280x800", "de-375x667"],
)
def test_a_friend_joins_by_the_invitation_link(
    lang: str, viewport: dict[str, int], live: str, new_context: Any
) -> None:
    host = visitor(new_context, live, lang, viewport).new_page()
    host.goto(live + "/")
    host.locator(
        'form[action$="/play/friends/"] button[type="submit"]:not([name="choose"])'
    ).click()
    host.wait_for_url(re.compile(r".*/m/\d+/about/$"))
    link = host.input_value("#invite-link")
    assert host.locator('meta[http-equiv="refresh"]').count() == 0  # no reloading itself
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
    # The host's page asks for its seats now and then (static/js/waiting.js) and goes to the table.
    host.wait_for_url(TABLE_URL, timeout=10_000)
    assert host.locator("#board").count() == 1
    friend.context.close()  # no page still asking the server while the database is emptied
    host.context.close()
