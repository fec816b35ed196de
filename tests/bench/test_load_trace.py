"""bench/load_trace.py: the slowest 1% of a load run explained by the servers' spans."""

from __future__ import annotations

import json
from pathlib import Path

from bench.load_trace import explain
from games.processes import trace


def write(folder: Path, pid: int, spans: list[tuple[str, str, float]]) -> None:
    folder.mkdir(exist_ok=True)
    with (folder / f"spans-{pid}.jsonl").open("a") as f:
        for key, name, ms in spans:
            f.write(json.dumps({"k": key, "s": name, "ms": ms, "t": 0}) + "\n")


def test_the_slowest_actions_are_put_down_to_their_largest_part(tmp_path: Path) -> None:
    spans, latencies, keys = [], [], []
    for v in range(1, 201):  # 200 actions of match 7: quick ones, and two slow ones
        slow_boards = v == 50
        slow_notice = v == 120
        spans += [
            (f"7:{v}", "receive+service", 2.0),
            (f"7:{v}", "notice", 40.0 if slow_notice else 0.5),
            (f"7:{v}", "hub update", 0.3),
        ]
        spans += [(f"7:{v}", "board", 30.0 if slow_boards else 1.0) for _ in range(5)]
        spans += [(f"7:{v}", "send", 0.3 + (150.0 if slow_boards else 5.0) + 1.0) for _ in range(5)]
        latencies.append(0.2 if slow_boards or slow_notice else 0.01)
        keys.append((7, v))
    write(tmp_path, 11, spans)
    write(tmp_path, 12, [("9:1", "board", 1.0)])  # an action no client measured: ignored
    result = explain(tmp_path, latencies, keys, share=0.01)
    assert (result["traced"], result["slowest"]) == (200, 2)
    assert dict(result["causes"]) == {"boards": 1, "notice": 1}
    assert result["median_ms_all"]["boards"] == 5.0


def test_tracing_is_off_unless_a_folder_is_named() -> None:
    assert trace.ENABLED is False  # the test settings name none
    assert trace.key(1, 2) is None
    message: dict[str, object] = {}
    trace.stamp(message)
    assert message == {}
