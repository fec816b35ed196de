"""The server process's heap and its cycle collector: short pauses at any number of tables.

What the site does leaves no reference cycles: an action and its boards, the computers'
periodic scans, a connection's reads of its match (tests/tablesite/test_gc.py). What they make
is freed by reference counting, so the cycle collector finds next to nothing (bench/load.py
prints what its collections freed: under 50 objects in 3,000 actions at 150 tables). What
the collector costs is its walk: a full collection walks every tracked object that is not
frozen, and a process serving 150 tables holds ~300,000 of them for as long as their pages
stay (each connection's socket, protocols, tasks and parts; each table's reads). That walk
took 220-250 ms, once every minute or two, which every table of the process waited for.

So the process keeps its settled heap frozen (``gc.freeze`` moves the collector's lists to
its permanent generation, which no collection walks; a frozen object is still freed by
reference counting as soon as nothing refers to it):

- `settle`, at start-up: the board's templates compiled and every language's catalogue
  loaded, one collection, then everything frozen, and the collector's `THRESHOLDS` set;
- `Keeper`, a daemon thread: every `FREEZE_EVERY` seconds it freezes what has survived
  since (its cost: moving three list heads), so a collection of the middle or the old
  generation walks only what arrived since; every `FULL_EVERY` seconds it unfreezes everything and collects it
  once, so that a cycle among objects frozen meanwhile (a closed connection's, say, if a
  library left one) is freed within that time rather than never. That one full collection
  is the process's longest pause (docs/performance.md gives it).
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable

#: The collector's thresholds (young, middle, old). Young collections at Python's 700: in a
#: server a young collection holds every action in flight, and 2,000 made the longest ones
#: 17-22 ms against 4.7 ms (bench/load.py, 20 tables); full ones ten times rarer than
#: Python's default, as they find nothing (Python's own rule of 25% growth of the old
#: generation still applies).
THRESHOLDS = (700, 10, 100)
#: seconds between two freezes of what survived since the last: the middle generation then
#: holds a quarter of a second's survivors at most (bench/load.py at 150 tables: the longest
#: pause 9.6 ms, where a freeze every 5 s left middle collections of 15-19 ms)
FREEZE_EVERY = 0.25
#: seconds between two full collections of everything, the frozen heap included
FULL_EVERY = 3600.0


def settle(warm: Callable[[], None] | None = None) -> None:
    """`warm()` (what start-up should make now rather than at the first requests), then one
    collection, everything frozen, and the thresholds set."""
    if warm is not None:
        warm()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


class Keeper:
    """Freezes what survived every `freeze_every` seconds; collects all of it every
    `full_every` seconds (`tick` is one step, what the thread runs and the tests call)."""

    def __init__(
        self, *, freeze_every: float = FREEZE_EVERY, full_every: float = FULL_EVERY
    ) -> None:
        self.freeze_every = freeze_every
        self.full_every = full_every
        self.full_at = time.monotonic()
        self.freezes = 0
        self.fulls = 0
        self._stop = threading.Event()

    def tick(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        if now - self.full_at >= self.full_every:
            self.full_at = now
            gc.unfreeze()
            gc.collect()
            self.fulls += 1
        gc.freeze()
        self.freezes += 1

    def run(self) -> None:
        while not self._stop.wait(self.freeze_every):
            self.tick()

    def start(self) -> Keeper:
        threading.Thread(target=self.run, name="heap-keeper", daemon=True).start()
        return self

    def stop(self) -> None:
        self._stop.set()
