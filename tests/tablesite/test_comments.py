"""Comments and docstrings say what the code does and why, in words that stay true: none
points at a tracker's issue by number ("issue 12", "#12 in the tracker"), which a reader of
the code cannot open and which stops being true once the issue is closed.

Scanned: the site's code, its tests and benchmarks, its scripts and templates, its styles and
its documents for maintainers (every text file under those folders, vendored libraries and this scan's own examples aside).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("engine", "games", "accounts", "tablesite", "tests", "bench", "static", "templates")
SUFFIXES = {".py", ".js", ".css", ".html", ".md", ".txt", ".sh", ".toml"}
#: "issue 12", "Issue #12", "issues 28 and 29", "task 7": a number that names a tracker's entry
NUMBERED = re.compile(r"\b(?:issues?|tasks?)\s*#?\d+", re.IGNORECASE)
#: copies of other projects' files, kept as they were published
VENDORED = "vendor"


def numbered_mentions(root: Path = ROOT) -> list[str]:
    found = []
    files = [root / "README.md", *(root / "docs").rglob("*.md")]
    for folder in FOLDERS:
        files += [p for p in (root / folder).rglob("*") if p.suffix in SUFFIXES]
    for path in files:
        if VENDORED in path.parts or not path.is_file() or path == Path(__file__).resolve():
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if NUMBERED.search(line):
                found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    return found


def test_no_comment_names_an_issue_by_its_number() -> None:
    assert numbered_mentions() == []


def test_the_scan_finds_a_numbered_issue(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "m.py").write_text("x = 1  # fixed for issue 12\ny = 2  # an issue\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("As Issue #7 asked.\n")
    (tmp_path / "README.md").write_text("Tasks 3 and 4.\n")
    assert numbered_mentions(tmp_path) == [
        "README.md:1: Tasks 3 and 4.",
        "docs/a.md:1: As Issue #7 asked.",
        "games/m.py:1: x = 1  # fixed for issue 12",
    ]
