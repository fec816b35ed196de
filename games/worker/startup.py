"""Starting the computers' loop with the server, and stopping it.

The loop runs as an asyncio task on the server's event loop (`ComputerWorker.run`), its
database work in one thread of its own: the services' "match changed" notices then reach
the in-memory channel layer of the same process safely (it is not thread-safe), as well as
Redis. `start_in_process` starts it once per server process when the server starts
(tablesite/asgi.py: `start_with_daphne` under daphne, `lifespan` under servers that send the
ASGI lifespan), not at the first page request, so computers resume by themselves after a
restart; `WithComputerWorker` starts it on a connection as a fallback. A committed change
wakes it (`on_match_moved`, games.signals).
"""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path
from typing import Any

from asgiref.sync import sync_to_async

from games.processes import servers
from games.worker.computers import DEFAULT_POLL, IDLE_POLL, ComputerWorker
from games.worker.leader import _running, claim_at_start, enabled, release, shared_layer

logger = logging.getLogger(__name__)

#: seconds the worker's pass under way has to end when the server shuts down (a pass is one
#: computer move or one look at what is due: well under a second)
STOP_TIMEOUT = 5.0


def start_in_process(*, server_start: bool = False) -> bool:
    """Start the loop on the running event loop, once per process (a forked server starts
    its own). True when it was started now. Called by tablesite/asgi.py when the server
    starts (`server_start`: with the in-memory layer this process is the only server,
    so every pause left in the database belongs to a connection that is gone) and, as
    a fallback for servers that announce no start, on each connection."""
    pid = os.getpid()
    task = _running["task"]
    loop = asyncio.get_running_loop()
    if _running["pid"] == pid and task is not None and not task.done() and task.get_loop() is loop:
        return False
    if not enabled() or _running["refused"] == pid:
        return False
    # With the in-memory layer this process makes every change, and each wakes the loop (`poke`).
    worker = ComputerWorker(
        clear_all_pauses=server_start and not shared_layer(),
        poll=DEFAULT_POLL if shared_layer() else IDLE_POLL,
    )
    _running.update(pid=pid, worker=worker, task=loop.create_task(worker.run()))
    logger.info("computer players: worker started in process %s", pid)
    return True


def poke() -> None:
    """Wake this process's loop, if it runs one: a match changed (`games.signals.match_moved`,
    sent by games.notify after each change is committed, from any thread)."""
    worker = _running["worker"]
    if worker is not None and _running["pid"] == os.getpid():
        worker.poke()


def on_match_moved(sender: object, *, match_id: int, **kwargs: Any) -> None:
    """`signals.match_moved`'s receiver: a match changed, a computer may be next (`poke`)."""
    poke()


async def stop_in_process() -> None:
    """Stop this process's loop (tests, and the server's shutdown: `stop_at_shutdown`)."""
    worker, task = _running["worker"], _running["task"]
    _running.update(pid=None, worker=None, task=None, refused=None)
    if worker is not None and task is not None and not task.done():
        worker.stop()
        await task
    await sync_to_async(release, thread_sensitive=False)()


class WithComputerWorker:
    """ASGI wrapper: any connection starts this process's computer worker if it is not
    running yet — a fallback: the server's start does it first (`start_with_daphne`,
    `lifespan`)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        start_in_process()
        return await self.app(scope, receive, send)


async def lifespan(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The ASGI ``lifespan`` protocol, for servers that send it (uvicorn, hypercorn; not
    daphne): the server's channel layer is checked against the running processes'
    (games.processes.servers) and its membership kept while it runs; the worker starts with the
    server; both stop at its shutdown."""
    watch: servers.Watch | None = None
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            if not await sync_to_async(servers.agree_at_start, thread_sensitive=False)():
                await send(
                    {
                        "type": "lifespan.startup.failed",
                        "message": "a process of another channel layer runs on this database",
                    }
                )
                return
            if not await sync_to_async(claim_at_start, thread_sensitive=False)():
                await sync_to_async(servers.leave, thread_sensitive=False)()
                await send(
                    {
                        "type": "lifespan.startup.failed",
                        "message": "another server runs on this database",
                    }
                )
                return
            watch = servers.Watch()
            watch.start()
            start_in_process(server_start=True)
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await stop_in_process()
            if watch is not None:
                await watch.stop()
            await sync_to_async(servers.leave, thread_sensitive=False)()
            await send({"type": "lifespan.shutdown.complete"})
            return


def run_by_daphne() -> bool:
    """Whether this process is a daphne server (``python -m tablesite.server`` or the
    ``daphne`` command), not a test or a command that imported daphne's modules."""
    import sys

    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    name = getattr(spec, "name", "") or ""
    return (
        name in ("tablesite.server", "daphne", "daphne.__main__", "daphne.cli")
        or Path(sys.argv[0] if sys.argv else "").name == "daphne"
    )


def start_with_daphne() -> bool:
    """Under daphne (which sends no ASGI lifespan), start the worker as soon as daphne's
    event loop runs: computers move after a restart without waiting for a page request.
    Called at the import of tablesite/asgi.py; True when scheduled (the app was loaded
    by daphne, whose Twisted reactor runs on an asyncio loop)."""
    import sys

    if "daphne.server" not in sys.modules or "twisted.internet.reactor" not in sys.modules:
        return False  # not loaded by daphne (tests, manage.py commands): importing the reactor would install one
    from twisted.internet import reactor
    from twisted.internet.defer import Deferred

    # Before daphne listens: a refused server never answers. Its channel layer first (one
    # line when it differs from the running processes'), then the computers' lock.
    if run_by_daphne() and not (servers.agree_at_start() and claim_at_start()):
        raise SystemExit(3)

    def start() -> None:
        if servers.member() is not None:
            servers.Watch().start()  # its membership kept, and checked, while it runs
        try:
            start_in_process(server_start=True)
        except Exception:  # the next connection tries again
            logger.exception("computer players: could not start with the server")

    def stop() -> Deferred[None]:
        # At daphne's shutdown (SIGTERM, Ctrl-C), while its loop still runs: the worker's pass
        # under way ends first. Its notices of a move go through the loop; once the loop has
        # stopped, a pass left waiting for one kept the process from exiting until it was killed.
        return Deferred.fromFuture(asyncio.ensure_future(stop_at_shutdown()))

    # callLater runs `start` inside the running asyncio loop (the reactor's), once it runs.
    reactor.callLater(0, start)  # type: ignore[arg-type]  # a zope.interface method: no self
    reactor.addSystemEventTrigger("before", "shutdown", stop)  # type: ignore[arg-type]
    return True


async def stop_at_shutdown() -> None:
    """`stop_in_process` at the server's shutdown, given `STOP_TIMEOUT` seconds: a pass
    still running then is left to the process's exit."""
    try:
        await asyncio.wait_for(stop_in_process(), STOP_TIMEOUT)
    except Exception:
        logger.exception("computer players: the worker did not stop with the server")
