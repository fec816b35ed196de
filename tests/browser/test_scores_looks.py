"""The score chart and the match-end table in Chromium, at 1280×800 and 375×667 in en/es/de
: the chart's marks are the stored totals (13 per seat), it fits the window, and a
20-character name in the match-end table is cut only when the table has no width left
(never beside empty width); no number is ever clipped, and neither table (the match end's,
the scores dialog's) scrolls sideways: every seat's column is in view."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Round
from tests.browser.table import Table
from tests.games.history.fabricate import finished_match

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SIZES = {"1280": {"width": 1280, "height": 800}, "375": {"width": 375, "height": 667}}
NAMES = [
    "Maximiliana_Quetzal1",
    "Bartholomew_Ziggurat",
    "Konstantinopel_Berta",
    "Xochiquetzal_Mendoza",
]

#: at the match's end: the chart's marks, the table's names (cut or not), numbers clipped, widths
MEASURE = """() => {
  const end = document.querySelector('.result--match');
  const wrap = end.querySelector('.stable__wrap'), table = end.querySelector('.stable');
  const names = [...end.querySelectorAll('.stable__name')].map((n) => ({
      cut: n.scrollWidth > n.clientWidth + 1, text: n.textContent.replace(/[\u2068\u2069]/g, "").trim()}));
  const clipped = [...end.querySelectorAll('.stable td')].filter((td) => td.scrollWidth > td.clientWidth + 1)
      .map((td) => td.textContent.trim());
  const chart = end.querySelector('svg.chart').getBoundingClientRect();
  const marks = [...end.querySelectorAll('svg.chart .chart__point')].map((g) =>
      [+g.dataset.seat, +g.dataset.round, +g.dataset.total]);
  const box = end.getBoundingClientRect();
  return {names, clipped, marks, chart: [chart.x, chart.width], inner: window.innerWidth,
          end: [box.x, box.width], table: table.getBoundingClientRect().width,
          wrap: wrap.clientWidth, wrapScroll: wrap.scrollWidth};
}"""


def test_match_end_chart_and_table_at_1280_and_375_in_three_languages(
    live: str, make_user: Any, context_for: Any, shots: Any
) -> None:
    users = [make_user(n) for n in NAMES]
    match = finished_match(users, seed=777)
    totals = {r.number: r.totals for r in Round.objects.filter(match=match)}
    expected = sorted((s + 1, n, t[s]) for n, t in totals.items() for s in range(4))
    for lang in ("en", "es", "de"):
        for size_name, size in SIZES.items():
            context = context_for(users[0], lang=lang, viewport=size)
            page = context.new_page()
            Table(page).open(f"{live}/m/{match.pk}/")  # the socket's first (whole) board is in
            page.locator(".result--match svg.chart").wait_for()
            got = page.evaluate(MEASURE)
            page.screenshot(path=str(shots / f"match-end-{lang}-{size_name}.png"), full_page=True)
            for _ in range(
                3
            ):  # a board update (another page of the table closing) may morph it meanwhile
                try:
                    page.locator(".result--match .stable__chart").screenshot(
                        path=str(shots / f"chart-{lang}-{size_name}.png")
                    )
                    break
                except Exception:
                    page.wait_for_timeout(200)
            where = f"{lang} {size_name}"
            assert sorted(map(tuple, got["marks"])) == expected, where
            # (the page's own width with long names elsewhere is the table layout's: people-a's part)
            assert got["end"][0] >= 0 and sum(got["end"]) <= got["inner"] + 1, (
                f"{where}: the match end overflows"
            )
            assert got["chart"][0] >= 0 and got["chart"][0] + got["chart"][1] <= got["inner"] + 1, (
                where
            )
            assert got["clipped"] == [], f"{where}: numbers clipped {got['clipped']}"
            assert [n["text"] for n in got["names"]] == NAMES, where
            if size_name == "1280":
                assert not any(n["cut"] for n in got["names"]), (
                    f"{where}: a name cut beside empty width"
                )
            elif any(n["cut"] for n in got["names"]):
                assert got["table"] >= got["wrap"] - 2, (
                    f"{where}: a name cut though the table is narrower"
                )
            # every seat's column is in view: the table never scrolls sideways
            assert got["wrapScroll"] <= got["wrap"] + 1, f"{where}: the table scrolls"
            # the scores dialog shows the same chart, inside the window
            # (opened again should a board update replace the part while it opens)
            page.wait_for_function("""() => { const d = document.getElementById('scores-dialog');
                if (!d.open) d.showModal();
                return d.open && d.querySelector('svg.chart').getBoundingClientRect().width > 0; }""")
            box = page.locator("#scores-dialog svg.chart").bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= got["inner"] + 1, where
            assert page.locator("#scores-dialog svg.chart .chart__point").count() == 52
            assert page.evaluate(
                """() => { const w = document.querySelector('#scores-dialog .stable__wrap');
                return w.scrollWidth <= w.clientWidth + 1; }"""
            ), f"{where}: the dialog's table scrolls"
            if lang == "en":
                page.screenshot(path=str(shots / f"scores-dialog-{size_name}.png"))
            context.close()
