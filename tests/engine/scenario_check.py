"""The comparison semantics of ``shared/scenarios/check.py``, copied so the tests stand alone.

Expected keys are dotted paths into the replay output (``trains.0.tiles``,
``error.index``). Hands and ``legal`` compare as sets, tiles in hands and in
``legal`` compare without orientation; train tiles keep theirs.
"""

from __future__ import annotations

import json
from typing import Any


def canon_tile(t: object) -> str:
    a, b = (int(x) for x in str(t).split("-"))
    return f"{min(a, b)}-{max(a, b)}"


def canon_action(a: dict[str, Any]) -> str:
    a = dict(a)
    if "tile" in a:
        a["tile"] = canon_tile(a["tile"])
    if "train" in a and a["train"] != "mexican":
        a["train"] = int(a["train"])
    return json.dumps(a, sort_keys=True)


def lookup(state: Any, path: str) -> Any:
    cur = state
    for part in path.split("."):
        if isinstance(cur, list):
            cur = cur[int(part)]
        elif isinstance(cur, dict):
            if part not in cur:
                raise KeyError(path)
            cur = cur[part]
        else:
            raise KeyError(path)
    return cur


def same(path: str, want: Any, got: Any) -> bool:
    last = path.split(".")[-1]
    if path == "hands" and isinstance(got, list):
        return [sorted(map(canon_tile, h)) for h in want] == [
            sorted(map(canon_tile, h)) for h in got
        ]
    if path.startswith("hands.") and isinstance(got, list):
        return sorted(map(canon_tile, want)) == sorted(map(canon_tile, got))
    if last == "legal" and isinstance(got, list):
        return sorted(map(canon_action, want)) == sorted(map(canon_action, got))
    if last == "open_doubles" and isinstance(got, list):

        def norm(xs: list[dict[str, Any]]) -> list[tuple[str, str]]:
            return [(canon_tile(x["tile"]), str(x["train"])) for x in xs]

        return norm(want) == norm(got)
    return bool(want == got)


def mismatches(expect: dict[str, Any], state: dict[str, Any]) -> list[str]:
    """Every expected path whose value differs in `state`, described in one line each."""
    problems = []
    for path, want in expect.items():
        try:
            got = lookup(state, path)
        except (KeyError, IndexError, ValueError, TypeError):
            got = "<missing>"
        if not same(path, want, got):
            problems.append(f"{path}: expected {json.dumps(want)}, got {json.dumps(got)}")
    return problems


def steps(scenario: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
    """(number of actions to replay or None for all, expected values) for each check."""
    out: list[tuple[int | None, dict[str, Any]]] = [
        (c["after"], c["expect"]) for c in scenario.get("checkpoints", [])
    ]
    out.append((None, scenario["expect"]))
    return out


def prefix_doc(scenario: dict[str, Any], after: int | None) -> dict[str, Any]:
    doc = dict(scenario["replay"])
    if after is not None:
        doc["actions"] = doc.get("actions", [])[:after]
    return doc
