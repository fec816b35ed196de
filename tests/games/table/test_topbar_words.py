"""The table's top bar at 1280 x 800 shows no badge cut short in any language (the
Spanish pace badge was cut), and whose turn it is whole: the computers' pace beside an open
double and a turn, seated and watching. Where the pace does not fit it is not shown (it is in
the table's menu). Rendered from engine states (tests/games/table/snapshots.py) in Chromium."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from engine.views import view
from games.board.presenter import Flags
from games.board.viewer import Viewer
from tests.games.board import states as S
from tests.games.table.snapshots import render_page

pytestmark = [pytest.mark.browser]

WHOLE = (
    "els => els.map(e => [e.innerText, e.scrollWidth <= e.clientWidth + 1 && e.getBoundingClientRect().right "
    "<= e.closest('.tbar__facts').getBoundingClientRect().right + 1])"
)


@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_the_pace_badge_is_whole_at_1280(new_context: Any, tmp_path: Path, lang: str) -> None:
    st = S.with_open_double(4)
    seats = S.seats(4, {1: "computer", 2: "computer", 3: "computer"})
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    for name, (v, viewer) in {
        "seated": (view(st, 0), None),
        "watching": (view(st, None), Viewer()),
    }.items():
        with translation.override(lang):
            html = render_page(v, seats, viewer, Flags(version=50, pace="relaxed"))
        path = tmp_path / f"{name}.html"
        path.write_text(html)
        page.goto(path.as_uri())
        page.wait_for_selector("#board .badge--pace", state="attached")
        page.wait_for_function("() => document.fonts.status === 'loaded'")
        badges = page.eval_on_selector_all(
            "#board .tbar .badge", f"els => ({WHOLE})(els.filter(e => e.offsetParent))"
        )
        assert badges and all(whole for _, whole in badges), (name, badges)
        turn = page.eval_on_selector(
            ".board .tbar__status", "e => e.scrollWidth <= e.clientWidth + 1"
        )
        assert turn, name
