"""The secrecy checks are only as good as `tests.games.table.hostile.secrets.tiles_written`: it finds a tile
in each form the site writes one, and nothing in what only looks like numbers."""

from __future__ import annotations

import json

from tests.games.table.hostile.secrets import tiles_written


def test_the_detector_finds_a_tile_in_every_form_the_site_writes() -> None:
    """The checks above are only as good as `tiles_written`: each form of 5-3 is found."""
    from django.utils import translation

    from games.templatetags.tiles import tile

    forms = [
        '<button class="htile" data-tile="5-3" data-targets="0">',
        '<svg class="tile" data-pips="3-5" role="img" aria-label="x">',
        str(tile((3, 5), decorative=True)).replace('data-pips="3-5"', ""),  # the pips alone
        json.dumps({"type": "hint", "tile": "5-3", "train": 0}),
        "Ana played 5-3 on the Mexican train",
        "Tile 5\u20133",
    ]
    with translation.override("es"):
        forms.append(str(tile((5, 3))).replace('data-pips="5-3"', ""))  # "Ficha 5-3" and the pips
    for text in forms:
        assert tiles_written(text) == {(3, 5)}, text
    # Not tiles: path data, versions, tokens, dates, rounds.
    for text in [
        '<path d="M10 1l9 9-9 9-9-9Z"/>',
        'data-version="5" data-seat="3"',
        "token Ab5-3xY",
        "2026-12-02",
        "Round 5 / 13",
        "10-13",
        "x_5-3",
    ]:
        assert tiles_written(text) == set(), text
