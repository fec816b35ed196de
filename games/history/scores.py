"""Scores you can see: each ended round's penalties and who went out (R20, R21), and a
server-drawn SVG chart of every seat's running total across the rounds (R22: the
lowest total wins).

Read from the rounds' stored results and, for who went out, the last effective
action of the round (the play that emptied a hand, R20)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from engine.deal import ROUNDS
from games import log
from games.models import LogEntry, Match, Round


@dataclass(frozen=True)
class RoundRow:
    number: int
    ended_by: str
    points: tuple[int, ...]
    totals: tuple[int, ...]
    #: the seat that went out (R20), None for a blocked round
    out: int | None
    #: the seats with the round's lowest penalty
    lowest: tuple[int, ...]


def round_rows(match: Match) -> list[RoundRow]:
    """Every ended round of `match`, oldest first."""
    rounds = list(Round.objects.filter(match=match).exclude(ended_by="").order_by("number"))
    entries = (LogEntry.objects.filter(round__in=[r.pk for r in rounds]).order_by("round_id", "seq")
               .only("round_id", "kind", "seat", "action"))
    last_seat: dict[int, int | None] = {}
    for round_id, group in groupby(entries, key=lambda e: e.round_id):
        effective = log.fold(list(group)).effective
        last_seat[round_id] = effective[-1].seat if effective else None
    rows = []
    for r in rounds:
        points = tuple(r.points or ())
        low = min(points) if points else 0
        rows.append(RoundRow(
            number=r.number, ended_by=r.ended_by, points=points, totals=tuple(r.totals or ()),
            out=last_seat.get(r.pk) if r.ended_by == Round.EndedBy.OUT else None,
            lowest=tuple(s for s, p in enumerate(points) if p == low)))
    return rows


# ---------------------------------------------------------------- the chart

WIDTH, HEIGHT = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 14, 34


def _nice_top(value: int) -> int:
    """A round upper bound for the y axis."""
    for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if value <= step * 5:
            return max(step, -(-value // step) * step)
    return -(-value // 1000) * 1000


def chart_svg(names: Sequence[str], colours: Sequence[str], rows: Sequence[RoundRow], *,
              shapes: Sequence[str] | None = None, rounds: int = ROUNDS) -> SafeString:
    """An SVG line chart: x the round (1..`rounds`, the match's length, R31), y the running total, one line and one point per
    ended round for each seat; every point has a title naming seat, round and total. With
    `shapes` (SVG paths in a 20 × 20 box, the seats' marks) each point is drawn in its seat's
    shape, so colour is not the only way to tell the lines apart."""
    top = _nice_top(max((max(r.totals) for r in rows if r.totals), default=0) or 10)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(n: int) -> float:
        return round(LEFT + plot_w * (n - 1) / max(1, rounds - 1), 1)

    def y(v: int) -> float:
        return round(TOP + plot_h * (1 - v / top), 1)

    parts: list[str] = []
    for k in range(6):  # horizontal grid and y labels
        v = top * k // 5
        parts.append(format_html('<line class="chart__grid" x1="{}" x2="{}" y1="{}" y2="{}"/>'
                                 '<text class="chart__y" x="{}" y="{}" text-anchor="end">{}</text>',
                                 LEFT, WIDTH - RIGHT, y(v), y(v), LEFT - 6, y(v) + 4, v))
    for n in range(1, rounds + 1):
        parts.append(format_html('<text class="chart__x" x="{}" y="{}" text-anchor="middle">{}</text>',
                                 x(n), HEIGHT - BOTTOM + 16, n))
    parts.append(format_html('<text class="chart__axis" x="{}" y="{}" text-anchor="middle">{}</text>',
                             LEFT + plot_w / 2, HEIGHT - 4, _("Round")))
    for seat, name in enumerate(names):
        colour = colours[seat]
        points = [(r.number, r.totals[seat]) for r in rows if len(r.totals) > seat]
        if not points:
            continue
        line = " ".join(f"{x(n)},{y(v)}" for n, v in points)
        def title(n: int, v: int, name: str = name) -> str:
            return _("%(name)s, round %(round)s: total %(total)s") % {"name": name, "round": n, "total": v}

        if shapes:
            circles = format_html_join(
                "", '<g class="chart__point" data-seat="{}" data-round="{}" transform="translate({} {}) scale(.5)">'
                    '<title>{}</title><path d="{}" stroke="none"/></g>',
                ((seat + 1, n, round(x(n) - 5, 1), round(y(v) - 5, 1), title(n, v), shapes[seat])
                 for n, v in points))
        else:
            circles = format_html_join(
                "", '<circle class="chart__point" data-seat="{}" data-round="{}" cx="{}" cy="{}" r="4">'
                    '<title>{}</title></circle>',
                ((seat + 1, n, x(n), y(v), title(n, v)) for n, v in points))
        parts.append(format_html(
            '<g class="chart__seat" data-seat="{}" style="--seat:{}" fill="{}" stroke="{}">'
            '<polyline fill="none" stroke-width="2" points="{}"/>{}</g>',
            seat + 1, colour, colour, colour, line, circles))
    label = _("Running totals by round (the lowest total wins)")
    return format_html('<svg class="chart" viewBox="0 0 {} {}" role="img" aria-label="{}">{}</svg>',
                       WIDTH, HEIGHT, label, mark_safe("".join(parts)))


def legend(names: Sequence[str], styles: Sequence[tuple[str, str, str]]) -> list[dict[str, str]]:
    """The chart's key: each seat's name, colour and shape (`seat_style`: colour, shape, path)."""
    return [{"name": n, "colour": c, "path": p} for n, (c, _shape, p) in zip(names, styles, strict=True)]
