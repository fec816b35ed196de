"""Every shared scenario (copied into ./scenarios) passes, checkpoints included, both
through the command line (`python -m engine replay -`) and in-process (`run_replay`).

The comparison is check.py's: hands and legal as sets, tiles unordered in hands and
legal, train tiles kept as played.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.replay import run_replay

from .engine_helpers import replay_cmd
from .scenario_check import mismatches, prefix_doc, steps

SCENARIO_DIR = Path(__file__).resolve().parent / "scenarios"
FILES = sorted(SCENARIO_DIR.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    with open(path, encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


CASES = [
    pytest.param(
        path, after, expect, id=f"{path.stem}-{'end' if after is None else f'after{after}'}"
    )
    for path in FILES
    for after, expect in steps(load(path))
]


def test_all_six_shared_scenarios_are_here() -> None:
    assert [p.name for p in FILES] == [
        "s01_search_mid_batch.json",
        "s02_first_turn_own_train_only.json",
        "s03_first_doubles_then_block.json",
        "s04_double_extra_and_private_satisfy.json",
        "s05_out_on_double_last_round_tie.json",
        "s06_out_in_first_turn_waits.json",
    ]


@pytest.mark.parametrize(("path", "after", "expect"), CASES)
def test_scenario_in_process(path: Path, after: int | None, expect: dict[str, Any]) -> None:
    state = run_replay(prefix_doc(load(path), after))
    assert mismatches(expect, state) == []


@pytest.mark.parametrize(("path", "after", "expect"), CASES)
def test_scenario_through_the_command(
    path: Path, after: int | None, expect: dict[str, Any]
) -> None:
    p = replay_cmd(prefix_doc(load(path), after))
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""
    assert mismatches(expect, json.loads(p.stdout)) == []


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_command_and_in_process_agree_exactly(path: Path) -> None:
    doc = load(path)["replay"]
    p = replay_cmd(doc)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == run_replay(doc)


def test_comparison_is_strict_enough() -> None:
    """The copied comparison catches a wrong value, train orientation and a missing key."""
    state = run_replay(load(FILES[1])["replay"])
    assert mismatches({"turn": 1}, state) == []
    assert mismatches({"turn": 2}, state) != []
    assert mismatches({"trains.0.tiles": ["5-12", "5-3", "3-3"]}, state) != []
    assert mismatches({"trains.0.tiles": ["12-5", "5-3", "3-3"]}, state) == []
    assert mismatches({"no.such.key": 1}, state) != []
    assert (
        mismatches({"legal": [{"seat": 1, "act": "play", "tile": "4-12", "train": "1"}]}, state)
        == []
    )
