"""Two servers on one database without a shared layer can no longer stall a page.

Without ``REDIS_URL`` each server's notices stay in its own process, so a computer move
made by one was never told to the other's pages. Now the server that starts first holds
a PostgreSQL advisory lock (games/worker/leader.py `LOCK_KEY`) for its life; a second one:

- without ``REDIS_URL`` refuses to start: exits before it listens, with one clear log
  line (`worker.REFUSED_ALONE`), and no traceback; the first one's pages see every
  version (a person's and the computers') within a second;
- with ``REDIS_URL`` and the computers in process (``COMPUTER_WORKER=on``) serves, says
  in one line that it leaves the computers to the other (`worker.REFUSED_SHARED`), and
  its pages follow the computers the other one moves;
- the lock ends with its process: a server killed with SIGKILL is replaced at once.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from tests.faults.checks import new_match, stored, version_of
from tests.faults.conftest import db
from tests.faults.players import Player
from tests.servers import Processes, TableSocket, session_cookie

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True), pytest.mark.slow]

#: the longest a page may hold an older version than the database's (one second)
STALE_LIMIT = 1.0


async def assert_follows_every_version(
    sock: TableSocket, match_id: int, *, versions: int, deadline: float
) -> None:
    """`sock` (not acting) is told each version the database gets, within `STALE_LIMIT` of it."""
    start = await db(version_of, match_id)
    seen_at: dict[int, float] = {}
    while len([v for v in seen_at if v > start]) < versions:
        assert time.monotonic() < deadline, f"{sock.name} saw only {sorted(seen_at)} after {start}"
        now = await db(version_of, match_id)
        seen_at.setdefault(now, time.monotonic())
        board = await sock.board(
            at_least=now, timeout=STALE_LIMIT
        )  # raises TimeoutError when stalled
        assert board["version"] >= now


async def test_a_second_server_without_redis_refuses_to_start_in_one_line(
    procs: Processes, users: Any
) -> None:
    alice, bob = await db(users, "alice", "bob")
    match = await db(new_match, alice, bob)
    first = procs.daphne(computer_delay=0.05)
    second = procs.daphne(computer_delay=0.05, start=False)
    with pytest.raises(RuntimeError, match="exited with 3"):
        await asyncio.to_thread(second.start)
    log = second.log()
    refusal = [line for line in log.splitlines() if "refuses to start" in line]
    assert len(refusal) == 1 and "REDIS_URL" in refusal[0], log
    assert "Traceback" not in log, log

    # Every page is on the first server, and its pages follow the computers' moves.
    deadline = time.monotonic() + 60
    stop = asyncio.Event()
    alice_sock = TableSocket(first, match.pk, cookie=await db(session_cookie, alice), name="alice")
    bob_sock = TableSocket(first, match.pk, cookie=await db(session_cookie, bob), name="bob")
    watcher = TableSocket(first, match.pk, watch=match.watch_token, name="spectator")
    players = [Player(s, stop=stop, deadline=deadline) for s in (alice_sock, bob_sock)]
    for s in (alice_sock, bob_sock, watcher):
        await s.open()
    tasks = [asyncio.create_task(p.run()) for p in players]
    try:
        await assert_follows_every_version(watcher, match.pk, versions=12, deadline=deadline)
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    data = await db(stored, match.pk)
    assert any(e["by_computer"] for e in data["entries"])
    for s in (alice_sock, bob_sock, watcher):
        await s.close()

    # The lock is the process's: killed, the server is replaced by another at once.
    first.kill()
    await asyncio.to_thread(second.start)
    assert second.running


async def test_with_redis_a_second_in_process_worker_leaves_the_computers_to_the_first(
    procs: Processes, users: Any
) -> None:
    alice, bob = await db(users, "alice", "bob")
    match = await db(new_match, alice, bob)
    redis = procs.redis()
    first = procs.daphne(redis_url=redis.url, computer_delay=0.05, COMPUTER_WORKER="on")
    second = procs.daphne(redis_url=redis.url, computer_delay=0.05, COMPUTER_WORKER="on")
    refusal = [
        line for line in second.log().splitlines() if "computer players: another process" in line
    ]
    assert len(refusal) == 1, second.log()
    assert not [line for line in first.log().splitlines() if "another process" in line]

    # A page on the second server follows what people on the first and the computers do.
    deadline = time.monotonic() + 60
    stop = asyncio.Event()
    players = [
        Player(
            TableSocket(first, match.pk, cookie=await db(session_cookie, u), name=u.username),
            stop=stop,
            deadline=deadline,
        )
        for u in (alice, bob)
    ]
    watcher = TableSocket(second, match.pk, watch=match.watch_token, name="spectator@second")
    for s in [p.sock for p in players] + [watcher]:
        await s.open()
    tasks = [asyncio.create_task(p.run()) for p in players]
    try:
        await assert_follows_every_version(watcher, match.pk, versions=12, deadline=deadline)
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    for s in [p.sock for p in players] + [watcher]:
        await s.close()
