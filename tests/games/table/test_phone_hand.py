"""The phone's hand fits: every tile in view at 375 x 667, none behind a sideways
scroll, with 15, 21 and 32 tiles; the playable ones shown and lit; with 15 tiles the hand
takes at most 35% of the screen's height. On the phone the table has one menu button (the
site's menu is an item of the table's), the boneyard's "50 tiles" stays on one line and the
engine double is a tile, not an icon. The table page is rendered from engine states
(tests/games/table/snapshots.py, no server) in English, Spanish and German and opened in Chromium;
screenshots go to test-artifacts/screenshots/phone-hand-*.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from engine.views import view
from games.board.presenter import Flags, phone_columns
from tests.games.board import states as S
from tests.games.table.snapshots import render_page

pytestmark = [pytest.mark.browser]

PHONE = {"width": 375, "height": 667}
DESKTOP = {"width": 1280, "height": 800}
BOX = "el => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"
#: WCAG 2.5.8's smallest target: a tile in a full hand is at least this wide (and twice as tall)
MIN_TILE = 24


@pytest.fixture(scope="module")
def shots_dir(artifacts_dir: Path) -> Path:
    out = artifacts_dir / "screenshots"
    out.mkdir(exist_ok=True)
    return out


def open_hand(
    new_context: Any, tmp_path: Path, size: int, lang: str, viewport: dict[str, int]
) -> Any:
    state = S.with_hand_of(size)
    with translation.override(lang):
        html = render_page(view(state, state.turn), S.seats(2), None, Flags(version=9))
    path = tmp_path / f"hand-{size}-{lang}.html"
    path.write_text(html)
    page = new_context(viewport=viewport).new_page()
    page.goto(path.as_uri())
    page.wait_for_selector("#hand .htile")
    return page


def test_phone_columns_keep_rows_few() -> None:
    """Rows of 8 for a small hand, 10 up to 20 tiles (two rows), then at most three rows."""
    assert phone_columns(5) == 8 and phone_columns(8) == 8
    assert phone_columns(9) == 10 and phone_columns(15) == 10 and phone_columns(20) == 10
    assert phone_columns(21) == 11 and phone_columns(33) == 11 and phone_columns(36) == 12
    for n in range(1, 40):
        assert -(-n // phone_columns(n)) <= 3


@pytest.mark.parametrize("lang", ["en", "es", "de"])
@pytest.mark.parametrize("size", [15, 21, 32])
def test_every_tile_of_the_hand_is_in_view_on_a_phone(
    new_context: Any, tmp_path: Path, shots_dir: Path, size: int, lang: str
) -> None:
    page = open_hand(new_context, tmp_path, size, lang, PHONE)
    page.screenshot(path=str(shots_dir / f"phone-hand-{size}-{lang}.png"))
    tiles = page.eval_on_selector_all("#hand .htile", f"els => els.map({BOX})")
    assert len(tiles) == size
    # no sideways scroll, of the page or of the hand
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.eval_on_selector(".hand__tiles", "el => el.scrollWidth <= el.clientWidth")
    hand = page.eval_on_selector("#hand", BOX)
    for box in tiles:
        assert box[0] >= 0 and box[2] <= PHONE["width"], box
        assert hand[1] <= box[1] and box[3] <= hand[3], (box, hand)  # inside the hand, none cut off
        assert box[2] - box[0] >= MIN_TILE and box[3] - box[1] >= 2 * MIN_TILE, box
    # the hand stays at the bottom of the screen, whole
    assert hand[3] <= PHONE["height"] + 0.5
    # playable tiles are among them, lit and at full strength
    lit = page.eval_on_selector_all(
        "#hand .htile--playable", "els => els.map(e => getComputedStyle(e).opacity)"
    )
    assert lit and all(float(o) == 1.0 for o in lit)
    if size == 15:
        assert hand[3] - hand[1] <= 0.35 * PHONE["height"], hand


@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_the_phone_table_has_one_menu_button(new_context: Any, tmp_path: Path, lang: str) -> None:
    page = open_hand(new_context, tmp_path, 15, lang, PHONE)
    menus = page.eval_on_selector_all(
        ".menubtn, .tbar__fold", "els => els.filter(e => e.offsetParent).length"
    )
    assert menus == 1
    # the site's menu is an item of the table's: it opens over the page, with the lobby in it
    page.click(".tbar__fold")
    page.click("[data-site-menu]")
    assert page.locator("#site-menu a[href='/lobby/']").is_visible()
    # the boneyard's count and word on one line; the engine double drawn as a tile
    boneyard = page.eval_on_selector(
        ".tbar__boneyard strong",
        "el => el.getClientRects().length === 1 "
        "&& el.offsetHeight < 1.6 * parseFloat(getComputedStyle(el).fontSize) * 1.2",
    )
    assert boneyard
    engine = page.eval_on_selector(".tbar__engine .tile", BOX)
    assert engine[3] - engine[1] >= 24


def test_unplayable_tiles_keep_dark_pips(new_context: Any, tmp_path: Path) -> None:
    """The tiles that fit nowhere step back by a greyed face; their pips are not faded."""
    page = open_hand(new_context, tmp_path, 15, "en", DESKTOP)
    dull = page.locator("#hand .htile:not(.htile--playable)").first
    assert float(dull.evaluate("el => getComputedStyle(el).opacity")) == 1.0
    face = dull.evaluate(
        "el => getComputedStyle(el.querySelector('.tile')).getPropertyValue('--face-fill')"
    )
    assert face.strip(), "the face of a tile that fits nowhere is greyed"
