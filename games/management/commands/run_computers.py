"""`manage.py run_computers`: the computer players (R25) in a process of their own.

The same loop each server process runs (games/worker/computers.py), for a deployment that
turns it off in the servers (``COMPUTER_WORKER=off``) or wants one more. Several
may run at once: each match's next action is taken by exactly one of them. The
moves reach the tables through the channel layer, so this needs a shared one
(``REDIS_URL``): with the in-memory layer nobody would see them until a reload, and
the same one as the servers' (games.processes.servers: it refuses to start, exit status 3, when a
running server speaks another).

    manage.py run_computers               # until Ctrl-C / SIGTERM
    manage.py run_computers --once        # one pass over the waiting matches, then exit
    manage.py run_computers --delay 0     # no pause between moves
"""

from __future__ import annotations

import asyncio
import signal
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Server
from games.processes import servers
from games.worker import DEFAULT_POLL, ComputerWorker


class Command(BaseCommand):
    help = "Let computer players take their turns in every match (a worker process)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--delay",
            type=float,
            default=None,
            help="seconds between two actions of a match at the normal pace; the other paces "
            "scale with it (default: settings.COMPUTER_DELAY)",
        )
        parser.add_argument(
            "--poll",
            type=float,
            default=DEFAULT_POLL,
            help="seconds between two looks at the database when nothing is due",
        )
        parser.add_argument("--once", action="store_true", help="one pass, then exit")

    def handle(
        self, *args: Any, delay: float | None, poll: float, once: bool, **options: Any
    ) -> None:
        if isinstance(get_channel_layer(), InMemoryChannelLayer) or get_channel_layer() is None:
            raise CommandError(
                "run_computers needs a channel layer shared with the servers: set REDIS_URL "
                "(with the in-memory layer the tables would not see the moves)."
            )
        if delay is not None and delay < 0 or poll <= 0:
            raise CommandError("--delay must be 0 or more and --poll more than 0")
        if not once and not servers.agree_at_start(Server.Kind.COMPUTERS):
            raise SystemExit(3)  # another channel layer than the servers' (one line logged)
        worker = ComputerWorker(delay=delay, poll=poll)
        if once:
            steps, _wait = worker.run_once()
            self.stdout.write(f"computer actions taken: {steps}")
            return
        asyncio.run(self._serve(worker))
        self.stdout.write(f"stopped after {worker.steps} computer actions")

    async def _serve(self, worker: ComputerWorker) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, worker.stop)
        watch = servers.Watch()  # its membership kept, and checked, while it runs
        watch.start()
        self.stdout.write("computer players: waiting for turns (Ctrl-C stops)")
        try:
            await worker.run()
        finally:
            await watch.stop()
            await sync_to_async(servers.leave, thread_sensitive=False)()
