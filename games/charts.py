"""The running-totals chart (R21: each round's penalty points add up; R22: the lowest total
wins), drawn on the server as SVG: one line per seat, one mark per ended round in that
seat's colour (Okabe–Ito based, games.board.presenter.SEAT_COLOURS) and shape, so colour
is never the only way to tell the lines apart.

Used by the live table (its scores dialog and the match's end, games/jinja2/games/board/
score_table.html) and by the history wing (the match page and the replay viewer,
games/history/scores.py). The match's length is a parameter (`rounds`, default
`engine.deal.ROUNDS`), so a shorter match gets a shorter axis.

Accessible: the SVG is an image named by its label, with a text description (the totals
after the last round) in its ``<desc>``; each mark has a ``<title>`` naming seat, round
and total; the round-by-round table beside it is the fallback that reads in full.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import accumulate

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from engine.deal import ROUNDS
from games import words

WIDTH, HEIGHT = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 46, 12, 20, 34

#: (round number, every seat's total after it), oldest first
Totals = Sequence[tuple[int, Sequence[int]]]


def running_totals(points: Sequence[Sequence[int]]) -> list[tuple[int, tuple[int, ...]]]:
    """Each round's penalty points (oldest first) as the totals after each round (R21)."""
    if not points:
        return []
    sums = accumulate(
        points, lambda total, pts: tuple(a + b for a, b in zip(total, pts, strict=True))
    )
    return [(n, tuple(t)) for n, t in enumerate(sums, start=1)]


def nice_top(value: int) -> int:
    """A round upper bound for the y axis."""
    for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if value <= step * 5:
            return max(step, -(-value // step) * step)
    return -(-value // 1000) * 1000


def totals_chart(
    names: Sequence[str], styles: Sequence[tuple[str, str]], totals: Totals, *, rounds: int = ROUNDS
) -> SafeString:
    """The chart of `totals` for seats `names`, each drawn in its (colour, shape path) style;
    x is the round (1 … `rounds`), y the total after it."""
    key = (
        tuple(names),
        tuple(styles),
        tuple((n, tuple(t)) for n, t in totals),
        rounds,
        get_language(),
    )
    return _chart(*key)


@lru_cache(maxsize=256)
def _chart(
    names: tuple[str, ...],
    styles: tuple[tuple[str, str], ...],
    totals: tuple[tuple[int, tuple[int, ...]], ...],
    rounds: int,
    language: str | None,
) -> SafeString:
    rounds = max(rounds, max((n for n, _t in totals), default=1), 2)
    top = nice_top(max((max(t) for _n, t in totals if t), default=0) or 10)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(n: int) -> float:
        return round(LEFT + plot_w * (n - 1) / (rounds - 1), 1)

    def y(v: int) -> float:
        return round(TOP + plot_h * (1 - v / top), 1)

    label = words.chart_title()
    parts: list[str] = [format_html("<title>{}</title>", label)]
    if totals:
        last, after = totals[-1]
        standing = ", ".join(f"{name} {after[i]}" for i, name in enumerate(names) if i < len(after))
        parts.append(
            format_html(
                "<desc>{}</desc>",
                words.chart_after_round(last, standing),
            )
        )
    for k in range(6):  # horizontal grid and y labels
        v = top * k // 5
        parts.append(
            format_html(
                '<line class="chart__grid" x1="{}" x2="{}" y1="{}" y2="{}"/>'
                '<text class="chart__y" x="{}" y="{}" text-anchor="end" data-value="{}">{}</text>',
                LEFT,
                WIDTH - RIGHT,
                y(v),
                y(v),
                LEFT - 6,
                y(v) + 4,
                v,
                v,
            )
        )
    every = 1 if rounds <= 15 else -(-rounds // 13)
    for n in range(1, rounds + 1):
        if n == 1 or n == rounds or n % every == 0:
            parts.append(
                format_html(
                    '<text class="chart__x" x="{}" y="{}" text-anchor="middle">{}</text>',
                    x(n),
                    HEIGHT - BOTTOM + 16,
                    n,
                )
            )
    parts.append(
        format_html(
            '<text class="chart__axis" x="{}" y="{}" text-anchor="middle">{}</text>',
            LEFT + plot_w / 2,
            HEIGHT - 4,
            words.chart_axis(),
        )
    )
    for seat, name in enumerate(names):
        colour, path = styles[seat]
        points = [(n, t[seat]) for n, t in totals if len(t) > seat]
        if not points:
            continue
        line = " ".join(f"{x(n)},{y(v)}" for n, v in points)
        marks = format_html_join(
            "",
            '<g class="chart__point" data-seat="{}" data-round="{}" data-total="{}" '
            'transform="translate({} {}) scale(.5)"><title>{}</title><path d="{}" stroke="none"/></g>',
            (
                (
                    seat + 1,
                    n,
                    v,
                    round(x(n) - 5, 1),
                    round(y(v) - 5, 1),
                    words.chart_point(name, n, v),
                    path,
                )
                for n, v in points
            ),
        )
        parts.append(
            format_html(
                '<g class="chart__seat" data-seat="{}" fill="{}" stroke="{}">'
                '<polyline fill="none" stroke-width="2" points="{}"/>{}</g>',
                seat + 1,
                colour,
                colour,
                line,
                marks,
            )
        )
    return format_html(
        '<svg class="chart" viewBox="0 0 {} {}" role="img" aria-label="{}" data-top="{}">{}</svg>',
        WIDTH,
        HEIGHT,
        label,
        top,
        mark_safe("".join(parts)),
    )
