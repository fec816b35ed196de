"""One home for words: no service, consumer or view says a sentence of its own.

Services raise reason codes (games/errors.py) with a sentence by key from the words modules
(games/words.py `sentence`, accounts/words.py, games/history/words.py, games/table/words.py);
views and consumers show them. The scan reads each such module with `ast` and fails on a
gettext call (`_`, `gettext`, `gettext_lazy`, `ngettext` …) whose message is a literal
sentence (two words or more ending in . ! ? … or :). Labels ("Hint:", "15 minutes") are not
sentences; choice labels belong to the models and forms.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation

from accounts import words as account_words
from engine import tiles
from games import words

ROOT = Path(__file__).resolve().parents[2]
GETTEXT = {
    "_",
    "gettext",
    "gettext_lazy",
    "ngettext",
    "ngettext_lazy",
    "pgettext",
    "pgettext_lazy",
    "npgettext",
}
#: the modules that must not hold sentences: services, consumers, views, and the stand-ins'
#: and selectors' services
SCANNED = ("services.py", "consumers.py", "views.py", "standin.py", "selectors.py")
#: packages of services, every module of them scanned: games/services/
SCANNED_PACKAGES = ("services",)
#: games/table/consumers.py's sentences, left for the consumers' rewrite (the hub issue):
#: no new one may join them
PENDING: dict[str, set[str]] = {}


def is_sentence(text: str) -> bool:
    return len(text.split()) >= 2 and text.rstrip().endswith((".", "!", "?", "…", ":"))


def sentences_in(path: Path) -> list[tuple[int, str]]:
    """The literal sentences `path` passes to a gettext function, with their lines."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = (
            func.id
            if isinstance(func, ast.Name)
            else func.attr
            if isinstance(func, ast.Attribute)
            else ""
        )
        message = node.args[0] if node.args else None
        if name in GETTEXT and isinstance(message, ast.Constant) and isinstance(message.value, str):
            if is_sentence(message.value):
                found.append((node.lineno, message.value))
    return sorted(found)


def scanned_modules(root: Path = ROOT) -> list[Path]:
    return sorted(
        p
        for package in ("games", "accounts", "tablesite")
        for p in (root / package).rglob("*.py")
        if "migrations" not in p.parts
        and (p.name in SCANNED or p.name.endswith("_views.py") or p.parent.name in SCANNED_PACKAGES)
    )


def test_no_service_consumer_or_view_says_a_sentence_of_its_own() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text!r}"
        for path in scanned_modules()
        for line, text in sentences_in(path)
        if text not in PENDING.get(str(path.relative_to(ROOT)), set())
    ]
    assert found == []


def test_the_scan_finds_a_sentence_and_passes_words_by_key(tmp_path: Path) -> None:
    source = tmp_path / "services.py"
    source.write_text(
        "from django.utils.translation import gettext as _\n"
        "def f():\n"
        '    raise GameError("not_found", _("This match does not exist."))\n'
        "def g():\n"
        '    return sentence("no_such_match"), _("Hint:"), _("15 minutes")\n'
        'LAZY = gettext_lazy("Choose a seat, then play.")\n'
    )
    assert sentences_in(source) == [
        (3, "This match does not exist."),
        (6, "Choose a seat, then play."),
    ]


def test_every_module_of_the_services_package_is_scanned(tmp_path: Path) -> None:
    """games/services/ is a package (a kernel and a module per noun): each of its modules is
    scanned as games/services.py was, and a module elsewhere only by its name."""
    for name in ("games/services/__init__.py", "games/services/moves.py", "games/seats.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    assert [str(p.relative_to(tmp_path)) for p in scanned_modules(tmp_path)] == [
        "games/services/__init__.py",
        "games/services/moves.py",
    ]
    assert ROOT / "games/services/moves.py" in scanned_modules()


def test_each_sentence_is_said_once() -> None:
    """The same sentence is not kept under two keys (one home, one copy)."""
    for site in (words.SITE, account_words.SITE):
        with translation.override("en"):
            said = [make() for make in site.values()]
        assert len(said) == len(set(said))


@pytest.mark.parametrize("language", ["es", "de"])
def test_every_sentence_by_key_is_translated(language: str) -> None:
    for site in (words.SITE, account_words.SITE):
        for key, make in site.items():
            with translation.override("en"):
                english = make()
            with translation.override(language):
                assert make() != english, (language, key)


def test_a_sentence_takes_its_facts_by_name() -> None:
    with translation.override("en"):
        assert words.sentence("joined", id=7, number=2) == "You joined match 7 at seat 2."
        assert words.sentence("no_such_match") == "This match does not exist."


def test_one_seat_namer_and_one_tile_speller() -> None:
    """Seats are labelled by games.words (`seat_number`, `seat_label`, `seat_name`) and tiles
    spelled by engine.tiles.spoken alone: no other module words "Seat 3" or "ana (seat 2)",
    or writes a tile's higher number first itself."""
    labels = {"Seat %(number)s", "%(name)s (seat %(number)s)"}
    spelling = re.compile(r'f"\{(max|high)\b[^}]*\}-\{(min|low)\b')
    seat_words, spellers = [], []
    for package in ("engine", "games", "accounts", "tablesite"):
        for path in (ROOT / package).rglob("*.py"):
            name = str(path.relative_to(ROOT))
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if (
                    isinstance(node, ast.Call)
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and node.args[0].value in labels
                    and name != "games/words.py"
                ):
                    seat_words.append(f"{name}:{node.lineno}")
            if spelling.search(path.read_text()) and name != "engine/tiles.py":
                spellers.append(name)
    assert seat_words == [] and spellers == []
    assert tiles.spoken((3, 6)) == tiles.spoken([6, 3]) == "6-3"
    with translation.override("en"):
        assert words.seat_number(2) == "Seat 3" and words.seat_label("ana", 1) == "ana (seat 2)"
        assert words.seat_label("", 1) == "Seat 2"
