"""One home for words: no module outside the words modules says a sentence of its own.

Players read each sentence from one place, the words modules: every ``words.py``
(games/board/, games/table/, games/commands/, games/log/, games/history/, games/chat/,
accounts/) and the words package games/words/ (the refusals and the site's sentences by key,
the rules page's text), and a feature's own module for what only that feature says, in its ``WORDS`` (a
module of games/table/commands/: its refusals, its offer, its log line, the change it asks
of the others, as games/table/commands/play_again.py and last_round.py). Services raise reason
codes (games/errors.py) with a sentence by key (games/words/__init__.py `sentence`,
accounts/words.py); views, consumers, forms, permissions, the admin and the protocol take
theirs from the words modules too.

The scan reads every module of games/, accounts/ and tablesite/ (not migrations, not the
words modules) with `ast` and fails on a gettext call (`_`, `gettext`, `gettext_lazy`,
`ngettext`, `pgettext` … by the message, not the context) whose message is a literal
sentence (two words or more ending in . ! ? … or :). Labels ("Hint:", "15 minutes") and
model choice labels are not sentences. At most 20 sentences are said outside, each listed
with why: in `STAYS`, those that belong where they are (a model field's help text, which
Django's admin shows beside its field; the confirmation e-mail, see there), and in
`PENDING`, the table's board's and presenter's, which move to games/board/words.py with
those modules' rewrite. A new sentence anywhere else fails the test.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from accounts import words as account_words
from engine import tiles
from games import words
from games.chat import words as chat_words
from games.commands import words as command_words
from games.table import words as table_words

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
    "npgettext_lazy",
}
#: the gettext functions whose first argument is a context, their message the second
CONTEXT_FIRST = {"pgettext", "pgettext_lazy", "npgettext", "npgettext_lazy"}
#: sentences that stay outside the words modules, by module: {sentence: why it stays}
STAYS: dict[str, dict[str, str]] = {
    "games/models/matches.py": {
        "The deal of each round is a function of the seed and the round's engine double.": (
            "a model field's help text, which Django's admin shows beside its field"
        ),
    },
    "accounts/emails.py": {
        "Hello %(name)s,\n\nto confirm that %(address)s is your e-mail address, open this link "
        "while signed in (it works for %(days)s days):\n%(url)s\n\n"
        "If you did not ask for this, ignore this e-mail: nothing changes.\n": (
            "the confirmation e-mail, written where it is sent: accounts/words.py reads this "
            "module's Delivery and Outcome, so importing it here would close an import circle"
        ),
    },
}
#: sentences of modules being rewritten (the table's board and presenter): they move to
#: games/board/words.py with that rewrite, and no new one may join them
PENDING: dict[str, set[str]] = {
    "games/table/board.py": {
        "%(name)s restarted the round: every hand is back as it was dealt.",
        "Answers close at %(time)s.",
    },
    "games/board/presenter/hand.py": {
        "You placed %(count)s tile on your train.",
        "The double %(tile)s stays open at its end; it must be satisfied once the first turns "
        "are over.",
    },
    "games/board/presenter/__init__.py": {
        "%(name)s's turn.",
        "Place %(tile)s in the centre?",
        "Your turn: confirm the engine double, or tap a lit tile: that places it and starts "
        "your train.",
        "Your turn: none of your tiles can start your train, so confirming the engine double "
        "also passes.",
        "Nobody was dealt the %(tile)s, so everyone drew one tile at a time until %(name)s drew "
        "it. The %(count)s tile drawn went into the hands.",
    },
}


def is_sentence(text: str) -> bool:
    return len(text.split()) >= 2 and text.rstrip().endswith((".", "!", "?", "…", ":"))


#: where a feature's module lives: its ``WORDS`` is a words home (games/table/commands/)
FEATURES = "games/table/commands"


def feature_words(tree: ast.Module) -> set[ast.AST]:
    """The nodes of a feature module's top-level ``WORDS = {...}`` (its words home)."""
    inside: set[ast.AST] = set()
    for statement in tree.body:
        target = (
            statement.targets[0]
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1
            else statement.target
            if isinstance(statement, ast.AnnAssign)
            else None
        )
        if isinstance(target, ast.Name) and target.id == "WORDS":
            inside.update(ast.walk(statement))
    return inside


