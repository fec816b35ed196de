"""HAProxy in front of two daphnes (+ Redis + the computer worker).

- Routing: through the proxy, a table's page and every one of its sockets (players and
  spectators) land on one process (the proxy names it in ``X-Served-By``); tables are
  spread over both processes (consistent hashing on the match id).
- A process dies: kill -9 of the daphne holding a table in the middle of its match. The
  proxy's health check takes it out; the pages reconnect through the proxy to the other
  process, resync (each first board there is the database's version), and play goes
  on; no acknowledged action is lost, nothing is applied twice, the computers carry on.
- Bodies over the limit are refused by the proxy itself (413) before reaching a daphne.
"""

from __future__ import annotations

import asyncio
import socket
import time
import urllib.request
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
from tests.servers import Processes, Proxy, TableSocket, session_cookie

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True), pytest.mark.slow]

#: human commands sent before the kill, and acknowledged ones wanted after it
KILL_AFTER = 10
AFTER_KILL = 8
TIME_LIMIT = 120.0


def site(procs: Processes) -> tuple[Proxy, list[Any]]:
    """Redis, two daphnes (no computers in them), run_computers, and the proxy in front."""
    redis = procs.redis()
    daphnes = [
        procs.daphne(redis_url=redis.url, computer_delay=0.02, COMPUTER_WORKER="") for _ in range(2)
    ]
    procs.computers(redis_url=redis.url, computer_delay=0.02, COMPUTER_WORKER="")
    return procs.proxy(daphnes), daphnes


