"""The root of games/ stays small enough to take in at a glance: at most 12 modules (``.py``
files directly in games/, ``__init__.py`` included). What grows past that is grouped into a
package named for what it holds, as reads/ (selectors, queries, seats), lobby/ (the pages
around the table), attendance/ (presence, stand-ins), processes/ (servers, trace) and words/
were; packages (games/table/, games/models/, …) do not count, only their own directories.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 12


def root_modules(root: Path = ROOT) -> list[str]:
    """The modules directly in games/, by file name."""
    return sorted(p.name for p in (root / "games").glob("*.py"))


def test_the_games_root_holds_at_most_12_modules() -> None:
    found = root_modules()
    assert len(found) <= LIMIT, f"{len(found)} modules in games/: {', '.join(found)}"


def test_the_count_sees_modules_not_packages(tmp_path: Path) -> None:
    """A file directly in games/ counts; a package's __init__.py, its modules and files that
    are not Python do not."""
    for name in ("__init__.py", "urls.py", "reads/__init__.py", "reads/seats.py", "notes.md"):
        (tmp_path / "games" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "games" / name).write_text("")
    assert root_modules(tmp_path) == ["__init__.py", "urls.py"]
