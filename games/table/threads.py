"""The threads the table's database work runs in (each with its own connection): the
connections' calls (games.table.connection) and the hubs' passes (games.table.hub).

Channels' default runs every connection's calls of a process in one thread, one after the
other, so each waits for the others' queries and commits; a few threads overlap those waits
(bench/load.py). One connection's calls still run one at a time, in order: its consumer
awaits each before the next. The boards of a table told of a version are made in one call
for the table (games.table.hub). Notices sent from these threads (`games.notify`, after
commit) are handed to the server's event loop by async_to_sync.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor, wait

#: how many calls of this process's tables run at once
THREADS = 4
DATABASE_THREADS = ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="table-db")
#: seconds the calls under way have to end when the server shuts down (`drain`)
DRAIN_SECONDS = 5.0


def idle(timeout: float = 30) -> bool:
    """Wait until every call given to `DATABASE_THREADS` so far has ended: `THREADS` calls
    that wait for each other can only all run once nothing else does (the pool takes calls
    in order). False when `timeout` seconds passed first; True at once for a pool shut down."""
    together = threading.Barrier(THREADS)
    try:
        waits = [DATABASE_THREADS.submit(together.wait, timeout) for _ in range(THREADS)]
    except RuntimeError:  # the pool is shut down: nothing runs
        return True
    _done, pending = wait(waits, timeout=timeout + 1)
    return not pending and not any(w.exception() for w in waits)


async def drain(timeout: float = DRAIN_SECONDS) -> None:
    """At the server's shutdown, while its loop still runs: the calls under way end. A call's
    notices are handed to the loop (async_to_sync), so one still running once the loop has
    stopped would wait for ever, and the process would not exit until killed. The
    connections the shutdown ends give their clean-up calls (leaving, ending a pause) one
    after another: each round waits for the calls given meanwhile."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    for _round in range(3):
        await asyncio.sleep(0.05)  # the connections being ended give their next call
        left = deadline - loop.time()
        if left <= 0 or not await asyncio.to_thread(idle, left):
            return
