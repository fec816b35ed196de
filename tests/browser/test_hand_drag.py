"""Dragging tiles with the mouse (table-ux.md): onto a glowing train it plays the tile
(R23); onto another place in the hand it moves it there (Shift+←/→ does the same from
the keyboard, R30), and that order holds across board swaps and page loads until a
sort replaces it ("sortable: drag, or sort by pips / by suit")."""

from __future__ import annotations

from typing import Any

import pytest

from .table import Table, against_a_computer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def drag(page: Any, source: str, to_x: float, to_y: float) -> None:
    """Press on `source`, move in steps (a drag starts after 10 px), release at (to_x, to_y)."""
    box = page.locator(source).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 4, y - 14, steps=3)
    page.mouse.move(to_x, to_y, steps=12)
    page.mouse.up()


def test_dragging_a_tile_moves_it_in_the_hand_or_plays_it_on_a_train(
    live: str, make_user: Any, context_for: Any
) -> None:
    ana = make_user("ana")
    match = against_a_computer(ana)
    page = context_for(ana).new_page()
    table = Table(page).open(f"{live}/m/{match.pk}/")
    table.act_first_fit()  # Confirm engine (R7): our first turn follows
    table.wait("b.dataset.yourTurn === 'true'")

    hand, version = table.hand(), table.version()
    third = page.locator(f'.htile[data-tile="{hand[2]}"]').bounding_box()
    drag(
        page,
        f'.htile[data-tile="{hand[0]}"]',
        third["x"] + third["width"] * 0.8,
        third["y"] + third["height"] / 2,
    )
    moved = [hand[1], hand[2], hand[0], *hand[3:]]
    assert table.hand() == moved
    page.wait_for_selector(f"#hand-say:has-text('Tile {hand[0]} moved in your hand.')")
    assert page.locator(".htile.is-selected").count() == 0  # nothing stays lifted
    assert page.locator(".train.is-target").count() == 0
    assert table.version() == version  # moving a tile plays nothing

    table.resync()  # the same board again, swapped in whole: the order holds
    assert table.hand() == moved
    page.reload()
    table.wait("b.dataset.yourTurn === 'true'")
    assert table.hand() == moved  # and across page loads, for this match

    page.focus(f'.htile[data-tile="{moved[0]}"]')
    page.keyboard.press("Shift+ArrowRight")  # the keyboard's drag: one place to the right
    moved = [moved[1], moved[0], *moved[2:]]
    assert table.hand() == moved
    assert (
        page.evaluate("document.activeElement.dataset.tile") == moved[1]
    )  # the tile keeps the focus
    page.keyboard.press("Shift+ArrowLeft")
    moved = [moved[1], moved[0], *moved[2:]]
    assert table.hand() == moved

    page.click('[data-sort="pips"]')  # a sort replaces the dragged order
    pips = sorted(moved, key=lambda t: (-sum(map(int, t.split("-"))), -max(map(int, t.split("-")))))
    assert table.hand() == pips
    page.click('[data-sort="pips"]')  # and off again: the order the server deals
    assert table.hand() == hand

    tile, targets = next(iter(table.playable().items()))
    train = page.locator(f'.train[data-train="{targets[0]}"]').bounding_box()
    before = table.version()
    drag(
        page,
        f'.htile[data-tile="{tile}"]',
        train["x"] + train["width"] / 2,
        train["y"] + train["height"] / 2,
    )
    table.wait_version_above(before)
    assert tile not in table.hand()  # played where it was dropped (R23)
    table.assert_no_errors()
