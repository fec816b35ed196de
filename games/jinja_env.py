"""The Jinja2 environment of the board templates (``games/jinja2/games/board.html`` and
``games/jinja2/games/board/*.html``), named in ``settings.TEMPLATES``.

The board is re-rendered for every connection after every move (games/board.py),
so it uses Jinja2, which renders it about three times faster than Django's engine; the
pages around it stay Django templates. What the templates may call:

- ``_("…")`` / ``gettext`` / ``ngettext``: Django's translations in the active
  language. Write ``{{ _("literal") }}``: `makemessages` (.ci/i18n) extracts that
  form from any ``.html`` file; a string with placeholders is translated and filled
  in games/board.py instead (``gettext(...) % {...}``), as extraction sees only the
  literal form. The translated text is escaped, as ``{% translate %}`` does; as
  Jinja's "newstyle" gettext applies ``%`` to every message, a literal per cent
  sign in a template's msgid would have to be written ``%%``.
- ``tile(t, vertical=, label=, decorative=, css=)``, ``tile_back(...)``,
  ``tile_defs()``: the dominoes of games/templatetags/tiles.py (the same SVG; a
  board draws dozens of tiles, so each drawing is kept once made).
- ``url(name, *args, **kwargs)``: ``django.urls.reverse``, like ``{% url %}``.

Autoescaping is on: names and every other string from users are escaped. An
undefined name or attribute is an error (StrictUndefined) rather than blank output,
so a typo in a template fails its tests instead of silently dropping a part of the board.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from django.urls import reverse
from django.utils import translation
from django.utils.autoreload import file_changed
from jinja2 import Environment, StrictUndefined
from markupsafe import Markup, escape

from games.templatetags import tiles


@lru_cache(maxsize=2048)
def _translated(language: str | None, message: str) -> Markup:
    return escape(translation.gettext(message))  # `language` is the active one


def _gettext(message: str) -> Markup:
    # A board asks for some forty words; looking each up in the catalogues costs more
    # than the rest of its template, so each is kept once translated and escaped.
    return _translated(translation.get_language(), message)


def _forget_translations(sender: Any, file_path: Path, **kwargs: Any) -> None:
    """The development server reloads a changed .mo without restarting: so do we."""
    if file_path.suffix == ".mo":
        _translated.cache_clear()


file_changed.connect(_forget_translations)


def _ngettext(singular: str, plural: str, number: int) -> Markup:
    return escape(translation.ngettext(singular, plural, number))


#: tiles.tile for given arguments; a label given is part of the key, so no language is mixed up
_drawn = lru_cache(maxsize=4096)(tiles.tile)


def tile(value: Any, vertical: bool = False, label: str | None = None, decorative: bool = False,
         css: str = "") -> str:
    """``{% tile %}`` of games/templatetags/tiles.py, for the board's Jinja2 templates."""
    if decorative:
        label = ""  # hidden from screen readers: no accessible name is worked out
    elif label is None:
        # "Tile 6-4" in the active language: left to tiles.tile, whose SVG cache is per label
        return tiles.tile(value, vertical, None, False, css)
    if not isinstance(value, tuple):
        return tiles.tile(value, vertical, label, decorative, css)
    return _drawn(value, vertical, label, decorative, css)


def url(name: str, *args: Any, **kwargs: Any) -> str:
    return reverse(name, args=args or None, kwargs=kwargs or None)


def environment(**options: Any) -> Environment:
    """The environment Django's Jinja2 backend builds from ``TEMPLATES[...]["OPTIONS"]``."""
    options["undefined"] = StrictUndefined
    # Included templates end with a newline, as Django's include keeps it.
    options.setdefault("keep_trailing_newline", True)
    env = Environment(extensions=["jinja2.ext.i18n"], **options)
    # Escaped here, then taken as safe markup by Jinja (see the module docstring).
    env.install_gettext_callables(_gettext, _ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(tile=tile, tile_back=tiles.tile_back, tile_defs=tiles.tile_defs, url=url)
    return env
