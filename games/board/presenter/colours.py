"""Each seat's colour and shape (`seat_style`): the board, the scores and the charts tell the
seats apart by both."""

from __future__ import annotations

#: Seat colours (Okabe–Ito based, told apart by colour-blind players) and, because
#: colour alone is not enough, a shape per seat. Paths are in a 20 × 20 box. The board's
#: templates give a seat its colour by class (`SeatCtx.tint`): board.css holds the same
#: colours, in this order, as ``.tint-0`` … ``.tint-9``; the charts draw with them directly.
SEAT_COLOURS: tuple[str, ...] = (
    "#0072b2",
    "#d55e00",
    "#009e73",
    "#cc79a7",
    "#e69f00",
    "#56b4e9",
    "#7a4eab",
    "#8c6d1f",
    "#6b6b6b",
    "#b8a200",
)
SEAT_SHAPES: tuple[tuple[str, str], ...] = (
    ("circle", "M2 10a8 8 0 1 0 16 0a8 8 0 1 0-16 0Z"),
    ("square", "M3 3h14v14H3Z"),
    ("triangle", "M10 2l8.5 15h-17Z"),
    ("diamond", "M10 1l9 9-9 9-9-9Z"),
    ("star", "M10 1.5l2.6 5.4 5.9.8-4.3 4.1 1 5.9L10 14.9l-5.2 2.8 1-5.9L1.5 7.7l5.9-.8Z"),
    ("hexagon", "M5.5 2.2h9L19 10l-4.5 7.8h-9L1 10Z"),
    ("plus", "M7 2h6v5h5v6h-5v5H7v-5H2V7h5Z"),
    (
        "cross",
        "M4.2 1.4 10 7.2l5.8-5.8 2.8 2.8-5.8 5.8 5.8 5.8-2.8 2.8-5.8-5.8-5.8 5.8-2.8-2.8L7.2 10 1.4 4.2Z",
    ),
    ("pentagon", "M10 1.5l8.5 6.2-3.2 10H4.7l-3.2-10Z"),
    ("triangle-down", "M1.5 3h17L10 18Z"),
)


def seat_style(index: int) -> tuple[str, str, str]:
    """(colour, shape name, shape path) of a seat."""
    shape, path = SEAT_SHAPES[index % len(SEAT_SHAPES)]
    return SEAT_COLOURS[index % len(SEAT_COLOURS)], shape, path
