"""Scores you can see: each ended round's penalties and who went out (R20, R21), and the
server-drawn SVG chart of every seat's running total across the rounds (games.charts;
R22: the lowest total wins).

Read from the rounds' stored results and, for who went out, the last effective
action of the round (the play that emptied a hand, R20)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby

from django.utils.safestring import SafeString

from engine.deal import ROUNDS
from games import charts, log
from games.models import LogEntry, Match, Round

#: a seat's mark when no shape is given
CIRCLE = "M2 10a8 8 0 1 0 16 0a8 8 0 1 0-16 0Z"


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
    entries = (
        LogEntry.objects.filter(round__in=[r.pk for r in rounds])
        .order_by("round_id", "seq")
        .only("round_id", "kind", "seat", "action")
    )
    last_seat: dict[int, int | None] = {}
    for round_id, group in groupby(entries, key=lambda e: e.round_id):
        effective = log.fold(list(group)).effective
        last_seat[round_id] = effective[-1].seat if effective else None
    rows = []
    for r in rounds:
        points = tuple(r.points or ())
        low = min(points) if points else 0
        rows.append(
            RoundRow(
                number=r.number,
                ended_by=r.ended_by,
                points=points,
                totals=tuple(r.totals or ()),
                out=last_seat.get(r.pk) if r.ended_by == Round.EndedBy.OUT else None,
                lowest=tuple(s for s, p in enumerate(points) if p == low),
            )
        )
    return rows


# ---------------------------------------------------------------- the chart


def chart_svg(
    names: Sequence[str],
    colours: Sequence[str],
    rows: Sequence[RoundRow],
    *,
    shapes: Sequence[str] | None = None,
    rounds: int = ROUNDS,
) -> SafeString:
    """The running-totals chart of these rounds (games.charts): one line per seat, each point in
    its seat's colour and shape (`shapes`: SVG paths in a 20 × 20 box; a circle without)."""
    paths = shapes or [CIRCLE] * len(names)
    return charts.totals_chart(
        names,
        list(zip(colours, paths, strict=False)),
        [(r.number, r.totals) for r in rows if r.totals],
        rounds=rounds,
    )


def legend(names: Sequence[str], styles: Sequence[tuple[str, str, str]]) -> list[dict[str, str]]:
    """The chart's key: each seat's name, colour and shape (`seat_style`: colour, shape, path)."""
    return [
        {"name": n, "colour": c, "path": p} for n, (c, _shape, p) in zip(names, styles, strict=True)
    ]
