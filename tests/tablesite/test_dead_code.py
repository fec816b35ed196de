"""No dead code in the site's read and render modules: every public function of
games/reads/selectors.py, games/board/parts.py, games/board/draw.py and games/table/board.py
is used by the site (games/, accounts/, tablesite/, bench/, templates), not only by the
tests. What only the tests need lives under tests/ (tests/reads.py, tests/frames.py).

Uses are read with `ast` (a name or an attribute, an imported name), so a mention in a
docstring does not keep a function alive.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECKED = (
    "games/reads/selectors.py",
    "games/board/parts.py",
    "games/board/draw.py",
    "games/table/board.py",
)
SITE = ("games", "accounts", "tablesite", "bench")


def public_functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and not node.name.startswith("_")
    }


def names_used(path: Path) -> set[str]:
    """The names `path` reads or imports (its own definitions are not uses)."""
    used: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Name):
            used.add(node.id)
        elif isinstance(node, ast.Attribute):
            used.add(node.attr)
        elif isinstance(node, ast.ImportFrom):
            used.update(alias.name for alias in node.names)
    return used


def unused(root: Path = ROOT) -> list[str]:
    used: set[str] = set()
    for package in SITE:
        for path in (root / package).rglob("*.py"):
            if "migrations" not in path.parts:
                used |= names_used(path)
    templates = (
        " ".join(p.read_text() for p in (root / "templates").rglob("*.html"))
        if (root / "templates").exists()
        else ""
    )
    return sorted(
        f"{module}: {name}"
        for module in CHECKED
        for name in public_functions(root / module)
        if name not in used and name not in templates
    )


def test_every_public_read_and_render_function_is_used_by_the_site() -> None:
    assert unused() == []


def test_a_function_only_the_tests_use_is_found(tmp_path: Path) -> None:
    for module in CHECKED:
        (tmp_path / module).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / module).write_text("")
    (tmp_path / "games/reads/selectors.py").write_text(
        '"""`match_log` is mentioned here."""\n'
        "def match_state(m):\n    return m\n"
        "def match_log(m):\n    return []\n"
    )
    (tmp_path / "games/lobby").mkdir()
    (tmp_path / "games/lobby/views.py").write_text(
        "from games.reads import selectors\nselectors.match_state(1)\n"
    )
    assert unused(tmp_path) == ["games/reads/selectors.py: match_log"]
