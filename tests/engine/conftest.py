"""Engine tests: pure Python, no Django, no database.

Helpers sit beside the tests (`engine_helpers`: fixed deals, action strings, the
replay command; `scenario_check`: check.py's comparison) and are imported relatively.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent

SCENARIOS = sorted((HERE / "scenarios").glob("*.json"))


def load_scenario(path: Path) -> dict[str, Any]:
    with open(path, encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


@pytest.fixture(scope="session")
def scenarios() -> dict[str, dict[str, Any]]:
    """Every scenario file copied from shared/scenarios, by file stem."""
    return {p.stem: load_scenario(p) for p in SCENARIOS}
