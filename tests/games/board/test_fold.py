"""The board templates' indentation is folded as they load (games.board.jinja_env.fold), not
at every render: every part says what it said when its output was folded at each render
(a run of blanks holding a line break made one line break), the same words and tags with
a blank in the same places (HTML shows any run of blanks as one), and holds no indentation.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.template import engines
from django.utils import translation
from jinja2 import Environment
from markupsafe import Markup

from engine.views import view
from games.board import jinja_env, parts
from games.board.jinja_env import fold
from games.board.presenter import Flags, present
from games.board.viewer import Viewer
from tests.games.board import states as S
from tests.games.table.snapshots import pages

#: what each render did before: a run of blanks holding a line break made one line break
INDENT = re.compile(r"[ \t]*\n\s*")
BLANKS = re.compile(r"\s+")


def unfolded() -> Environment:
    """The board's environment without the folding at load time (the templates as written)."""
    env: Environment = engines["jinja2"].env  # type: ignore[attr-defined]
    plain = env.overlay()
    plain.extensions = {
        name: ext
        for name, ext in env.extensions.items()
        if not isinstance(ext, jinja_env.FoldIndent)
    }
    plain.cache = None  # its templates compiled apart from the folded ones
    return plain


def boards() -> list[Any]:
    out = [
        present(v, seats, viewer=viewer, flags=flags)
        for v, seats, viewer, flags in pages().values()
    ]
    for players in (2, 7):
        st = S.mid_game(players)
        for seat in (None, st.turn):
            controlled = (seat,) if seat is not None else ()
            flags = Flags(version=3, undo=True, redo=True, restart=True, may_pace=seat is not None)
            out.append(
                present(
                    view(st, seat),
                    S.seats(players, {1: "computer"}),
                    viewer=Viewer(controlled=controlled),
                    flags=flags,
                )
            )
    return out


@pytest.mark.parametrize("language", ["en", "es", "de"])
def test_every_part_says_what_folding_each_render_made_and_holds_no_indentation(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = unfolded()

    def before(name: str, **context: Any) -> Markup:
        return Markup(INDENT.sub("\n", plain.get_template(name).render(context).strip()))

    with translation.override(language), jinja_env.fixed_language():
        for board in boards():
            now = parts.page(board, parts.shared_parts(_public(board)))
            monkeypatch.setattr(parts, "render", before)
            then = parts.page(board, parts.shared_parts(_public(board)))
            monkeypatch.undo()
            assert now.parts.keys() == then.parts.keys()
            for name, html in [*now.parts.items(), ("page", now.html())]:
                was = then.parts[name] if name != "page" else then.html()
                assert BLANKS.sub(" ", html) == BLANKS.sub(" ", was), name
                assert not re.search(r"[ \t]\n|\n[ \t]", html), name


def _public(board: Any) -> Any:
    from games.board.presenter import present_public

    view_, seats, flags = board.source
    return present_public(view_, seats, flags)


def test_fold_leaves_tags_and_their_words_as_written() -> None:
    source = (
        "<ul>\n  {% if x %}\n    <li>{{ _('Two\n  lines') }}</li>\n  {% endif %}\n"
        "  {# a comment\n  #}\n</ul>\n<p>{% if y %}a{% endif %}\n  b</p>\n"
    )
    assert fold(source) == (
        "<ul>\n{% if x %}<li>{{ _('Two\n  lines') }}</li>\n{% endif %}{# a comment\n  #}</ul>\n"
        "<p>{% if y %}a{% endif %}\nb</p>\n"
    )
