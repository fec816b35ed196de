"""The house's layers (design.md): no import circle among the domain's modules,
and a wing (games/table, games/history, games/chat) never imported by the root or the
engine, nor by another wing but through a door (`DOORS`).

Imports are read from the source with `ast`: at module level and inside functions alike
(a function-level import is still a dependency, only a hidden one); an import under
``if TYPE_CHECKING:`` is for type checkers only and never runs, so it does not count. A
string that is a site module's dotted path, or a path to something in one (what
``import_string`` or a setting would load), counts as importing that module: code run by
name is still a dependency.

What two wings share moves to the root instead: the board's drawing (presenter, parts,
templates' environment, words) is games/board/, which the live table and the replay
(games/history/boards.py) both import, so history never imports the table. Table talk rides
the table's websocket and shows under the replay through no door: the chat wing registers its
commands in the root's registry (games/commands/), what each connection keeps for them as a
connection extension (games/commands/extensions.py), and its part of the replay page as a
template tag (``{% load chat %}``: a template naming a tag library is not a Python import).
The settings naming the apps are wiring, not imports. No door is left; `DOORS` is where one
would be named, with why.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "games", "accounts", "tablesite")
WINGS = ("games.table", "games.history", "games.chat")
#: importer module -> the wing modules it may import (see the module docstring): none today
DOORS: dict[str, set[str]] = {}


#: a string naming something by its dotted path (``"games.table.commands.undo.handle"``)
DOTTED = re.compile(r"(?:{})(?:\.[A-Za-z_]\w*)+".format("|".join(PACKAGES)))


#: the settings name what Django loads (the ASGI application, the apps): wiring, not code the
#: settings module runs
SETTINGS = "tablesite.settings"


def modules(root: Path = ROOT) -> dict[str, tuple[Path, bool]]:
    """Every module of the site's packages (migrations aside): name -> (file, is a package)."""
    found: dict[str, tuple[Path, bool]] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(root).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts.pop()
            found[".".join(parts)] = (path, is_package)
    return found


def imported(name: str, path: Path, is_package: bool, known: set[str]) -> set[str]:
    """The site modules `name` imports anywhere in its file (`from a import b` counts as
    importing `a.b` when that is a module, else `a`)."""
    base = name.split(".") if is_package else name.split(".")[:-1]
    found: set[str] = set()
    tree = ast.parse(path.read_text(), str(path))
    for block in ast.walk(tree):  # imports for type checkers only never run: not a dependency
        if isinstance(block, ast.If) and ast.unparse(block.test) in (
            "TYPE_CHECKING",
            "typing.TYPE_CHECKING",
        ):
            block.body = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                prefix = base[: len(base) - node.level + 1]
                module = ".".join([*prefix, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            submodules = {f"{module}.{alias.name}" for alias in node.names} & known
            found.update(submodules or {module})
    docstrings = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    for node in ast.walk(tree) if name != SETTINGS else ():
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and DOTTED.fullmatch(node.value)
        ):
            path = node.value
            while path and path not in known:  # a module, or something in one
                path = path.rpartition(".")[0]
            if path:
                found.add(path)
    return {m for m in found if m.split(".")[0] in PACKAGES}


def graph(root: Path = ROOT) -> dict[str, set[str]]:
    known = modules(root)
    names = set(known)
    return {
        name: imported(name, path, is_package, names) - {name}
        for name, (path, is_package) in known.items()
    }


def wing_of(module: str) -> str | None:
    return next((w for w in WINGS if module == w or module.startswith(w + ".")), None)


def layer_breaches(edges: dict[str, set[str]]) -> Iterator[str]:
    """Imports of a wing from outside it: by the root or the engine, or by another wing
    (through no door). tablesite (the project: settings, URLs, ASGI) puts the wings together."""
    for importer, targets in sorted(edges.items()):
        if importer.startswith("tablesite"):
            continue
        for target in sorted(targets):
            wing = wing_of(target)
            if wing is None or wing == wing_of(importer):
                continue
            if target in DOORS.get(importer, set()):
                continue
            yield f"{importer} imports {target}"


def circles(edges: dict[str, set[str]], within: str) -> list[list[str]]:
    """The import circles (strongly connected groups of 2+ modules) among the modules
    whose names start with `within`."""
    nodes = {m for m in edges if m.startswith(within)}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges[v] & nodes):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return found


def test_no_wing_is_imported_by_the_root_the_engine_or_another_wing() -> None:
    assert list(layer_breaches(graph())) == []


def test_no_circle_among_the_site_modules() -> None:
    """Among games' root modules, inside each wing, in the engine and in accounts (the
    wings cannot close a circle with the root: the root never imports them)."""
    edges = graph()
    for package in ("games.", "engine", "accounts", "tablesite"):
        assert circles(edges, package) == []


def test_the_scan_sees_function_level_imports_circles_and_breaches(tmp_path: Path) -> None:
    """The checks above can fail: a root module importing a wing inside a function, two
    root modules importing each other and a wing importing another are all caught (and a
    type-only import is not)."""
    (tmp_path / "games" / "table").mkdir(parents=True)
    (tmp_path / "games" / "history").mkdir()
    for package in ("games", "games/table", "games/history"):
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "games" / "notify.py").write_text("def f():\n    from games import worker\n")
    (tmp_path / "games" / "worker.py").write_text("from . import notify\n")
    (tmp_path / "games" / "views.py").write_text("def v():\n    from games.table import board\n")
    (tmp_path / "games" / "table" / "board.py").write_text("")
    (tmp_path / "games" / "history" / "stats.py").write_text("from ..table.board import x\n")
    # a type-only import back does not close a circle: quick -> log runs, log -> quick does not
    (tmp_path / "games" / "log.py").write_text("if TYPE_CHECKING:\n    from games.quick import y\n")
    (tmp_path / "games" / "quick.py").write_text("from games import log\n")
    # code run by name: a dotted path to a function counts, the same words in a docstring not
    (tmp_path / "games" / "consent.py").write_text(
        '"""Calls games.forms.f."""\nDONE = "games.table.board.done"\n'
    )
    (tmp_path / "games" / "forms.py").write_text('"""games.consent"""\n')
    (tmp_path / "games" / "seats.py").write_text('KIND = "games.charts.x"\n')
    (tmp_path / "games" / "charts.py").write_text("from games import seats\n")
    edges = graph(tmp_path)
    assert circles(edges, "games.") == [
        ["games.charts", "games.seats"],
        ["games.notify", "games.worker"],
    ]
    assert list(layer_breaches(edges)) == [
        "games.consent imports games.table.board",
        "games.history.stats imports games.table.board",
        "games.views imports games.table.board",
    ]


def test_the_services_kernel_imports_none_of_the_services_modules() -> None:
    """games/services/ is a store kernel and a module per noun: each noun module
    imports the kernel, and the kernel none of them (nor the package, which imports them)."""
    edges = graph()
    nouns = {m for m in edges if m.startswith("games.services.")} - {"games.services.store"}
    assert nouns and all("games.services.store" in edges[m] for m in nouns)
    assert not {m for m in edges["games.services.store"] if m.startswith("games.services")}
