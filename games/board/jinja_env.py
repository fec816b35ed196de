"""The Jinja2 environment of the board templates (``games/jinja2/games/board.html`` and
``games/jinja2/games/board/*.html``), named in ``settings.TEMPLATES``.

The board is re-rendered for every connection after every move (games/board/draw.py),
so it uses Jinja2, which renders it about three times faster than Django's engine; the
pages around it stay Django templates. What the templates may call:

- ``_("…")``: Django's translation in the active language, escaped as
  ``{% translate %}`` escapes it. Write ``{{ _("literal") }}``: `makemessages`
  (.ci/i18n) extracts that form from any ``.html`` file; a string with placeholders
  is translated and filled in games/board/words.py instead (``gettext(...) % {...}``), as
  extraction sees only the literal form. ``_`` is a plain function, not the i18n
  extension's "newstyle" one, which cost the board a sixth of its rendering (it
  formats every message with ``%`` and marks it safe again); so a per cent sign in a
  template's msgid is just that. ``gettext`` / ``ngettext`` are the extension's.
- ``tile(t, vertical=, label=, decorative=, css=)``, ``tile_back(...)``,
  ``tile_defs()``: the dominoes of games/templatetags/tiles.py (the same SVG; a
  board draws dozens of tiles, so each drawing is kept once made).
- ``url(name, *args, **kwargs)``: ``django.urls.reverse``, like ``{% url %}``.

Autoescaping is on: names and every other string from users are escaped. An
undefined name or attribute is an error (StrictUndefined) rather than blank output,
so a typo in a template fails its tests instead of silently dropping a part of the board.

The templates' indentation is folded as they are loaded (`FoldIndent`, `fold`): each run of
blanks holding a line break in their text becomes one line break, and a line holding only
statements or comments leaves no line break of its own. A board's parts are sent over the
websocket whenever they change, as line edits (games.board.parts): every element on a line
of its own, no indentation, and no work on the text at each render. A macro's or an
included template's own line breaks stay, so a part may hold an empty line where one ends
a line (HTML shows any run of blanks as one: tests/games/board/test_fold.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import translation
from django.utils.autoreload import file_changed
from jinja2 import Environment, StrictUndefined
from jinja2.ext import Extension
from markupsafe import Markup, escape

from games.templatetags import tiles

T = TypeVar("T")

#: The language a board is being presented and rendered in (`fixed_language`): asking
#: Django (`translation.get_language`, an asgiref Local) for each of a board's hundred
#: or so words cost more than a twentieth of the board.
_language: ContextVar[str | None] = ContextVar("board_language", default=None)


@contextmanager
def fixed_language() -> Iterator[None]:
    """Within: `_gettext`, `text` and `ntext` take the active language as it is now."""
    token = _language.set(translation.get_language())
    try:
        yield
    finally:
        _language.reset(token)


def active_language() -> str | None:
    """The active language (as fixed by `fixed_language`, if within)."""
    language = _language.get()
    return translation.get_language() if language is None else language


@lru_cache(maxsize=4096)
def _translated_text(language: str | None, message: str) -> str:
    return translation.gettext(message)  # `language` is the active one


@lru_cache(maxsize=2048)
def _translated(language: str | None, message: str) -> Markup:
    return escape(_translated_text(language, message))


@lru_cache(maxsize=4096)
def _translated_plural(language: str | None, singular: str, plural: str, number: int) -> str:
    return translation.ngettext(singular, plural, number)


def _gettext(message: str) -> Markup:
    # A board asks for some forty words; looking each up in the catalogues costs more
    # than the rest of its template, so each is kept once translated and escaped.
    return _translated(active_language(), message)


def text(message: str) -> str:
    """``gettext(message)``, kept once translated (games/board/words.py's words; not escaped)."""
    return _translated_text(active_language(), message)


def ntext(singular: str, plural: str, number: int) -> str:
    """``ngettext(singular, plural, number)``, kept once translated (not escaped)."""
    return _translated_plural(active_language(), singular, plural, number)


#: the functions made with `per_language`
_PER_LANGUAGE: list[Any] = []


def per_language(make: Callable[..., T]) -> Callable[..., T]:
    """`make(language, *args)`, kept once made for each language and arguments (hashable): words
    that every board of every version shows alike, e.g. a command's offer. `language` is the
    active one (`active_language`); a changed .mo forgets them, as it does the words above."""
    kept = lru_cache(maxsize=256)(make)
    _PER_LANGUAGE.append(kept)
    return kept


def _forget_translations(sender: Any, file_path: Path, **kwargs: Any) -> None:
    """The development server reloads a changed .mo without restarting: so do we."""
    if file_path.suffix == ".mo":
        for kept in (_translated, _translated_text, _translated_plural, *_PER_LANGUAGE):
            kept.cache_clear()


file_changed.connect(_forget_translations)


def _ngettext(singular: str, plural: str, number: int) -> Markup:
    return escape(translation.ngettext(singular, plural, number))


@lru_cache(maxsize=4096)
def _drawn(
    language: str | None,
    value: tuple[int, int],
    vertical: bool,
    label: str | None,
    decorative: bool,
    css: str,
) -> Markup:
    """tiles.tile as Jinja's markup: a board draws dozens of tiles, and Jinja escapes a
    Django safe string (``__html__``) through Python calls each time it is output, but
    takes its own `Markup` as it is. `language` is the active one: a tile's default label
    ("Tile 6-4") is in it."""
    return Markup(tiles.tile(value, vertical, label, decorative, css))


def tile(
    value: Any,
    vertical: bool = False,
    label: str | None = None,
    decorative: bool = False,
    css: str = "",
) -> Markup:
    """``{% tile %}`` of games/templatetags/tiles.py, for the board's Jinja2 templates."""
    if decorative:
        label = ""  # hidden from screen readers: no accessible name is worked out
    if not isinstance(value, tuple):
        return Markup(tiles.tile(value, vertical, label, decorative, css))
    return _drawn(
        active_language() if label is None else None, value, vertical, label, decorative, css
    )


@lru_cache(maxsize=256)
def _reversed(
    prefix: str, urlconf: Any, name: str, args: tuple[Any, ...], kwargs: tuple[Any, ...]
) -> str:
    return reverse(
        name, args=args or None, kwargs=dict(kwargs) or None
    )  # for this prefix and urlconf


def url(name: str, *args: Any, **kwargs: Any) -> str:
    """``reverse(name, args, kwargs)``, kept once worked out (the board's links are a few
    fixed pages; each reverse walks the URL patterns)."""
    return _reversed(get_script_prefix(), get_urlconf(), name, args, tuple(sorted(kwargs.items())))


#: a template's tags and comments (left as they are) between its text (folded)
_TAG = re.compile(r"(\{%.*?%\}|\{\{.*?\}\}|\{#.*?#\})", re.S)
#: a run of blanks holding a line break: the templates' indentation
_INDENT = re.compile(r"[ \t]*\n\s*")
#: a tag that writes nothing where it stands (a statement or a comment); an ``include`` or a
#: ``call`` writes what it brings
_SILENT = re.compile(r"\{#|\{%[-+]?\s*(?!include\b|call\b)")


def fold(source: str) -> str:
    """`source` with its indentation folded, as the board's parts are sent: each run of blanks
    holding a line break in its text (not in its tags, whose string literals are the words'
    msgids) becomes one line break, and a line that holds only statements or comments leaves
    no line break behind (the one before it stands for both)."""
    pieces = _TAG.split(source)  # text, tag, text, …, text
    texts = [_INDENT.sub("\n", text) for text in pieces[::2]]
    folded = list(texts)
    last = len(texts) - 1
    tag = 0
    while tag < last:
        if not _SILENT.match(pieces[2 * tag + 1]):
            tag += 1
            continue
        # a run of silent tags with nothing between them, from `tag` to `end`
        end = tag
        while end + 1 < last and texts[end + 1] == "" and _SILENT.match(pieces[2 * end + 3]):
            end += 1
        if texts[tag].endswith("\n") and texts[end + 1].startswith("\n"):
            folded[end + 1] = folded[end + 1][1:]
        tag = end + 1
    pieces[::2] = folded
    return "".join(pieces)


class FoldIndent(Extension):
    """Every template's indentation folded once, as it is loaded (`fold`)."""

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        return fold(source)


def environment(**options: Any) -> Environment:
    """The environment Django's Jinja2 backend builds from ``TEMPLATES[...]["OPTIONS"]``."""
    options["undefined"] = StrictUndefined
    # Included templates end with a newline, as Django's include keeps it.
    options.setdefault("keep_trailing_newline", True)
    env = Environment(extensions=["jinja2.ext.i18n", FoldIndent], **options)
    # Escaped here, then taken as safe markup by Jinja (see the module docstring).
    env.install_gettext_callables(_gettext, _ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.globals["_"] = _gettext  # without the extension's formatting (see the module docstring)
    env.globals.update(tile=tile, tile_back=tiles.tile_back, tile_defs=tiles.tile_defs, url=url)
    return env
