"""The table takes update frames (games/board/parts.py, static/js/table.js): moves slide, clicks
go on meanwhile, reduced motion shows no movement, a refused move comes back with its words,
and a page that missed a frame asks for the board again.

The move of the tests is the first tile of our first turn (R8): after it our turn goes on
(the chain, R9), so the next click is ours to make while the tile still slides.
"""

from __future__ import annotations

from typing import Any

import pytest

from .table import Table, against_a_computer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: records every sliding copy of a tile added to the page, and whether it was moving then
WATCH_SLIDES = """() => {
  window.__slides = [];
  new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach((n) => {
    if (n.classList && n.classList.contains("ttile--ghost")) {
      window.__slides.push({ moving: n.getAnimations().length > 0 });
    }
  }))).observe(document.body, { childList: true });
}"""


def first_turn(table: Table) -> None:
    table.act_first_fit()  # Confirm engine (R7); our first turn follows
    table.wait("b.dataset.yourTurn === 'true' && b.dataset.phase === 'first'")


def test_a_move_slides_to_its_train_and_the_next_click_works_while_it_slides(
    live: str, make_user: Any, context_for: Any
) -> None:
    ana = make_user("ana")
    match = against_a_computer(ana)
    page = context_for(ana).new_page()
    page.add_init_script("window.MT_SLIDE_MS = 4000;")  # long enough to click during it
    table = Table(page).open(f"{live}/m/{match.pk}/")
    first_turn(table)
    page.evaluate(WATCH_SLIDES)
    act, tile, train = table.first_fit()
    assert act == "play" and tile is not None and train is not None
    before = len([m for _, m in table.received if m["type"] == "update"])
    table.play(tile, train)
    # It came as an update, not a whole board.
    assert len([m for _, m in table.received if m["type"] == "update"]) > before
    page.wait_for_function("() => window.__slides.length > 0")
    assert page.evaluate("window.__slides[0].moving")
    assert page.locator(".ttile--ghost").count() == 1  # still sliding
    # The next click works during the animation: still our first turn, a lit tile is laid on
    # our train at once (R8: one tap), or a tile that fits nowhere says why.
    other = next(iter(table.playable()), None) or table.hand()[0]
    acts = len([m for m in table.sent if m["type"] == "act"])
    page.click(f'.htile[data-tile="{other}"]')
    page.wait_for_timeout(50)
    assert (
        len([m for m in table.sent if m["type"] == "act"]) == acts + 1
        or page.locator("#hand-say").inner_text()
    )  # a tile that fits nowhere says why instead
    page.wait_for_function(
        "() => document.querySelectorAll('.ttile--ghost').length === 0", timeout=8000
    )
    assert page.locator(f'.train[data-train="{train}"] .ttile--last').is_visible()
    table.assert_no_errors()


def test_with_reduced_motion_nothing_moves(live: str, make_user: Any, context_for: Any) -> None:
    ana = make_user("ana")
    match = against_a_computer(ana)
    page = context_for(ana, reduced_motion="reduce").new_page()
    table = Table(page).open(f"{live}/m/{match.pk}/")
    first_turn(table)
    page.evaluate(WATCH_SLIDES)
    act, tile, train = table.first_fit()
    assert act == "play" and tile is not None and train is not None
    table.play(tile, train)
    page.wait_for_timeout(150)
    assert page.evaluate("window.__slides") == []
    assert (
        page.evaluate(
            "document.getAnimations().filter(a => a.effect && a.effect.target"
            " && a.effect.target.closest && a.effect.target.closest('.train')).length"
        )
        == 0
    )
    table.assert_no_errors()


def test_a_refused_move_shows_pending_then_comes_back_with_its_message(
    live: str, make_user: Any, context_for: Any
) -> None:
    ana = make_user("ana")
    match = against_a_computer(ana)
    page = context_for(ana).new_page()
    table = Table(page).open(f"{live}/m/{match.pk}/")
    first_turn(table)
    # A tile the server will refuse: one that fits nowhere, offered (by hand, in the page)
    # on our own train. The browser applies no rule, so it sends it; the engine refuses (R8).
    stuck = [t for t in table.hand() if t not in table.playable()]
    assert stuck, "every tile fits: choose another deal"
    tile = stuck[0]
    version = table.version()
    page.evaluate(
        """(tile) => {
      const el = document.querySelector(`.htile[data-tile="${tile}"]`);
      el.dataset.targets = "0";
      el.removeAttribute("data-why");
      window.__pending = false;
      new MutationObserver(() => { if (el.classList.contains("is-pending")) window.__pending = true; })
        .observe(el, { attributes: true, attributeFilter: ["class"] });
    }""",
        tile,
    )
    table.click_tile(tile)  # our first turn: one tap lays a tile with one train (R8)
    page.wait_for_function("() => !document.getElementById('toast').hidden")
    assert page.evaluate("window.__pending")  # shown as pending at once
    page.wait_for_function(
        f"() => !document.querySelector('.htile[data-tile=\"{tile}\"]').classList.contains('is-pending')"
    )
    assert page.locator("#toast").inner_text().strip()
    assert tile in table.hand() and table.version() == version
    errors = [m for _, m in table.received if m["type"] == "error"]
    assert (
        errors
        and (errors[-1].get("explanation") or errors[-1]["message"])
        in page.locator("#toast").inner_text()
    )


def test_an_update_that_skips_a_version_makes_the_page_ask_for_the_board(
    live: str, make_user: Any, context_for: Any
) -> None:
    ana = make_user("ana")
    match = against_a_computer(ana)
    page = context_for(ana).new_page()
    table = Table(page).open(f"{live}/m/{match.pk}/")
    version = table.version()
    syncs = len([m for m in table.sent if m["type"] == "sync"])
    # A frame from a version this page never had (a dropped frame before it).
    page.evaluate(f"""() => MT.update({{ type: "update", v: {version + 2}, base: {version + 1},
                                        events: [], parts: {{}} }})""")
    page.wait_for_timeout(300)
    assert len([m for m in table.sent if m["type"] == "sync"]) == syncs + 1
    assert table.version() == version  # nothing applied; the board that comes is the right one
    table.assert_no_errors()
