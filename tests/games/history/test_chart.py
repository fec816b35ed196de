"""The running-totals chart (games/charts.py; R21 the points add up, R22 the lowest total
wins): read back from its SVG, every seat's line and marks stand at that seat's totals,
round by round, wherever it is drawn — the table's scores dialog and match end, the
match page, the replay viewer — for any match length."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from django.test import Client

from engine.deal import ROUNDS
from games import charts
from games.models import Round
from tests.games.history.fabricate import finished_match

SVG = re.compile(r'<svg class="chart".*?</svg>', re.S)
SHAPE = "M2 10a8 8 0 1 0 16 0a8 8 0 1 0-16 0Z"


def read_chart(svg: str) -> dict[str, Any]:
    """Each seat's (round, total) as the SVG draws them: from the line's pixels through the
    axes (the y labels' values and positions, the first and last round's x), and from the marks."""
    root = ET.fromstring(svg)
    ys = {
        float(t.get("y")) - 4: int(t.get("data-value"))
        for t in root.iter("text")
        if t.get("class") == "chart__y"
    }
    (y0, v0), (y1, v1) = (
        min(ys.items(), key=lambda kv: kv[1]),
        max(ys.items(), key=lambda kv: kv[1]),
    )
    xs = {int(t.text): float(t.get("x")) for t in root.iter("text") if t.get("class") == "chart__x"}
    first, last = min(xs), max(xs)

    def value(py: float) -> int:
        return round(v0 + (py - y0) * (v1 - v0) / (y1 - y0))

    def round_at(px: float) -> int:
        return round(first + (px - xs[first]) * (last - first) / (xs[last] - xs[first]))

    lines, marks = {}, {}
    for g in root.iter("g"):
        if g.get("class") == "chart__seat":
            seat = int(g.get("data-seat"))
            pts = [
                tuple(map(float, p.split(","))) for p in g.find("polyline").get("points").split()
            ]
            lines[seat] = [(round_at(px), value(py)) for px, py in pts]
            marks[seat] = [
                (int(m.get("data-round")), int(m.get("data-total")))
                for m in g.iter("g")
                if m.get("class") == "chart__point"
            ]
    return {
        "lines": lines,
        "marks": marks,
        "rounds": (first, last),
        "label": root.get("aria-label"),
        "desc": root.findtext("desc"),
        "title": root.findtext("title"),
    }


def test_points_equal_the_totals_and_the_axis_follows_the_match_length() -> None:
    totals = [(1, (23, 41, 0)), (2, (30, 41, 16)), (3, (152, 41, 38)), (4, (171, 98, 38))]
    for rounds in (ROUNDS, 6, 4):
        drawn = read_chart(
            str(
                charts.totals_chart(
                    ["ana", "ben", "cy"], [("#0072b2", SHAPE)] * 3, totals, rounds=rounds
                )
            )
        )
        assert drawn["rounds"] == (1, rounds)
        for seat in (1, 2, 3):
            expected = [(n, t[seat - 1]) for n, t in totals]
            assert drawn["lines"][seat] == expected and drawn["marks"][seat] == expected
        assert drawn["desc"] == "After round 4: ana 171, ben 98, cy 38."
        assert drawn["title"] == drawn["label"] == "Running totals by round (the lowest total wins)"


def test_running_totals_add_each_rounds_points() -> None:
    assert charts.running_totals([(3, 0), (10, 5), (0, 7)]) == [
        (1, (3, 0)),
        (2, (13, 5)),
        (3, (13, 12)),
    ]
    assert charts.running_totals([]) == []


def test_names_are_escaped_and_each_mark_names_seat_round_and_total() -> None:
    svg = str(charts.totals_chart(['<b>"x"</b>', "ben"], [("#000", SHAPE)] * 2, [(1, (5, 9))]))
    assert "<b>" not in svg and "&lt;b&gt;" in svg
    assert "<title>ben, round 1: total 9</title>" in svg


@pytest.mark.django_db
def test_table_dialog_match_end_and_history_pages_draw_the_stored_totals(make_user: Any) -> None:
    ana, ben = make_user("ana"), make_user("ben")
    match = finished_match([ana, ben, "casual"], seed=314)
    stored = {r.number: tuple(r.totals) for r in Round.objects.filter(match=match)}
    client = Client()
    client.force_login(ana)
    pages = {
        "table": client.get(f"/m/{match.pk}/").content.decode(),
        "about": client.get(f"/m/{match.pk}/about/").content.decode(),
        "replay": client.get(f"/m/{match.pk}/replay/").content.decode(),
    }
    counts = {name: len(SVG.findall(html)) for name, html in pages.items()}
    # the table: its scores dialog and the match end; the replay: its own (not again in its board's dialog)
    assert counts == {"table": 2, "about": 1, "replay": 1}
    for name, html in pages.items():
        for svg in SVG.findall(html):
            drawn = read_chart(svg)
            for seat in (1, 2, 3):
                expected = [(n, stored[n][seat - 1]) for n in sorted(stored)]
                assert drawn["lines"][seat] == expected, name
                assert drawn["marks"][seat] == expected, name
    assert (
        'id="scores-dialog"' in pages["table"] and 'class="result result--match"' in pages["table"]
    )
