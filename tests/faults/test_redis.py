"""Two server processes sharing PostgreSQL and a (private) Redis channel layer.

alice plays on server A, bob on server B, a spectator watches on each; both servers
run a computer worker. Spectators never send anything, so every board they receive
after the first was pushed to them through Redis:

- a client on each process sees the other's moves (the spectator on B gets every
  version alice's moves on A produce, and the other way round);
- Redis is then killed (SIGKILL, nothing saved) and started again, empty, on the same
  port while everyone is playing: the clients resync (reconnect and get the current
  board, or get it on the next change), play goes on, and no acknowledged action is
  lost; at rest every connection holds the version the database holds.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from tests.faults.checks import (
    assert_acknowledged_actions_stored,
    assert_reconnects_got_the_current_board,
    assert_resumable,
    new_match,
    settle,
    stored,
    version_of,
    wait_quiet,
)
from tests.faults.conftest import db
from tests.faults.players import Player
from tests.servers import Processes, TableSocket, session_cookie

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True), pytest.mark.slow]

#: acknowledged human actions before Redis is restarted, and after
BEFORE = 8
AFTER = 8
TIME_LIMIT = 90.0


def seen_versions(player: Player) -> set[int]:
    """The versions of the boards `player` was sent: whole ones, and update frames (``v``),
    which bring the board to their version as a whole one does."""
    import json

    frames = list(map(json.loads, player.sock.frames))
    return {m["version"] for m in frames if m.get("type") == "board"} | {
        m["v"] for m in frames if m.get("type") == "update"
    }


async def test_two_processes_share_moves_and_survive_a_redis_restart(
    procs: Processes, users: Any
) -> None:
    alice, bob = await db(users, "alice", "bob")
    match = await db(new_match, alice, bob)
    redis = procs.redis()
    a = procs.daphne(redis_url=redis.url, computer_delay=0.02)
    b = procs.daphne(redis_url=redis.url, computer_delay=0.02)
    deadline = time.monotonic() + TIME_LIMIT
    stop = asyncio.Event()

    async def version_now() -> int:
        return int(await db(version_of, match.pk))

    def player(
        server: Any, name: str, *, cookie: str | None = None, watch: str | None = None
    ) -> Player:
        sock = TableSocket(server, match.pk, cookie=cookie, watch=watch, name=name)
        return Player(
            sock, stop=stop, deadline=deadline, version_now=version_now, act=cookie is not None
        )

    alice_a = player(a, "alice@A", cookie=await db(session_cookie, alice))
    bob_b = player(b, "bob@B", cookie=await db(session_cookie, bob))
    watch_a = player(a, "spectator@A", watch=match.watch_token)
    watch_b = player(b, "spectator@B", watch=match.watch_token)
    everyone = [alice_a, bob_b, watch_a, watch_b]
    for p in everyone:
        await p.sock.open()
    tasks = [asyncio.create_task(p.run()) for p in everyone]

    def acked() -> int:
        return len(alice_a.sock.acks) + len(bob_b.sock.acks)

    async def until(condition: Any, what: str) -> None:
        while not condition():
            assert time.monotonic() < deadline, (
                f"{what}\n"
                + "\n".join(
                    f"{p.sock.name}: drops {p.drops}, reconnects {p.reconnects}, acks {len(p.sock.acks)}, "
                    f"errors {p.sock.errors[-2:]}, board {p.sock.last_board and p.sock.last_board['version']}, "
                    f"pending {p.pending}"
                    for p in everyone
                )
                + f"\nversion {await version_now()}\n{procs.logs()}"
            )
            assert not any(t.done() for t in tasks), [t.exception() for t in tasks if t.done()]
            await asyncio.sleep(0.02)

    try:
        await until(
            lambda: len(alice_a.sock.acks) >= BEFORE // 2 and len(bob_b.sock.acks) >= BEFORE // 2,
            "both players should have played",
        )
        # Each process's spectator was pushed the other process's moves (through Redis).
        mine = {"spectator@B": alice_a, "spectator@A": bob_b}
        for spectator in (watch_a, watch_b):
            mover = mine[spectator.sock.name]
            await until(
                lambda s=spectator, m=mover: max(seen_versions(s)) >= max(m.sock.acks.values()),
                f"{spectator.sock.name} never saw {mover.sock.name}'s moves",
            )
            assert spectator.reconnects == [] and spectator.sock.connects == 1

        # Redis dies and comes back empty: group memberships and queued messages are gone.
        at_restart = acked()
        await asyncio.to_thread(redis.kill)
        # The players go on meanwhile: their moves are stored in PostgreSQL.
        await asyncio.sleep(0.3)
        await asyncio.to_thread(redis.start)
        await until(
            lambda: acked() >= at_restart + AFTER, "play did not go on after Redis restarted"
        )
        # The spectators follow again too: pushed boards of versions after the restart.
        version = await version_now()
        for spectator in (watch_a, watch_b):
            await until(
                lambda s=spectator: max(seen_versions(s)) >= version,
                f"{spectator.sock.name} no longer follows the match after Redis restarted",
            )
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    assert all(t.exception() is None for t in tasks), [t.exception() for t in tasks]
    assert_reconnects_got_the_current_board(everyone)

    final_version = await wait_quiet(match.pk)
    await settle(everyone, final_version)  # at rest, every connection holds the stored version
    data = await db(stored, match.pk)
    assert data["version"] == final_version
    assert assert_acknowledged_actions_stored([alice_a, bob_b], data) >= BEFORE + AFTER
    assert_resumable(data)
    for p in everyone:
        await p.sock.close()
    # Losing Redis closed the connections it cut off quietly (LAYER_RESTART, logged in
    # one line), not with an error inside the application (1011 and a traceback).
    for server in (a, b):
        assert "Traceback" not in server.log(), server.log()
