"""Taps that answer at once, refusals you can read on a phone, and a restart every page hears of.

A tapped tile leaves the hand in the same moment (static/js/hand.js): its place stays empty and
a faded copy waits on its train until the server's next frame confirms the play; a second tap
on it is ignored, so a double tap plays once and shows no error. A refused play comes back to
the hand with its reason, readable on a 375 px phone too; a refusal only because the page was
behind the table is settled by the page fetching the board, without a word. An accepted
restart of the round is told on every page, in each reader's language.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from games import services
from games.services import SeatSpec
from tests import seeded

from .table import Table, against_a_computer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: the phone of the report: 375 x 667
SMALL_PHONE = {"width": 375, "height": 667}

#: one tap on a tile as a finger makes it (a click with detail 1, then with `second` a
#: second one, detail 2: a double tap), then what the page shows in that same task, before
#: any frame of the server can have come
TAP_AND_LOOK = """([tile, second]) => {
  const el = document.querySelector(`.htile[data-tile="${tile}"]`);
  const version = document.querySelector("#board > .board").dataset.version;
  el.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, detail: 1 }));
  if (second) el.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, detail: 2 }));
  const svg = el.querySelector("svg");
  const ghost = document.querySelector(".pending-tile");
  return {
    pending: el.classList.contains("is-pending"),
    shown: getComputedStyle(svg).visibility === "visible" && svg.getBoundingClientRect().width > 0,
    ghost: !!ghost,
    same_version: document.querySelector("#board > .board").dataset.version === version,
  };
}"""

#: what the hand's line looks like: its box, whether its text fits it, what lies over its middle
LINE_BOX = """() => {
  const el = document.getElementById("hand-say");
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return {
    x: r.x, y: r.y, width: r.width, height: r.height,
    cut: el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1,
    font: parseFloat(getComputedStyle(el).fontSize),
    covered: !hit || !el.contains(hit),
    text: el.innerText,
  };
}"""


def first_turn(table: Table) -> None:
    table.act_first_fit()  # Confirm engine (R7); our first turn follows
    table.wait("b.dataset.yourTurn === 'true' && b.dataset.phase === 'first'")


def plays_sent(table: Table, tile: str) -> int:
    return sum(
        1
        for m in table.sent
        if m["type"] == "act" and m["action"].get("act") == "play" and m["action"]["tile"] == tile
    )


def settled(table: Table) -> None:
    """Every answer to what the page sent so far has come: a sync's board comes after them."""
    table.resync()


def toast_shown(table: Table) -> bool:
    return bool(table.page.evaluate("() => !document.getElementById('toast').hidden"))


def test_a_tapped_tile_leaves_the_hand_before_any_frame_and_a_second_tap_is_ignored(
    live: str, make_user: Any, context_for: Any
) -> None:
    ana = make_user("ana")
    match = against_a_computer(ana)
    page = context_for(ana).new_page()
    table = Table(page).open(f"{live}/m/{match.pk}/")
    first_turn(table)
    before = table.version()
    tile = next(iter(table.playable()))
    seen = page.evaluate(TAP_AND_LOOK, [tile, True])
    # In the same moment as the tap: gone from the hand, waiting on its train, no frame yet.
    assert seen == {"pending": True, "shown": False, "ghost": True, "same_version": True}, seen
    table.wait_version_above(before)
    page.wait_for_function("() => !document.querySelector('.pending-tile')")
    assert tile not in table.hand()  # confirmed by the frame: on its train
    settled(table)
    assert plays_sent(table, tile) == 1  # the second tap sent nothing
    table.assert_no_errors()
    assert not toast_shown(table)


def test_a_double_tap_in_the_first_turn_plays_once_and_shows_no_error(
    live: str, make_user: Any, context_for: Any
) -> None:
    ana = make_user("ana")
    match = against_a_computer(ana)
    page = context_for(ana, viewport=SMALL_PHONE, has_touch=True).new_page()
    table = Table(page).open(f"{live}/m/{match.pk}/")
    first_turn(table)
    before = table.version()
    hand = table.hand()
    tile = next(iter(table.playable()))
    page.dblclick(f'.htile[data-tile="{tile}"]')
    table.wait_version_above(before)
    settled(table)
    acts = [m for m in table.sent if m["type"] == "act"]
    assert [m["action"]["tile"] for m in acts[-1:]] == [tile] and plays_sent(table, tile) == 1
    assert len(table.hand()) == len(hand) - 1  # one tile played, the one tapped
    table.assert_no_errors()
    assert not toast_shown(table)


