"""Engine tests: pure Python, no Django, no database.

The helper modules (`engine_helpers`, `scenario_check`) sit beside the tests; this
makes them importable whatever pytest's import mode, and makes the repository root
importable for `engine` when pytest runs without the project's `pythonpath`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
for p in (str(HERE), str(HERE.parents[1])):
    if p not in sys.path:
        sys.path.insert(0, p)

SCENARIOS = sorted((HERE / "scenarios").glob("*.json"))


def load_scenario(path: Path) -> dict[str, Any]:
    with open(path, encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


@pytest.fixture(scope="session")
def scenarios() -> dict[str, dict[str, Any]]:
    """Every scenario file copied from shared/scenarios, by file stem."""
    return {p.stem: load_scenario(p) for p in SCENARIOS}
