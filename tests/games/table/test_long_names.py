"""Names never break a layout: every board state of tests/games/table/snapshots.py, with
20-character names in every seat, in English, Spanish and German, at 1280 x 800 and 375 x 667:
the page never scrolls sideways and no number is cut (a total of 178 never shows as "17").
A name itself may end in an ellipsis: it is a .pname, with the whole name in its title.
Screenshots: test-artifacts/screenshots/long-names-*.png.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from tests.browser.table import resize
from tests.games.table.snapshots import pages, render_page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: twenty characters each: wide letters, no spaces, hyphens, accents, digits in a name
LONG = [
    "WWWWWWWWWWWWWWWWWWWW",
    "Maximiliano_Ferreira",
    "Anneliese-Schwarzkop",
    "Bartholomew Kingsley",
    "Świętosław Zaręba 12",
    "Oluwaseun Adebayo-Ok",
    "Jean-Christophe Marc",
    "Alexandros Papadakis",
    "Rumpelstiltskin 1998",
    "Wilhelmina Vanderbil",
]
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 375, "height": 667}}

#: Elements whose own text holds a digit, shown, not a name: each must be whole in its box and
#: inside every box around it that clips (overflow hidden or clip).
CUT_NUMBERS = """() => {
  const bad = [];
  const clips = v => v === 'hidden' || v === 'clip';
  for (const el of document.querySelectorAll('#board *')) {
    if (el.closest('.pname, .visually-hidden, [hidden], dialog:not([open]), svg, .tip')) continue;
    const own = [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('');
    if (!/\\d/.test(own)) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
    if (clips(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1)
      bad.push([own.trim(), el.className, 'cut in its own box']);
    for (let a = el.parentElement; a && a.id !== 'board'; a = a.parentElement) {
      if (!clips(getComputedStyle(a).overflowX)) continue;
      const ar = a.getBoundingClientRect();
      if (r.left < ar.left - 1 || r.right > ar.right + 1) bad.push([own.trim(), el.className, 'cut by ' + a.className]);
    }
  }
  return bad;
}"""


@pytest.fixture(scope="module")
def shots_dir(artifacts_dir: Path) -> Path:
    out = artifacts_dir / "screenshots"
    out.mkdir(exist_ok=True)
    return out


@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_long_names_break_no_board(
    new_context: Any, tmp_path: Path, shots_dir: Path, lang: str
) -> None:
    page = new_context(viewport=SIZES["desktop"]).new_page()
    with translation.override(lang):
        states = pages()
        files = {}
        for name, (v, seats, viewer, flags) in states.items():
            seats = [replace(s, name=LONG[s.index]) if s.kind != "computer" else s for s in seats]
            files[name] = tmp_path / f"{name}.html"
            files[name].write_text(render_page(v, seats, viewer, flags))
    problems = {}
    for name, path in files.items():
        page.goto(path.as_uri())
        page.wait_for_selector("#board .board")
        # Loaded once, the window resized under it: what each size shows.
        for size, viewport in SIZES.items():
            resize(page, viewport)
            width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            cut = page.evaluate(CUT_NUMBERS)
            if width[0] > width[1] or cut:
                problems[f"{size} {name}"] = (width, cut)
                page.screenshot(
                    path=str(shots_dir / f"long-names-{size}-{lang}-{name}.png"), full_page=True
                )
            # the Mexican train's name is whole, "Öffentliche Bahn" on a phone too
            mexican = page.eval_on_selector_all(
                ".train--mexican .train__name",
                "els => els.map(e => e.scrollWidth <= e.clientWidth + 1)",
            )
            assert all(mexican), (size, name, "the Mexican train's name is cut")
            # every name on the board is the one element, with its whole self in its title
            names = page.eval_on_selector_all(
                "#board .pname", "els => els.map(e => [e.title, e.textContent])"
            )
            assert names and all(title == text for title, text in names), (size, names)
    page.goto(files["round_over"].as_uri())
    for size, viewport in SIZES.items():
        resize(page, viewport)
        page.screenshot(
            path=str(shots_dir / f"long-names-{size}-{lang}-round_over.png"), full_page=True
        )
    assert problems == {}, problems