def sentences_in(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """The literal sentences `path` passes to a gettext function, with their lines; in a
    feature's module, not those of its ``WORDS``."""
    found = []
    tree = ast.parse(path.read_text(), str(path))
    relative = path.relative_to(root).parent.as_posix() if path.is_relative_to(root) else ""
    home = feature_words(tree) if relative == FEATURES else set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or node in home:
            continue
        func = node.func
        name = (
            func.id
            if isinstance(func, ast.Name)
            else func.attr
            if isinstance(func, ast.Attribute)
            else ""
        )
        at = 1 if name in CONTEXT_FIRST else 0
        message = node.args[at] if len(node.args) > at else None
        if name in GETTEXT and isinstance(message, ast.Constant) and isinstance(message.value, str):
            if is_sentence(message.value):
                found.append((node.lineno, message.value))
    return sorted(found)


def is_words_home(path: Path, root: Path = ROOT) -> bool:
    """A ``words.py``, or a module of the words package games/words/."""
    return path.name == "words.py" or path.parent.relative_to(root).as_posix() == "games/words"


def scanned_modules(root: Path = ROOT) -> list[Path]:
    """Every module of games/, accounts/ and tablesite/ but migrations and words modules."""
    return sorted(
        p
        for package in ("games", "accounts", "tablesite")
        for p in (root / package).rglob("*.py")
        if "migrations" not in p.parts and not is_words_home(p, root)
    )


def sentences_outside() -> list[tuple[str, int, str]]:
    """Every literal sentence outside the words modules: (module, line, sentence)."""
    return [
        (str(path.relative_to(ROOT)), line, text)
        for path in scanned_modules()
        for line, text in sentences_in(path)
    ]


def test_no_module_outside_the_words_modules_says_a_sentence_of_its_own() -> None:
    found = [
        f"{name}:{line}: {text!r}"
        for name, line, text in sentences_outside()
        if text not in STAYS.get(name, {}) and text not in PENDING.get(name, set())
    ]
    assert found == []


def test_what_stays_outside_is_still_there_and_few() -> None:
    """Each sentence listed as staying is still where it is listed (a moved one leaves the
    list), and at most 20 sentences are said outside the words modules."""
    said = {(name, text) for name, _line, text in sentences_outside()}
    listed = {(name, text) for name, texts in STAYS.items() for text in texts}
    listed |= {(name, text) for name, texts in PENDING.items() for text in texts}
    assert listed - said == set()
    assert len(sentences_outside()) <= 20


def test_the_scan_finds_a_sentence_and_passes_words_by_key(tmp_path: Path) -> None:
    source = tmp_path / "services.py"
    source.write_text(
        "from django.utils.translation import gettext as _\n"
        "def f():\n"
        '    raise GameError("not_found", _("This match does not exist."))\n'
        "def g():\n"
        '    return sentence("no_such_match"), _("Hint:"), _("15 minutes")\n'
        'LAZY = gettext_lazy("Choose a seat, then play.")\n'
        'MENU = pgettext_lazy("a change asked.", "Undo"), pgettext("menu", "Pick one tile.")\n'
    )
    assert sentences_in(source) == [
        (3, "This match does not exist."),
        (6, "Choose a seat, then play."),
        (7, "Pick one tile."),
    ]


def test_a_features_words_are_its_home_and_nowhere_else(tmp_path: Path) -> None:
    """A feature module's ``WORDS`` is where its sentences live: the scan passes them there,
    and only there (the same dict in another module is scanned as any code)."""
    text = (
        "from django.utils.translation import gettext as _\n"
        'WORDS = {"left": lambda: _("You left the table.")}\n'
        'def f():\n    return _("Everyone left the table.")\n'
    )
    for name in (f"{FEATURES}/feature.py", "games/services/feature.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert sentences_in(tmp_path / f"{FEATURES}/feature.py", tmp_path) == [
        (4, "Everyone left the table.")
    ]
    assert [t for _l, t in sentences_in(tmp_path / "games/services/feature.py", tmp_path)] == [
        "You left the table.",
        "Everyone left the table.",
    ]


def features_words() -> dict[str, dict[str, Any]]:
    """Each feature module's ``WORDS`` by module name."""
    return {
        name: module.WORDS
        for name, module in (
            (info.name, importlib.import_module(f"games.table.commands.{info.name}"))
            for info in pkgutil.iter_modules([str(ROOT / FEATURES)])
        )
        if hasattr(module, "WORDS")
    }


def test_a_features_words_are_said_by_its_module_alone() -> None:
    """No words module keeps a sentence a feature's ``WORDS`` says: one home each."""
    elsewhere: set[str] = set()
    for path in (ROOT / p for p in ("games", "accounts")):
        for module in path.rglob("*.py"):
            if is_words_home(module):
                tree = ast.parse(module.read_text())
                elsewhere |= {
                    n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and is_text(n)
                }
    assert features_words(), "no feature module declares its WORDS"
    with translation.override("en"):
        for name, said in features_words().items():
            assert {str(text) for text in said.values()} & elsewhere == set(), name


@pytest.mark.parametrize("language", ["es", "de"])
def test_every_features_words_are_translated(language: str) -> None:
    for name, said in features_words().items():
        for key, text in said.items():
            with translation.override("en"):
                english = said_with_facts(text)
            with translation.override(language):
                assert said_with_facts(text) != english, (language, name, key)


class Facts(dict[str, object]):
    """Any fact a sentence names, as 2 (a count picks its plural form by it)."""

    def __missing__(self, key: str) -> object:
        return 2


def said_with_facts(text: Any) -> str:
    """`text` said, its facts filled in when it names any."""
    return str(text % Facts()) if "%(" in str(text) or not str(text) else str(text)


def is_text(node: ast.Constant) -> bool:
    return isinstance(node.value, str) and len(node.value.split()) >= 2


def test_every_module_but_migrations_and_words_is_scanned(tmp_path: Path) -> None:
    names = (
        "games/services/moves.py",
        "games/lobby/forms.py",
        "games/table/commands/undo.py",
        "games/migrations/0001_initial.py",
        "games/words/__init__.py",
        "games/table/words.py",
        "games/words/rules.py",
        "games/words/consent.py",
        "accounts/names.py",
        "tablesite/edge.py",
        "engine/rules.py",
    )
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    assert [str(p.relative_to(tmp_path)) for p in scanned_modules(tmp_path)] == [
        "accounts/names.py",
        "games/lobby/forms.py",
        "games/services/moves.py",
        "games/table/commands/undo.py",
        "tablesite/edge.py",
    ]
    assert ROOT / "games/admin/__init__.py" in scanned_modules()


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


def lazy_words_by_key() -> dict[str, str]:
    """The words modules' keyed lazy words, said in the active language."""
    keyed: dict[str, object] = {
        **{f"form.{k}": v for k, v in words.FORM.items()},
        **{f"search.{k}": v for k, v in words.SEARCH_HELP.items()},
        **{f"frame.{k}": v for k, v in table_words.FRAME.items()},
        **{f"field.{k}": v for k, v in command_words.FIELD.items()},
        **{f"chat_field.{k}": v for k, v in chat_words.FIELD.items()},
        # a tip may say the match's length and first double (games.lobby.learn puts them in)
        **{
            f"tip.{tip}": text % {"rounds": 13, "first": 12}
            for tip, (_title, text) in words.TIP_WORDS.items()
        },
    }
    return {key: str(text) for key, text in keyed.items()}


@pytest.mark.parametrize("language", ["es", "de"])
def test_every_lazy_sentence_by_key_is_translated(language: str) -> None:
    """The create form's, the admin's search boxes', the protocol's and the tips' words read
    in the reader's language (a feature's: `test_every_features_words_are_translated`)."""
    with translation.override("en"):
        english = lazy_words_by_key()
    with translation.override(language):
        said = lazy_words_by_key()
    assert [key for key, text in said.items() if text == english[key]] == []


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
                    and name != "games/words/__init__.py"
                ):
                    seat_words.append(f"{name}:{node.lineno}")
            if spelling.search(path.read_text()) and name != "engine/tiles.py":
                spellers.append(name)
    assert seat_words == [] and spellers == []
    assert tiles.spoken((3, 6)) == tiles.spoken([6, 3]) == "6-3"
    with translation.override("en"):
        assert words.seat_number(2) == "Seat 3" and words.seat_label("ana", 1) == "ana (seat 2)"
        assert words.seat_label("", 1) == "Seat 2"
