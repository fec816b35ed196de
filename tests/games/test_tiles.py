"""The tile tag (games/templatetags/tiles.py): every tile of the double-twelve set (R1)
drawn with pips 0–12 that fit their half and never touch each other."""

from __future__ import annotations

import itertools
import math
import re

import pytest
from django.template import Context, Template
from django.utils import translation

from engine.tiles import FULL_SET
from games.templatetags.tiles import pip_positions, pip_radius, tile, tile_back, tile_defs


def render(source: str, **context) -> str:
    return Template("{% load tiles %}" + source).render(Context(context))


@pytest.mark.parametrize("n", range(13))
def test_r1_each_number_has_its_pips_inside_the_half_without_overlap(n):
    pips = pip_positions(n)
    assert len(pips) == n
    r = pip_radius(n)
    for x, y in pips:
        assert r < x < 100 - r and r < y < 100 - r
    for (x1, y1), (x2, y2) in itertools.combinations(pips, 2):
        assert math.dist((x1, y1), (x2, y2)) > 2 * r + 2  # a visible gap between pips


def test_r1_numbers_outside_the_set_are_refused():
    with pytest.raises(ValueError):
        pip_positions(13)
    with pytest.raises(ValueError):
        pip_positions(-1)


def test_defs_hold_one_symbol_per_number_with_its_pips():
    defs = str(tile_defs())
    for n in range(13):
        symbol = re.search(rf'<symbol id="mt-pips-{n}"[^>]*>(.*?)</symbol>', defs)
        assert symbol, n
        assert symbol.group(1).count("<circle") == n


@pytest.mark.parametrize("t", FULL_SET)
def test_r1_all_91_tiles_render_with_both_halves_and_a_name(t):
    a, b = t
    with translation.override("en"):
        html = render("{% tile t %}", t=t)
    assert html.startswith("<svg") and html.endswith("</svg>")
    assert f'href="#mt-pips-{a}"' in html and f'href="#mt-pips-{b}"' in html
    assert html.count('href="#mt-pips-') == 2 and html.count("<use ") == 3  # the face, two halves
    assert f'aria-label="Tile {b}-{a}"' in html  # spoken higher number first
    assert ("tile--double" in html) == (a == b)


def test_all_91_tiles_are_distinct_drawings():
    drawings = {str(tile(t)) for t in FULL_SET}
    assert len(drawings) == 91


def test_orientation_is_kept_for_train_tiles_and_strings_are_accepted():
    assert 'data-pips="5-3"' in render('{% tile "5-3" %}')
    assert 'data-pips="3-5"' in render("{% tile t %}", t=(3, 5))
    html = render('{% tile "12-0" vertical=True %}')
    assert 'viewBox="0 0 100 200"' in html and 'y="100"' in html


def test_decorative_tiles_are_hidden_from_screen_readers():
    html = render('{% tile "6-4" decorative=True %}')
    assert 'aria-hidden="true"' in html and "aria-label" not in html


def test_labels_are_translated_and_escaped():
    with translation.override("de"):
        assert 'aria-label="Stein 6-4"' in render('{% tile "4-6" %}')
    with translation.override("es"):
        assert 'aria-label="Ficha 6-4"' in render('{% tile "4-6" %}')
    assert "&lt;b&gt;" in render('{% tile "1-2" label=x %}', x="<b>")


def test_face_down_tile_shows_no_pips():
    html = str(tile_back())
    assert "mt-pips" not in html and "<use" not in html


def test_bad_tiles_are_template_errors():
    with pytest.raises(ValueError):
        render('{% tile "13-1" %}')
    with pytest.raises(ValueError):
        render("{% tile t %}", t="x")
