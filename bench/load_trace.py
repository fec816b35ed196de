"""The slowest 1% of a load run explained by the servers' spans.

``python bench/load.py --trace ...`` starts the servers with ``TABLE_TRACE`` naming a
folder (games/processes/trace.py): each server process appends its spans of every action there,
keyed by match and version. The clients keep the (match, version) of each latency
sample (bench/load_clients.py). `explain` joins them: for each action, its parts —

- ``service``: the acting connection's frame received until its service committed
  and answered (``receive+service``);
- ``notice``: from the commit until a hub started on it (the notice's trip: directly
  in the acting process, through Redis elsewhere, plus the wait for the hub's turn
  and a database thread);
- ``hub update``: deriving the version from the notice, or reading it;
- ``boards``: that hub's boards of the version, one per connection, in one hop;
- ``sends``: from the boards made until the last frame was written to its socket
  (the event loop's queue and the outboxes);

and, for the slowest 1% of the latency samples, which part was the largest (the
"cause"), how often each was, and each part's median there against all actions.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

PARTS = ("service", "notice", "hub update", "boards", "sends")


def load_spans(folder: Path) -> dict[str, dict[int, list[tuple[str, float]]]]:
    """key ("match:version") -> process id -> [(span name, ms)] from every server's file."""
    out: dict[str, dict[int, list[tuple[str, float]]]] = defaultdict(lambda: defaultdict(list))
    for path in sorted(folder.glob("spans-*.jsonl")):
        pid = int(path.stem.split("-")[1])
        for line in path.read_text().splitlines():
            try:
                span = json.loads(line)
            except ValueError:
                continue  # a line cut by the server's end
            out[span["k"]][pid].append((span["s"], float(span["ms"])))
    return out


def parts_of(by_process: dict[int, list[tuple[str, float]]]) -> dict[str, float]:
    """One action's parts (ms), each the worst over the processes that worked on it."""
    parts = dict.fromkeys(PARTS, 0.0)
    for spans in by_process.values():
        named: dict[str, list[float]] = defaultdict(list)
        for name, ms in spans:
            named[name].append(ms)
        update = max(named.get("hub update", [0.0]))
        boards = sum(named.get("board", []))
        parts["service"] = max(parts["service"], max(named.get("receive+service", [0.0])))
        parts["notice"] = max(parts["notice"], max(named.get("notice", [0.0])))
        parts["hub update"] = max(parts["hub update"], update)
        parts["boards"] = max(parts["boards"], boards)
        parts["sends"] = max(parts["sends"], max(named.get("send", [0.0])) - update - boards)
    return parts


def explain(
    folder: Path, latencies: list[float], keys: list[tuple[int, int]], share: float = 0.01
) -> dict[str, Any]:
    """The top causes of the slowest `share` of the samples (see the module docstring)."""
    spans = load_spans(folder)
    samples = sorted(zip(latencies, keys, strict=True), reverse=True)
    traced = [(lat, spans[f"{m}:{v}"]) for lat, (m, v) in samples if f"{m}:{v}" in spans]
    if not traced:
        return {"samples": len(samples), "traced": 0}
    slow = traced[: max(1, int(len(traced) * share))]
    causes: Counter[str] = Counter()
    slow_parts: dict[str, list[float]] = defaultdict(list)
    for _lat, by_process in slow:
        parts = parts_of(by_process)
        causes[max(parts, key=lambda p: parts[p])] += 1
        for name, ms in parts.items():
            slow_parts[name].append(ms)
    all_parts: dict[str, list[float]] = defaultdict(list)
    for _lat, by_process in traced:
        for name, ms in parts_of(by_process).items():
            all_parts[name].append(ms)
    return {
        "samples": len(samples),
        "traced": len(traced),
        "slowest": len(slow),
        "slowest_from_ms": slow[-1][0] * 1000,
        "causes": causes.most_common(),
        "median_ms_slowest": {p: statistics.median(v) for p, v in slow_parts.items()},
        "median_ms_all": {p: statistics.median(v) for p, v in all_parts.items()},
    }


def report(result: dict[str, Any], indent: str = "  ") -> None:
    if not result.get("traced"):
        print(f"{indent}trace: no spans matched the {result.get('samples', 0)} latency samples")
        return
    causes = ", ".join(f"{name} {count}" for name, count in result["causes"])
    print(
        f"{indent}trace: the slowest {result['slowest']} of {result['traced']} traced actions (from "
        f"{result['slowest_from_ms']:.1f} ms): largest part {causes}"
    )
    for name in PARTS:
        print(
            f"{indent}  {name}: median {result['median_ms_slowest'][name]:.1f} ms there, "
            f"{result['median_ms_all'][name]:.1f} ms over all"
        )
