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

from concurrent.futures import ThreadPoolExecutor

#: how many calls of this process's tables run at once
THREADS = 4
DATABASE_THREADS = ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="table-db")
