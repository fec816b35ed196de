"""Opt-in record of this process's garbage-collection pauses (for bench/load.py).

Off unless the environment names a file: ``GC_STATS_FILE=/some/dir/gc-%p.json``
(``%p`` becomes the process id, so several server processes keep files of their
own). Then a `gc.callbacks` hook times every collection, and a daemon thread writes
a snapshot to that file twice a second (to a temporary file renamed over it, so a
reader never sees half of one)::

    {"pid": …, "time": <unix time of the snapshot>,
     "collections": [gen0, gen1, gen2], "seconds": [gen0, gen1, gen2], "cpu_seconds": […],
     "max_ms": [gen0, gen1, gen2], "collected": …, "uncollectable": …,
     "long": [[unix time, generation, ms, collected, cpu ms], …],
     "costs": {part: CPU seconds, …}}

``long`` lists every pause of at least `LONG_MS` (the latest `KEEP` of them), so a
reader can take the longest pause within a window of its own (``ms`` by the wall
clock, what a waiting client feels; ``cpu ms`` the thread's CPU time, which a machine
busy with other processes does not stretch); ``seconds`` and
``collections`` are totals since the hook was installed (a reader subtracts two
snapshots). The hook costs four clock reads per collection.
"""

from __future__ import annotations

import gc
import json
import os
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

from games.processes import trace

ENV = "GC_STATS_FILE"
#: pauses at least this long are listed one by one
LONG_MS = 1.0
#: how many of the latest long pauses a snapshot lists
KEEP = 5000
#: seconds between two snapshots
EVERY = 0.5


class GcStats:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.collections = [0, 0, 0]
        self.seconds = [0.0, 0.0, 0.0]
        self.cpu_seconds = [0.0, 0.0, 0.0]
        self.max_ms = [0.0, 0.0, 0.0]
        self.collected = 0
        self.uncollectable = 0
        self.long: deque[tuple[float, int, float, int, float]] = deque(maxlen=KEEP)
        self._started = 0.0
        self._cpu = 0.0
        #: read once: gc.get_freeze_count() walks the whole frozen heap (~127,000 objects), and
        #: reading it with every snapshot cost the server ~2-30 ms of CPU twice a second
        #: (py-spy: 40% of an idle-ish server's Python time), counted in its CPU per action
        self.frozen = gc.get_freeze_count()

    def callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            self._cpu = time.thread_time()
            return
        ms = (time.perf_counter() - self._started) * 1000
        gen = info["generation"]
        self.collections[gen] += 1
        self.seconds[gen] += ms / 1000
        if ms > self.max_ms[gen]:
            self.max_ms[gen] = ms
        self.collected += info["collected"]
        self.uncollectable += info["uncollectable"]
        cpu_ms = (time.thread_time() - self._cpu) * 1000
        self.cpu_seconds[gen] += cpu_ms / 1000
        if ms >= LONG_MS:
            self.long.append((time.time(), gen, round(ms, 3), info["collected"], round(cpu_ms, 3)))

    def snapshot(self) -> dict[str, Any]:
        return {
            "pid": os.getpid(),
            "time": time.time(),
            "collections": list(self.collections),
            "seconds": list(self.seconds),
            "cpu_seconds": list(self.cpu_seconds),
            "max_ms": list(self.max_ms),
            "collected": self.collected,
            "uncollectable": self.uncollectable,
            "long": list(self.long),
            "thresholds": list(gc.get_threshold()),
            "frozen": self.frozen,
            # the server's CPU by part (games.processes.trace, when TABLE_COSTS is set)
            "costs": trace.costs(),
        }

    def write(self) -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(self.snapshot()))
        os.replace(tmp, self.path)

    def keep_writing(self) -> None:
        while True:
            time.sleep(EVERY)
            try:
                self.write()
            except OSError:  # the reader's folder is gone: it stopped listening
                return


def install_from_env() -> GcStats | None:
    """Install the hook and the writer thread when `ENV` names a file; else do nothing."""
    template = os.environ.get(ENV)
    if not template:
        return None
    stats = GcStats(Path(template.replace("%p", str(os.getpid()))))
    gc.callbacks.append(stats.callback)
    stats.write()
    threading.Thread(target=stats.keep_writing, name="gc-stats", daemon=True).start()
    return stats
