"""The table's top, the computers' level and the score tables with long names, in
Chromium at 375 x 667 and 1280 x 800 in English, Spanish and German, from the static pages of
tests/games/table/snapshots.py (20-character names, computers of every level):

- on the phone the table's top bar is one row, the chat button in it, and whose turn it is
  stays on one line (the name gives way, a .pname);
- the computer's level ("Gelegenheitsspieler") shows whole on its train at both sizes;
- with ten seats, every total of the scores dialog and of the match's end is whole and in view
  on the phone, and the page never scrolls sideways.

Screenshots: test-artifacts/screenshots/phone-top-*.png."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from engine.views import view
from games.board.presenter import Flags
from games.models import Seat
from tests.browser.table import resize
from tests.games.board import states as S
from tests.games.table.snapshots import pages, render_page
from tests.games.table.test_long_names import LONG, SIZES

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LEVELS = [label for _value, label in Seat.Level.choices]  # lazy: words in the active language

#: [text, wholly visible]: the element's text fits its box and every clipping box around it
WHOLE = """els => els.map(el => {
  const r = el.getBoundingClientRect();
  let ok = el.scrollWidth <= el.clientWidth + 1 && r.width > 0 && r.left >= -1 && r.right <= innerWidth + 1;
  for (let a = el.parentElement; a; a = a.parentElement) {
    if (!['hidden', 'clip', 'auto', 'scroll'].includes(getComputedStyle(a).overflowX)) continue;
    const ar = a.getBoundingClientRect();
    if (r.left < ar.left - 1 || r.right > ar.right + 1) ok = false;
  }
  return [el.textContent.trim(), ok];
})"""
BOX = "el => { const r = el.getBoundingClientRect(); return [r.top, r.bottom, r.height]; }"


def seated(seats: Any) -> Any:
    """Long names for the people, a level for each computer (every level in turn)."""
    return [
        replace(s, name=LONG[s.index])
        if s.kind != "computer"
        else replace(s, level=str(LEVELS[s.index % len(LEVELS)]))
        for s in seats
    ]


def boards(tmp_path: Path, lang: str) -> dict[str, Path]:
    """The pages to look at, in `lang`: someone else's turn, computers of every level, ten seats
    in play and at the match's end."""
    files = {}
    with translation.override(lang):
        states = pages()
        history, over = S.history_of(10, seed=5)
        states["match_over_10"] = (
            view(over, 0),
            S.seats(10, {i: "computer" for i in range(3, 10)}),
            None,
            Flags(
                version=900,
                offers=S.again_offer(10, {i: "computer" for i in range(3, 10)}),
                history=tuple(history),
            ),
        )
        for name in ("open_double_waiting", "start", "mid_4", "mid_10", "match_over_10"):
            v, seats, viewer, flags = states[name]
            files[name] = tmp_path / f"{lang}-{name}.html"
            files[name].write_text(render_page(v, seated(seats), viewer, flags))
    return files


def test_the_table_top_levels_and_totals(
    new_context: Any, tmp_path: Path, artifacts_dir: Path
) -> None:
    shots = artifacts_dir / "screenshots"
    shots.mkdir(exist_ok=True)
    problems: dict[str, Any] = {}
    page = new_context(viewport=SIZES["desktop"]).new_page()
    for lang in ("en", "es", "de"):
        files = boards(tmp_path, lang)
        for name, path in files.items():
            page.goto(path.as_uri())
            page.wait_for_selector("#board .board")
            # Loaded once, the window resized under it: the desktop first, then the phone
            # (whose checks open the chat's button and the scores dialog).
            for size, viewport in SIZES.items():
                resize(page, viewport)
                key = f"{size} {lang} {name}"
                found = []
                width = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
                if width[0] > width[1]:
                    found.append(("scrolls sideways", width))
                levels = page.eval_on_selector_all(".train__level", WHOLE)
                if not all(ok for _text, ok in levels):
                    found.append(("level cut", levels))
                if name in ("start", "mid_4", "mid_10") and not levels:
                    found.append("no level shown")
                if size == "phone" and name in ("open_double_waiting", "mid_4"):
                    # the chat, once the table's talk is on (chat.js shows its button)
                    page.evaluate("document.getElementById('chat-toggle').hidden = false")
                    # one row: whose turn, the round, the engine, the boneyard, the chat and
                    # the menu side by side (a paused or open-double badge may go under them)
                    row = [
                        page.eval_on_selector(f"#board {part}", BOX)
                        for part in (
                            ".tbar__turn",
                            ".tbar__round",
                            ".tbar__boneyard",
                            ".tbar__fold",
                        )
                    ]
                    chat = page.eval_on_selector("#chat-toggle", BOX)
                    top, bottom = min(r[0] for r in row), max(r[1] for r in row)
                    if bottom - top > 56 or not (top - 1 <= chat[0] and chat[1] <= bottom + 1):
                        found.append(("top bar not one row", row, chat))
                    pill = page.eval_on_selector(
                        ".tbar__status",
                        "el => [el.getBoundingClientRect().height,"
                        " parseFloat(getComputedStyle(el).lineHeight)]",
                    )
                    if pill[0] > pill[1] * 1.5:
                        found.append(("turn on more than one line", pill))
                    # "Your turn" ("Dein Zug") is whole; someone else's name may give way
                    if name == "mid_4":
                        whole = page.eval_on_selector(
                            ".tbar__status", "el => el.scrollWidth <= el.clientWidth + 1"
                        )
                        if not whole:
                            found.append("'your turn' cut")
                if name == "match_over_10" or (name == "mid_10" and size == "phone"):
                    if name == "mid_10":
                        page.evaluate("document.getElementById('scores-dialog').showModal()")
                        where = "#scores-dialog"
                    else:
                        where = ".result--match"
                    totals = page.eval_on_selector_all(f"{where} .stable tfoot td", WHOLE)
                    if len(totals) != 10 or not all(ok for _text, ok in totals):
                        found.append(("totals", totals))
                    width = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
                    if width[0] > width[1]:
                        found.append(("scrolls sideways", width))
                if found:
                    problems[key] = found
                page.screenshot(
                    path=str(shots / f"phone-top-{size}-{lang}-{name}.png"), full_page=True
                )
    assert problems == {}, problems
