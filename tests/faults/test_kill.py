"""kill -9 of the only server in the middle of a match, while its clients are playing.

One daphne process serves two people (each on a websocket of their own, playing as
fast as the protocol allows) and runs the two computer players. It is killed with
SIGKILL right after a client sent an action (so that action's fate is unknown to the
client) and started again on the same port. Then:

- every action any client saw acknowledged is in the log, at the acknowledged version,
  with the seat and the move that client sent;
- the match resumes where it was: the stored snapshot equals the state rebuilt from
  the deal and the log (`reads.rebuild_state`), and the log is one unbroken sequence;
- the computer players carry on (the worker of the new process acts for them);
- a reconnecting client gets the current board (the version the database holds);
- a command re-sent after the crash with its request id is never applied twice.
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

#: human commands sent before the kill
KILL_AFTER = 14
#: acknowledged human actions wanted after the restart
AFTER_RESTART = 10
TIME_LIMIT = 90.0


async def test_kill_9_mid_match_loses_no_acknowledged_action_and_play_resumes(
    procs: Processes, users: Any
) -> None:
    alice, bob = await db(users, "alice", "bob")
    match = await db(new_match, alice, bob)
    server = procs.daphne(computer_delay=0.02)
    cookies = [await db(session_cookie, alice), await db(session_cookie, bob)]
    deadline = time.monotonic() + TIME_LIMIT
    stop = asyncio.Event()
    killed: dict[str, Any] = {}

    def kill_after_enough(player: Player) -> None:
        # Right after a send: that command may or may not have been committed.
        if not killed and sum(len(p.sent) for p in players) >= KILL_AFTER:
            server.kill()
            killed["by"] = player.sock.name

    async def version_now() -> int:
        return int(await db(version_of, match.pk))

    players = []
    for name, cookie in zip(("alice", "bob"), cookies, strict=True):
        sock = TableSocket(server, match.pk, cookie=cookie, name=name)
        await sock.open()
        players.append(
            Player(
                sock,
                stop=stop,
                deadline=deadline,
                on_sent=kill_after_enough,
                version_now=version_now,
            )
        )
    tasks = [asyncio.create_task(p.run()) for p in players]
    try:
        while not killed:
            assert time.monotonic() < deadline, (
                "the clients never sent enough to kill the server mid-match"
            )
            assert not any(t.done() for t in tasks), [t.exception() for t in tasks if t.done()]
            await asyncio.sleep(0.02)
        version_at_kill = await db(version_of, match.pk)
        acked_before = sum(len(p.sock.acks) for p in players)
        await asyncio.to_thread(server.start)  # same port; the clients are knocking meanwhile
        while sum(len(p.sock.acks) for p in players) < acked_before + AFTER_RESTART:
            assert time.monotonic() < deadline, (
                "play did not resume after the restart:\n" + procs.logs()
            )
            assert not any(t.done() for t in tasks), [t.exception() for t in tasks if t.done()]
            await asyncio.sleep(0.05)
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    assert all(t.exception() is None for t in tasks), [t.exception() for t in tasks]

    # Both clients lost their connection and came back to the current board.
    assert all(p.drops >= 1 and p.reconnects for p in players)
    assert_reconnects_got_the_current_board(players)

    final_version = await wait_quiet(match.pk)
    data = await db(stored, match.pk)
    assert data["version"] == final_version

    assert assert_acknowledged_actions_stored(players, data) >= KILL_AFTER - 2 + AFTER_RESTART
    assert_resumable(data)

    # The computers carried on in the new process.
    assert any(e["by_computer"] and e["version"] > version_at_kill for e in data["entries"])

    # The clients that stayed connected hold the stored version; one connecting now gets it too.
    await settle(players, final_version)
    for name, cookie in zip(("alice", "bob"), cookies, strict=True):
        fresh = TableSocket(server, match.pk, cookie=cookie, name=f"{name}-fresh")
        await fresh.open()
        assert (await fresh.expect("board"))["version"] == final_version
        await fresh.close()
    for p in players:
        await p.sock.close()
