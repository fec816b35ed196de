"""Server-side spans of each action, for explaining the load benchmark's slowest 1%.

Off unless the environment names a folder in ``TABLE_TRACE`` (bench/load.py sets it for
the servers it starts); off, every call here returns at its first line. On, each
process appends one JSON line per span to ``<folder>/spans-<pid>.jsonl``:
``{"k": "<match>:<version>", "s": name, "ms": duration, "t": wall-clock end}``. An
action is keyed by its match and the version it made, so spans from the acting
connection's process (``receive``, ``service``), the notice (``notice``: from the
commit to this process's hub, wall clock) and every hub (``hub update``, ``board``
per connection, ``send`` per frame: from the hub's update to the frame written to its
socket) join up across processes. bench/load.py reads them after the run
(`load_spans`).

Apart from the spans, the server's CPU by part (``TABLE_COSTS`` set, as bench/load.py does):
`cost` adds the calling thread's CPU time since a start to a named part (the hub's passes,
the boards of seats and of spectators, each database call by its function's name, the
computers' loop), `costs` gives the totals, and tablesite/gcstats.py writes them into its
snapshots, so that the benchmark says where an action's milliseconds went; whatever no part
names is the event loop's (sockets, frames, dispatch).
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path
from typing import Any

FOLDER = os.environ.get("TABLE_TRACE", "")
ENABLED = bool(FOLDER)
#: the CPU by part is counted (callers read it before timing anything: off, it costs nothing)
COSTS = bool(os.environ.get("TABLE_COSTS"))

_lock = threading.Lock()
_file: Any = None
#: when each key's update started here (perf_counter), for the sends' spans
_started: dict[str, float] = {}
#: part -> the CPU seconds spent in it by this process's threads
_costs: dict[str, float] = {}


def cost(part: str, started: float) -> None:
    """Add the calling thread's CPU time since `started` (``time.thread_time()``) to `part`."""
    spent = time.thread_time() - started
    with _lock:
        _costs[part] = _costs.get(part, 0.0) + spent


def costs() -> dict[str, float]:
    """The CPU seconds of each part so far (`cost`)."""
    with _lock:
        return dict(_costs)


def key(match_id: int, version: int) -> str | None:
    return f"{match_id}:{version}" if ENABLED else None


def _write(k: str, name: str, ms: float) -> None:
    global _file
    line = json.dumps({"k": k, "s": name, "ms": round(ms, 3), "t": time.time()}) + "\n"
    with _lock:
        if _file is None:
            Path(FOLDER).mkdir(parents=True, exist_ok=True)
            _file = open(Path(FOLDER) / f"spans-{os.getpid()}.jsonl", "a", buffering=1)  # noqa: SIM115
        _file.write(line)


def span(k: str | None, name: str, started: float) -> None:
    """A span of `k` that started at `started` (time.perf_counter) and ends now."""
    if k is None:
        return
    now = time.perf_counter()
    if name == "hub update":
        with _lock:
            _started.setdefault(k, started)
            if len(_started) > 10_000:
                _started.clear()
    _write(k, name, (now - started) * 1000)


def mark(k: str | None, name: str) -> None:
    """A span of `k` from its hub update's start until now (a frame written to its socket)."""
    if k is None:
        return
    with _lock:
        started = _started.get(k)
    if started is not None:
        _write(k, name, (time.perf_counter() - started) * 1000)


def stamp(message: dict[str, Any]) -> None:
    """Put the commit's wall-clock time on a notice (games.notify), for its ``notice`` span."""
    if ENABLED:
        message["at"] = time.time()


def arrived(k: str | None, notice: dict[str, Any]) -> None:
    """The ``notice`` span: from the commit (`stamp`) to its hub's work starting."""
    at = notice.get("at")
    if k is not None and isinstance(at, (int, float)):
        _write(k, "notice", (time.time() - at) * 1000)