def page_served_by(proxy: Proxy, match_id: int, cookie: str) -> str:
    request = urllib.request.Request(
        f"{proxy.url}/m/{match_id}/", headers={"Cookie": f"sessionid={cookie}"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200
        return str(response.headers["X-Served-By"])


async def test_through_the_proxy_a_tables_connections_meet_in_one_process(
    procs: Processes, users: Any
) -> None:
    alice, bob = await db(users, "alice", "bob")
    proxy, _daphnes = site(procs)
    cookies = {"alice": await db(session_cookie, alice), "bob": await db(session_cookie, bob)}
    # Tables until both processes hold some (a match id's place is fixed by the hash).
    by_table: dict[int, str] = {}
    while len(set(by_table.values())) < 2:
        assert len(by_table) < 40, f"every table went to one process: {by_table}"
        match = await db(new_match, alice, bob, 5150 + len(by_table))
        by_table[match.pk] = await asyncio.to_thread(
            page_served_by, proxy, match.pk, cookies["alice"]
        )
    for match_id, server in list(by_table.items())[-4:]:
        watch_token = await db(stored_token, match_id)
        socks = [
            TableSocket(proxy, match_id, cookie=cookies["alice"], name="alice"),
            TableSocket(proxy, match_id, cookie=cookies["bob"], name="bob"),
            TableSocket(proxy, match_id, watch=watch_token, name="spectator"),
            TableSocket(proxy, match_id, watch=watch_token, name="spectator 2"),
        ]
        for s in socks:
            await s.open()
            assert (await s.expect("board"))["version"] >= 1
        assert {s.served_by[0] for s in socks} == {server}, (
            match_id,
            server,
            [s.served_by for s in socks],
        )
        # Its page again, bob's this time: the same process.
        assert await asyncio.to_thread(page_served_by, proxy, match_id, cookies["bob"]) == server
        for s in socks:
            await s.close()
    assert "[ALERT]" not in proxy.log(), proxy.log()


def stored_token(match_id: int) -> str:
    from games.models import Match

    return str(Match.objects.values_list("watch_token", flat=True).get(pk=match_id))


async def test_kill_9_of_the_tables_process_behind_the_proxy_loses_nothing_and_pages_resync(
    procs: Processes, users: Any
) -> None:
    alice, bob = await db(users, "alice", "bob")
    match = await db(new_match, alice, bob)
    proxy, _daphnes = site(procs)
    deadline = time.monotonic() + TIME_LIMIT
    stop = asyncio.Event()
    killed: dict[str, Any] = {}

    async def version_now() -> int:
        return int(await db(version_of, match.pk))

    def kill_after_enough(player: Player) -> None:
        # Right after a send: that command may or may not have been committed.
        if not killed and sum(len(p.sent) for p in players[:2]) >= KILL_AFTER:
            name = player.sock.served_by[-1]
            assert name is not None
            proxy.server_named(name).kill()
            killed["name"] = name

    players = [
        Player(
            TableSocket(proxy, match.pk, cookie=await db(session_cookie, u), name=u.username),
            stop=stop,
            deadline=deadline,
            on_sent=kill_after_enough,
            version_now=version_now,
        )
        for u in (alice, bob)
    ]
    players.append(
        Player(
            TableSocket(proxy, match.pk, watch=match.watch_token, name="spectator"),
            stop=stop,
            deadline=deadline,
            version_now=version_now,
            act=False,
        )
    )
    for p in players:
        await p.sock.open()
    first = {p.sock.served_by[0] for p in players}
    assert len(first) == 1 and None not in first, first  # one table, one process
    tasks = [asyncio.create_task(p.run()) for p in players]

    async def until(condition: Any, what: str) -> None:
        while not condition():
            assert time.monotonic() < deadline, f"{what}\n{procs.logs()}"
            assert not any(t.done() for t in tasks), [t.exception() for t in tasks if t.done()]
            await asyncio.sleep(0.02)

    try:
        await until(
            lambda: killed, "the players never sent enough to kill the table's process mid-match"
        )
        acked_before = sum(len(p.sock.acks) for p in players)
        await until(
            lambda: sum(len(p.sock.acks) for p in players) >= acked_before + AFTER_KILL,
            "play did not go on through the proxy after the kill",
        )
        # The proxy's health check has taken the dead process out.
        await until(
            lambda: (
                proxy.up() == {killed["name"]: False, ({"d1", "d2"} - {killed["name"]}).pop(): True}
            ),
            "the proxy never marked the killed process down",
        )
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    assert all(t.exception() is None for t in tasks), [t.exception() for t in tasks]

    # Every page lost its connection and came back, to the other process, at the current board.
    for p in players:
        assert p.drops >= 1 and p.reconnects, p.sock.name
        assert p.sock.served_by[-1] not in (None, killed["name"]), p.sock.served_by
    assert_reconnects_got_the_current_board(players)

    final_version = await wait_quiet(match.pk)
    await settle(players, final_version)  # every page holds the stored version
    data = await db(stored, match.pk)
    assert data["version"] == final_version
    assert assert_acknowledged_actions_stored(players, data) >= KILL_AFTER - 2 + AFTER_KILL
    assert_resumable(data)
    version_at_kill = min(p.reconnects[0][0] for p in players)
    assert any(e["by_computer"] and e["version"] > version_at_kill for e in data["entries"])
    for p in players:
        await p.sock.close()


async def test_the_proxy_refuses_a_body_over_the_limit_itself(procs: Processes) -> None:
    proxy, daphnes = site(procs)
    with socket.create_connection(("127.0.0.1", proxy.port)) as sock:
        sock.sendall(
            f"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1:{proxy.port}\r\n"
            f"Content-Length: {300 * 1_000_000}\r\n\r\n".encode()
        )
        sock.settimeout(10)
        answer = sock.recv(65536)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert "zu groß" in answer.decode(errors="replace")
    for d in daphnes:
        assert "413" not in d.log()  # never reached a daphne


async def test_the_shipped_template_is_a_valid_configuration(tmp_path: Any) -> None:
    """deploy/haproxy.cfg.template, filled for three daphnes, passes ``haproxy -c``, with the
    table routing, the health check and the body limit in it."""
    import subprocess

    from tablesite.edge import body_limit
    from tablesite.haproxy import render
    from tests.servers import HAPROXY, require

    require(HAPROXY, "haproxy")
    config = render(
        bind="127.0.0.1:8000",
        servers=["127.0.0.1:8001", "127.0.0.1:8002", "127.0.0.1:8003"],
        stats_socket=str(tmp_path / "s.sock"),
    )
    path = tmp_path / "haproxy.cfg"
    path.write_text(config)
    checked = await asyncio.to_thread(
        subprocess.run, [HAPROXY, "-c", "-f", str(path)], capture_output=True, text=True, timeout=30
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "balance hash var(txn.table)" in config and "hash-type consistent" in config
    assert "server d3 127.0.0.1:8003" in config and "uri /healthz" in config
    assert f"gt {body_limit()} }}" in config
