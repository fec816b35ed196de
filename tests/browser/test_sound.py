"""The optional sound on your turn (table-ux.md "Your turn: … optional sound";
static/js/sound.js).

Off until turned on in the table's menu; then a chime when the turn comes to this
device — not when the page opens on your turn — and the choice is kept across board
swaps and page loads. Web Audio is replaced by a counter here (a headless browser
has no speakers): each chime starts two notes.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.services import SeatSpec
from tests import seeded

from .table import Table, against_a_computer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Web Audio as far as sound.js uses it, counting the notes started
COUNTING_AUDIO = """
window.__notes = 0;
window.AudioContext = function () {
  this.state = "running"; this.currentTime = 0; this.destination = {};
  this.createOscillator = function () {
    return { type: "", frequency: { value: 0 }, connect: function () {},
             start: function () { window.__notes += 1; }, stop: function () {} };
  };
  this.createGain = function () {
    return { gain: { setValueAtTime: function () {}, exponentialRampToValueAtTime: function () {} },
             connect: function () {} };
  };
};
"""


def chimes(page: Any) -> int:
    return int(page.evaluate("window.__notes")) // 2


def play_until_our_turn_comes_back(table: Table) -> None:
    """Our moves until the turn passes, then the computer's, until it is ours again.

    Whether the turn passed is read from the first board our move made, not from the page
    afterwards: the computer may have moved, and the turn come back, by the time we look."""
    passed = not table.your_turn()
    while not passed:
        version = table.version()
        table.act_first_fit()
        table.wait_version_above(version)
        made = next(b for b in table.boards() if b["version"] > version)
        passed = not made["your_turn"]
    table.wait("b.dataset.yourTurn === 'true'", timeout=30_000)


def test_the_turn_sound_is_off_until_chosen_then_chimes_when_the_turn_comes(
    live: str, make_user: Any, context_for: Any
) -> None:
    ana = make_user("ana")
    match = against_a_computer(ana)
    context = context_for(ana)
    context.add_init_script(COUNTING_AUDIO)
    page = context.new_page()
    table = Table(page).open(f"{live}/m/{match.pk}/")
    sound = page.locator("#board [data-sound]")
    assert sound.get_attribute("aria-pressed") == "false"

    play_until_our_turn_comes_back(table)
    assert chimes(page) == 0  # off by default

    page.click("#board details.tmenu > summary")
    sound.click()
    # sound.js comes on first use (static/js/lazy.js): the first click waits for it, then counts
    page.wait_for_selector(
        '#board [data-sound][aria-pressed="true"]', state="attached", timeout=5000
    )
    assert chimes(page) == 1  # turning it on plays it once
    assert page.evaluate("localStorage.getItem('mt-turn-sound')") == "on"
    page.wait_for_selector("#hand-say:has-text('A sound will say when it is your turn.')")

    play_until_our_turn_comes_back(table)
    assert chimes(page) == 2  # the turn came back: one chime
    assert (
        page.locator("#board [data-sound]").get_attribute("aria-pressed") == "true"
    )  # kept across swaps

    page.reload()
    table.wait("b.dataset.yourTurn === 'true'")
    page.wait_for_selector(
        '#board [data-sound][aria-pressed="true"]', state="attached", timeout=5000
    )  # on: loaded at once
    page.wait_for_timeout(200)
    assert chimes(page) == 0  # a page opened on our turn stays quiet
    assert (
        page.locator("#board [data-sound]").get_attribute("aria-pressed") == "true"
    )  # kept in this browser
    table.assert_no_errors()


def test_spectators_have_no_turn_sound(live: str, make_user: Any, context_for: Any) -> None:
    ana, bob = make_user("ana"), make_user("bob")
    match = seeded.match_create(
        creator=ana, seed=3, seats=[SeatSpec("me"), SeatSpec("computer", level="casual")]
    )
    page = context_for(bob).new_page()
    Table(page).open(f"{live}/m/{match.pk}/?watch={match.watch_token}")
    assert page.locator("#board .banner--watch").count() == 1
    assert page.locator("#board [data-sound]").count() == 0
