"""The board's Jinja2 templates (games/jinja2/, games/board/jinja_env.py): what Django's
engine did for free and Jinja2 does only as configured.

Players' names are escaped wherever the board writes them (autoescaping), translated
words are escaped too (as ``{% translate %}`` did), a mistyped name fails instead of
printing nothing, and every word of the templates is one `makemessages` extracts
(``.ci/i18n``) and the es/de catalogues translate.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import jinja2
import polib
import pytest
from django.template import engines
from django.utils import translation

from engine.views import view
from games.board.draw import board_html
from games.board.presenter import Flags, SeatInfo, present
from games.board.viewer import Viewer

from . import states as S

TEMPLATES = Path(__file__).resolve().parents[3] / "games" / "jinja2"

HOSTILE = [
    "<script>alert(1)</script>",
    'Ana "the" O\'Brien & co',
    "<img src=x onerror=alert(2)>",
    "{{ b.version }}",
]


class _Values(HTMLParser):
    """Tags, text and attribute values of a page, entities decoded."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.values: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.values.extend(v for _, v in attrs if v)

    def handle_data(self, data: str) -> None:
        self.values.append(data)


def _parsed(html: str) -> _Values:
    parser = _Values()
    parser.feed(html)
    parser.close()
    return parser


def _seats(n: int) -> list[SeatInfo]:
    return [SeatInfo(index=i, name=HOSTILE[i % len(HOSTILE)], kind="local") for i in range(n)]


def _boards() -> list[tuple[str, list[str]]]:
    """(board, the names at its table): the names in every place they go, rows, scores,
    turn, relay cover, results."""
    st = S.mid_game(4)
    seats = _seats(4)
    names = [s.name for s in seats]
    last = f"{HOSTILE[0]} played 5-3"
    out = [
        (
            board_html(
                present(
                    view(st, seat),
                    seats,
                    viewer=Viewer(controlled=(seat,)),
                    flags=Flags(last_event=last),
                )
            ),
            names,
        )
        for seat in range(4)
    ]
    out.append(
        (
            board_html(
                present(view(st, None), seats, viewer=Viewer(), flags=Flags(last_event=last))
            ),
            names,
        )
    )
    relay = Viewer(controlled=(0, 1, 2, 3), revealed=None)
    out.append((board_html(present(view(st, None), seats, viewer=relay)), names))
    history, over = S.history_of(4, seed=7, rounds=2)
    out.append(
        (
            board_html(
                present(view(over, 0), seats, flags=Flags(next_round=True, history=tuple(history)))
            ),
            names,
        )
    )
    history, end = S.history_of(3, seed=11)
    out.append(
        (
            board_html(
                present(
                    view(end, 0),
                    _seats(3),
                    flags=Flags(offers=S.again_offer(3), history=tuple(history)),
                )
            ),
            names[:3],
        )
    )
    return out


def test_names_are_escaped_everywhere_the_board_writes_them():
    boards = _boards()
    assert "Pass the device to" in boards[5][0] and "The match is over" in boards[-1][0]
    for html, names in boards:
        parsed = _parsed(html)
        # no markup from a name: only the board's own tags
        assert "script" not in parsed.tags and "img" not in parsed.tags
        assert "<script" not in html and "<img" not in html
        # escaped once, not twice: the decoded page holds each name as typed
        assert "&amp;lt;" not in html and "&amp;amp;" not in html and "&amp;#" not in html
        text = " ".join(parsed.values)
        for name in names:
            assert name in text
    # a name inside an attribute comes back whole (its quotes did not end the attribute)
    covered = HOSTILE[S.mid_game(4).turn]
    assert any(v.startswith(f"Pass the device to {covered}") for v in _parsed(boards[5][0]).values)


def test_translated_words_are_escaped_and_unknown_names_fail():
    env = engines["jinja2"]
    with translation.override("de"):
        assert (
            env.from_string('{{ _("a < b & \\"c\\"") }}').render({}) == "a &lt; b &amp; &#34;c&#34;"
        )
        assert env.from_string('{{ _("Trains") }}').render({}) == "Bahnen"
    with pytest.raises(jinja2.UndefinedError):
        env.from_string("{{ b.no_such_field }}").render({"b": object()})


def _template_sources() -> dict[str, str]:
    return {str(p.relative_to(TEMPLATES)): p.read_text() for p in sorted(TEMPLATES.rglob("*.html"))}


def test_every_word_of_the_templates_is_extracted_and_translated():
    sources = _template_sources()
    assert "games/board.html" in sources and "games/board/log.html" in sources
    literal = re.compile(r"""_\((?:"([^"\\]*)"|'([^'\\]*)')\)""")
    words = set()
    for name, source in sources.items():
        # Django's tags would be read by makemessages but not by Jinja2; Jinja2's {% trans %}
        # is not read by makemessages; `_()` with arguments neither.
        assert not re.search(
            r"{%-?\s*(trans|translate|blocktrans|blocktranslate|load)\b", source
        ), name
        calls = re.findall(r"\b(?:_|gettext|ngettext)\(", source)
        found = literal.findall(source)
        assert len(calls) == len(found), f'{name}: only _("literal") is extracted'
        words.update(a or b for a, b in found)
    assert len(words) > 50
    for lang in ("es", "de"):
        po = polib.pofile(str(TEMPLATES.parents[1] / "locale" / lang / "LC_MESSAGES" / "django.po"))
        translated = {e.msgid for e in po if e.msgstr and not e.obsolete and "fuzzy" not in e.flags}
        assert not words - translated, f"{lang} lacks {sorted(words - translated)}"
        # makemessages reads the templates where they are (.ci/i18n)
        assert any(o[0].startswith("games/jinja2/games/board") for e in po for o in e.occurrences)


def test_kept_tiles_and_links_follow_the_language_and_the_script_prefix():
    """games/board/jinja_env.py keeps each tile's drawing and each link once made: a tile's
    spoken label stays in the language it is drawn in, a link under the prefix it is
    served under (a site mounted below "/"), and both are exactly what Django gives."""
    from django.urls import reverse, set_script_prefix
    from markupsafe import Markup

    from games.board import jinja_env
    from games.templatetags import tiles

    drawn = {}
    for language in ("en", "de", "en"):
        with translation.override(language):
            drawn[language] = jinja_env.tile((6, 4))
            assert isinstance(drawn[language], Markup)
            assert drawn[language] == tiles.tile((6, 4))
            assert jinja_env.tile((6, 4), decorative=True) == tiles.tile((6, 4), decorative=True)
    assert drawn["en"] != drawn["de"]
    assert jinja_env.url("games:rules") == reverse("games:rules") == "/rules/"
    set_script_prefix("/dominoes/")
    try:
        assert jinja_env.url("games:rules") == reverse("games:rules") == "/dominoes/rules/"
    finally:
        set_script_prefix("/")