def test_on_a_phone_a_tile_that_fits_nowhere_says_why_where_it_can_be_read(
    live: str, make_user: Any, context_for: Any, shots: Path
) -> None:
    ana = make_user("ana")
    match = against_a_computer(ana)
    page = context_for(ana, lang="es", viewport=SMALL_PHONE, has_touch=True).new_page()
    table = Table(page).open(f"{live}/m/{match.pk}/")
    first_turn(table)
    stuck = [t for t in table.hand() if t not in table.playable()]
    assert stuck, "every tile fits: choose another deal"
    why = page.get_attribute(f'.htile[data-tile="{stuck[0]}"]', "data-why")
    assert why
    page.tap(f'.htile[data-tile="{stuck[0]}"]')
    page.wait_for_selector("#hand-say.hand__say--why")
    box = page.evaluate(LINE_BOX)
    page.screenshot(path=str(shots / "refusal-phone-375-es.png"))
    assert why in box["text"] and "¿por qué?" in box["text"], box
    assert box["width"] >= 250 and box["x"] >= 0 and box["x"] + box["width"] <= 375, box
    assert box["y"] >= 0 and box["y"] + box["height"] <= 667, box
    assert not box["cut"] and not box["covered"] and box["font"] >= 14, box
    table.assert_no_errors()


def test_a_refused_play_comes_back_to_the_hand_with_its_reason(
    live: str, make_user: Any, context_for: Any
) -> None:
    ana = make_user("ana")
    match = against_a_computer(ana)
    page = context_for(ana).new_page()
    table = Table(page).open(f"{live}/m/{match.pk}/")
    first_turn(table)
    tile = next(t for t in table.hand() if t not in table.playable())
    # Offered (by hand, in the page) on our own train: the server refuses it (R8).
    page.evaluate(
        """(tile) => {
          const el = document.querySelector(`.htile[data-tile="${tile}"]`);
          el.dataset.targets = "0";
          el.removeAttribute("data-why");
        }""",
        tile,
    )
    seen = page.evaluate(TAP_AND_LOOK, [tile, False])
    assert seen["pending"] and not seen["shown"], seen
    page.wait_for_selector("#hand-say.hand__say--why")
    assert not page.evaluate(
        f"""() => document.querySelector('.htile[data-tile="{tile}"]').classList.contains('is-pending')"""
    )
    assert page.locator(f'.htile[data-tile="{tile}"] svg').is_visible()
    assert page.locator(".pending-tile").count() == 0
    error = next(m for _, m in table.received if m["type"] == "error")
    assert error["message"] in page.locator("#hand-say").inner_text()


def test_a_page_that_was_behind_catches_up_without_an_error(
    live: str, make_user: Any, context_for: Any
) -> None:
    ana = make_user("ana")
    match = against_a_computer(ana)
    page = context_for(ana).new_page()
    table = Table(page).open(f"{live}/m/{match.pk}/")
    first_turn(table)
    version = table.version()
    # The page believes it is one change behind the table (as after a frame it missed).
    page.evaluate(
        f"() => MT.update({{ type: 'update', v: {version - 1}, base: {version}, events: [], parts: {{}} }})"
    )
    tile = next(iter(table.playable()))
    table.click_tile(tile)
    page.wait_for_function(f"() => MT.version() === {version}")  # the table's board came
    page.wait_for_function(
        "() => [...document.querySelectorAll('.htile')].every(e => !e.classList.contains('is-pending'))"
    )
    assert [m["code"] for _, m in table.received if m["type"] == "error"] == ["stale"]
    assert tile in table.hand()  # back in the hand, as the table has it
    table.click_tile(tile)  # and the next tap plays it
    table.wait_version_above(version)
    assert tile not in table.hand()
    assert not toast_shown(table)


def test_an_accepted_restart_is_told_on_every_page_in_its_language(
    live: str, signed_in: Any
) -> None:
    ana_context = signed_in("ana")
    ben_context = signed_in("ben", lang="es", viewport=SMALL_PHONE)
    cleo_context = signed_in("cleo", lang="de")
    match = seeded.match_create(
        creator=ana_context.user, seats=[SeatSpec("me"), SeatSpec("human")], seed=7
    )
    services.seat_join(match_id=match.pk, user=ben_context.user, token=match.invite_token)
    ana = Table(ana_context.new_page()).open(f"{live}/m/{match.pk}/")
    ben = Table(ben_context.new_page()).open(f"{live}/m/{match.pk}/")
    cleo = Table(cleo_context.new_page()).open(f"{live}/m/{match.pk}/?watch={match.watch_token}")
    ana.page.locator("details.tmenu > summary").first.click()
    ana.page.locator('[data-dialog="restart-dialog"]').click()
    ana.page.locator('#restart-dialog [data-cmd="restart"]').click()
    ben.page.wait_for_selector('.ask [data-cmd="accept"]')
    assert not toast_shown(ben)  # asked, not restarted: nothing to tell yet
    ben.page.locator('.ask [data-cmd="accept"]').click()
    said = {
        ana: "\u2068ana\u2069 restarted the round: every hand is back as it was dealt.",
        ben: "\u2068ana\u2069 reinició la ronda: cada mano vuelve a estar como se repartió.",
        cleo: "\u2068ana\u2069 hat die Runde neu gestartet: Jede Hand ist wieder wie beim Austeilen.",
    }
    for table, words in said.items():
        table.page.wait_for_selector("#toast.toast--news:not([hidden])")
        assert table.page.locator("#toast").inner_text() == words
        table.assert_no_errors()
