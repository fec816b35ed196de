"""The computers' pace and "Skip to my turn" in the browser (table-ux.md: "Computer
players' moves animate one at a time at the table's chosen pace (relaxed, normal,
fast, instant; 'skip to my turn')"; static/js/pace.js).

A seated player changes the pace from the table's menu and every page at the table,
a spectator's too, shows it; on a computer's turn "Skip to my turn" makes the
computers play without waiting until the turn is the player's again, then the table
is back at its pace. The test server's computers move every 0.05 s (normal), so the
computers are held by a pause (R26) while the button is looked at.
"""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import Preferences
from games import services
from games.models import Match
from games.services import SeatSpec
from tests import seeded

from .table import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_pace_from_the_menu_and_skip_to_my_turn(
    live: str, make_user: Any, context_for: Any, shots: Any
) -> None:
    ana, bob = make_user("ana"), make_user("bob")
    match = seeded.match_create(
        creator=ana,
        seed=5,
        pace="relaxed",
        seats=[
            SeatSpec("me"),
            SeatSpec("computer", level="beginner"),
            SeatSpec("computer", level="casual"),
        ],
    )
    page = context_for(ana).new_page()
    table = Table(page).open(f"{live}/m/{match.pk}/")
    watcher = Table(context_for(bob).new_page()).open(
        f"{live}/m/{match.pk}/?watch={match.watch_token}"
    )
    badge = page.locator("#board .badge--pace")
    assert badge.inner_text() == "Computers: Relaxed"
    assert watcher.page.locator("#board .badge--pace").inner_text() == "Computers: Relaxed"
    assert watcher.page.locator("#board [data-pace]").count() == 0  # a spectator cannot choose

    # The menu: the current pace is pressed; choose Fast.
    page.click("#board details.tmenu > summary")
    assert page.locator('#board [data-pace="relaxed"]').get_attribute("aria-pressed") == "true"
    page.click('#board [data-pace="fast"]')
    page.wait_for_selector("#board .badge--pace:has-text('Computers: Fast')")
    watcher.page.wait_for_selector("#board .badge--pace:has-text('Computers: Fast')")
    assert Match.objects.get(pk=match.pk).pace == "fast"
    page.screenshot(path=str(shots / "pace-menu.png"))

    # Hold the computers (as an open rules panel does, R26), then play until a computer is to act.
    table.wait_turn_or_over(timeout=30_000)
    services.pause_open(match_id=match.pk, user=ana, channel="test-hold")
    while table.your_turn():
        version = table.version()
        table.act_first_fit()
        table.wait_version_above(version)
    # "Skip to my turn" stood in the bar all along, disabled on our turn: now it may be pressed.
    skip = page.locator("#board [data-skip]:not([disabled])")
    skip.wait_for(state="visible")
    assert watcher.page.locator("#board [data-skip]").count() == 0
    version = table.version()
    skip.click()
    table.wait_version_above(version)
    page.wait_for_selector("#board .badge--pace:has-text('Computers hurry to your turn')")
    assert page.locator("#board [data-skip]:not([disabled])").count() == 0
    assert (
        page.locator("#board [data-skip][disabled]").count() == 1
    )  # in place, so no click lands elsewhere
    assert Match.objects.get(pk=match.pk).hurry

    # Let go: the computers play at once to our turn, and the table is back at its pace.
    services.pause_close(match_id=match.pk, channel="test-hold")
    table.wait_turn_or_over(timeout=30_000)
    m = Match.objects.get(pk=match.pk)
    assert (m.pace, m.hurry) == ("fast", False)
    page.wait_for_selector("#board .badge--pace:has-text('Computers: Fast')")
    table.assert_no_errors()
    watcher.assert_no_errors()


def test_draw_and_pass_for_me_sends_only_the_listed_action(
    live: str, make_user: Any, context_for: Any
) -> None:
    """The opt-in is kept on the account (a later page, another browser, shows it on); with it
    on, a board whose only legal action is to draw or pass gets that action sent, once."""
    ana = make_user("ana")
    match = seeded.match_create(
        creator=ana,
        seed=5,
        pace="instant",
        seats=[SeatSpec("me"), SeatSpec("computer", level="casual")],
    )
    page = context_for(ana).new_page()
    table = Table(page).open(f"{live}/m/{match.pk}/")
    toggle = page.locator("#board [data-autodraw]")
    assert toggle.get_attribute("aria-pressed") == "false"
    # The computer plays at once (instant pace): the turn coming back re-renders the tools and
    # may close the menu just opened; open it again until the item is there to click.
    for _ in range(5):
        page.click("#board details.tmenu > summary")
        try:
            toggle.click(timeout=2000)
            break
        except Exception:
            continue
    page.wait_for_selector(
        '#board [data-autodraw][aria-pressed="true"]', state="attached"
    )  # the menu has closed
    assert table.data("draw-pass") == "on" and Preferences.objects.get(user=ana).autodraw
    other = Table(context_for(ana).new_page()).open(
        f"{live}/m/{match.pk}/"
    )  # another browser of hers
    assert other.data("draw-pass") == "on"
    other.page.close()

    # Play with the first fitting tile; draws and passes must come by themselves. Played until
    # the round ends or the page has sent both, three times each.
    def sent_for_us() -> list[dict[str, Any]]:
        return [
            m for m in table.sent if m["type"] == "act" and m["action"]["act"] in ("draw", "pass")
        ]

    for _ in range(400):
        acts = [m["action"]["act"] for m in sent_for_us()]
        if acts.count("draw") >= 3 and acts.count("pass") >= 3:
            break
        table.wait(
            "b.dataset.yourTurn === 'true' || b.dataset.phase !== 'play' && b.dataset.phase !== 'first'"
            " && b.dataset.phase !== 'engine'",
            timeout=30_000,
        )
        if table.phase() in ("round_over", "match_over"):
            break
        only = table.data("only")
        version = table.version()
        if only:
            table.wait_version_above(version, timeout=5_000)  # sent for us, no click
            continue
        table.act_first_fit()
        table.wait_version_above(version)
    auto = sent_for_us()
    assert auto, "this deal never left us without a play"
    versions = [m["version"] for m in auto]
    assert len(versions) == len(set(versions))  # one action per board, never twice
    table.assert_no_errors()
