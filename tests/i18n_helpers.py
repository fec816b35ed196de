"""Check that a page rendered in Spanish or German shows no English.

``english_leaks(html, "es")`` returns the English source strings (msgids of the
project's catalogues, plus any extra phrases given) that appear in the page's
visible text. Text inside an element whose ``lang`` differs from the page's
language (e.g. the language switcher's "English") is legitimately foreign and is
skipped, as are <script> and <style>. The game's name is a name, not an English
leak: German says "Mexican Train" (its "Zug" would read as a move; the glossary's
train is a "Bahn"), so `NAMES` are taken out of the text first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import polib

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

_VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}
_TEXT_ATTRS = ("aria-label", "title", "alt", "placeholder")


class _VisibleText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page_lang: str | None = None
        self.stack: list[tuple[str, bool]] = []  # (tag, skipped)
        self.parts: list[str] = []

    @property
    def skipping(self) -> bool:
        return any(skipped for _, skipped in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        lang = values.get("lang")
        if tag == "html":
            self.page_lang = (lang or "").split("-")[0] or None
        foreign = bool(lang) and tag != "html" and lang.split("-")[0] != self.page_lang
        skipped = tag in {"script", "style", "template"} or foreign
        if not self.skipping and not skipped:
            for name in _TEXT_ATTRS:
                if values.get(name):
                    self.parts.append(values[name] or "")
            if (
                tag == "input"
                and values.get("type") in {"submit", "button"}
                and values.get("value")
            ):
                self.parts.append(values["value"] or "")
        if tag not in _VOID:
            self.stack.append((tag, skipped))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID and self.stack:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _VisibleText()
    parser.feed(html)
    parser.close()
    return re.sub(r"\s+", " ", " ".join(parser.parts)).strip()


@cache
def catalogue_msgids(lang: str) -> tuple[str, ...]:
    """English source strings that the ``lang`` catalogue translates differently."""
    found: list[str] = []
    for po_path in sorted((LOCALE_DIR / lang / "LC_MESSAGES").glob("*.po")):
        for entry in polib.pofile(str(po_path)):
            if entry.obsolete or not entry.msgid:
                continue
            translations = (
                [entry.msgstr, *entry.msgstr_plural.values()]
                if entry.msgid_plural
                else [entry.msgstr]
            )
            if any(t and t != entry.msgid for t in translations):
                found.append(entry.msgid)
                if entry.msgid_plural:
                    found.append(entry.msgid_plural)
    return tuple(found)


_PLACEHOLDER = re.compile(r"(%\(\w+\)[sd]|%[sd]|\{\w*\})")


@cache
def _pattern(phrase: str) -> re.Pattern[str]:
    # Placeholders (%(name)s, %s, {name}) match anything. One at either end of the phrase
    # only asks for some text there (an unbounded ".+?" at the start made every search
    # quadratic in the page's length); one inside matches up to 200 characters.
    pieces = _PLACEHOLDER.split(phrase)
    last = len(pieces) - 2
    parts = []
    for i, piece in enumerate(pieces):
        if i % 2 == 0:
            parts.append(re.escape(piece))
        elif i == 1 and not pieces[0]:
            parts.append("(?<=.)")
        elif i == last and not pieces[-1]:
            parts.append("(?=.)")
        else:
            parts.append(".{1,200}?")
    left = r"(?<!\w)" if pieces[0] else ""
    right = r"(?!\w)" if pieces[-1] else ""
    return re.compile(left + "".join(parts) + right)


def _found(phrase: str, text: str) -> bool:
    # Cheap test first: every literal piece must occur somewhere (most phrases stop here).
    if not all(piece in text for piece in _PLACEHOLDER.split(phrase)[::2]):
        return False
    return _pattern(phrase).search(text) is not None


#: proper names that a translation may keep in English
NAMES = ("Mexican Train",)


def english_leaks(html: str, lang: str, extra: Iterable[str] = ()) -> list[str]:
    text = visible_text(html)
    for name in NAMES:
        text = text.replace(name, " ")
    return [phrase for phrase in (*catalogue_msgids(lang), *extra) if _found(phrase, text)]
