"""Every process on a database speaks one channel layer, or it does not serve
(games.processes.servers).

A server started without ``REDIS_URL`` beside servers on Redis (or on another Redis, or
another database number of it) served pages that never heard the others' moves. Now:

- the layer's identity (`tablesite.env.layer_identity`) is equal for processes that hear
  each other and different otherwise, and holds no password;
- at start, a process whose layer differs from a running process's refuses, in one log
  line naming both layers (memory beside Redis, Redis beside memory, another database
  number, another Redis); the same layer starts; a process gone no longer counts;
- a running server that finds an older process of another layer goes out of service: one
  log line, health check 503, its table sockets closed with 4503 and new ones refused,
  until that process is gone.

The same with real daphne processes: tests/faults/test_layer_agreement.py.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator

from games.models import Server
from games.processes import servers
from tablesite.env import channel_layers, layer_identity
from tests.games.table.socket.conftest import TIMEOUT, db

MEMORY = layer_identity(channel_layers(None), machine="web1")
REDIS = layer_identity(channel_layers("redis://:s3cret@127.0.0.1:6379/0"), machine="web1")
REDIS_DB1 = layer_identity(channel_layers("redis://:s3cret@127.0.0.1:6379/1"), machine="web1")
OTHER_REDIS = layer_identity(channel_layers("redis://10.0.0.9:6379/0"), machine="web1")


def identity(url: str | None, machine: str = "web1") -> tuple[str, str]:
    return layer_identity(channel_layers(url), machine=machine)


def test_identity_is_where_the_messages_go_and_holds_no_secret() -> None:
    assert MEMORY[0] == "memory"
    assert REDIS[0].startswith("redis:")
    assert len({MEMORY[0], REDIS[0], REDIS_DB1[0], OTHER_REDIS[0]}) == 4
    assert identity("redis://localhost:6379") == identity("redis://127.0.0.1:6379/0")[:1] + (
        "Redis redis://localhost:6379/0 on web1",
    )
    assert identity("redis://127.0.0.1:6379?db=1")[0] == REDIS_DB1[0]
    assert identity("redis://user:other@127.0.0.1:6379/0")[0] == REDIS[0]
    # a loopback address is each machine's own Redis
    assert identity("redis://127.0.0.1:6379/0", machine="web2")[0] != REDIS[0]
    assert identity("redis://10.0.0.9:6379/0", machine="web2") == OTHER_REDIS
    assert REDIS[1] == "Redis redis://127.0.0.1:6379/0 on web1"
    for key, label in (REDIS, REDIS_DB1):
        assert "s3cret" not in key + label


@pytest.fixture
def others() -> Iterator[list[servers.Member]]:
    """Processes "running" on the test database: memberships joined here, left after the test."""
    joined: list[servers.Member] = []
    yield joined
    for member in joined:
        member.leave()
    servers.leave()


def running(others: list[servers.Member], layer: tuple[str, str], kind: str = "server") -> Any:
    member = servers.Member(kind=kind, layer=layer[0], label=layer[1])
    member.join()
    others.append(member)
    return member


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("theirs", "mine"),
    [
        (REDIS, MEMORY),  # no REDIS_URL beside servers on Redis (the third daphne)
        (MEMORY, REDIS),  # Redis beside a server without it
        (REDIS, REDIS_DB1),  # another database number of the same Redis
        (REDIS, OTHER_REDIS),  # another Redis
    ],
    ids=["memory-beside-redis", "redis-beside-memory", "another-db-number", "another-redis"],
)
def test_a_process_of_another_layer_refuses_to_start_in_one_line(
    others: list[servers.Member],
    caplog: pytest.LogCaptureFixture,
    theirs: tuple[str, str],
    mine: tuple[str, str],
) -> None:
    running(others, theirs)
    running(others, theirs, kind="computers")
    with caplog.at_level("INFO"):
        assert servers.agree_at_start(layer=mine, wait=0) is False
    lines = [r for r in caplog.records if r.levelname in ("CRITICAL", "ERROR", "WARNING")]
    assert len(lines) == 1, [r.getMessage() for r in lines]
    line = lines[0].getMessage()
    assert lines[0].levelname == "CRITICAL" and "refuses to start" in line
    assert mine[1] in line and theirs[1] in line and "REDIS_URL" in line
    assert "this server refuses to start" in line and "the 2 processes already running" in line
    assert f"server {socket.gethostname()}:" in line and "run_computers " in line
    assert "s3cret" not in line
    # it never counted: only the two running ones are recorded
    assert servers.member() is None
    assert sorted(Server.objects.values_list("kind", flat=True)) == ["computers", "server"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("layer", [REDIS, MEMORY], ids=["redis", "memory"])
def test_the_same_layer_starts(others: list[servers.Member], layer: tuple[str, str]) -> None:
    """Two of the in-memory layer agree here; the computers' lock refuses the second
    (games.worker `claim_at_start`, tests/games/worker/test_worker_start.py)."""
    running(others, layer)
    assert servers.agree_at_start(layer=layer, wait=0) is True
    mine = servers.member()
    assert mine is not None and servers.serving()
    assert Server.objects.get(pk=mine.id).layer == layer[0]


@pytest.mark.django_db(transaction=True)
def test_a_process_gone_no_longer_counts_and_its_row_goes(
    others: list[servers.Member],
) -> None:
    gone = running(others, REDIS)
    with gone.connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    killed = running(others, REDIS)
    # killed: its row stays, its lock ends with its connection
    with killed.connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [backend])
    others.remove(gone)
    deadline = time.monotonic() + 10  # the backend ends a moment after it is told to
    while killed.others() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert servers.agree_at_start(layer=MEMORY, wait=0) is False  # `killed` still runs
    killed.leave()
    others.remove(killed)
    assert servers.agree_at_start(layer=MEMORY, wait=0) is True
    mine = servers.member()
    assert mine is not None
    assert list(Server.objects.values_list("pk", flat=True)) == [mine.id]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_server_finding_an_older_process_of_another_layer_stops_serving(
    others: list[servers.Member],
    caplog: pytest.LogCaptureFixture,
    make_match: Any,
    alice: Any,
    connect: Any,
) -> None:
    """It started while the database could not be asked: its beat finds the other."""
    from tablesite.asgi import application

    match = await db(make_match, "me", "computer")
    older = await db(running, others, REDIS)
    mine = servers.Member(kind="server", layer=MEMORY[0], label=MEMORY[1])
    await db(mine.join)
    servers._state.update(member=mine, pid=os.getpid(), out=None)
    page = await connect(match, alice)

    with caplog.at_level("WARNING", logger="games.processes.servers"):
        await db(servers.beat)
        await db(servers.beat)  # said once
    lines = [r.getMessage() for r in caplog.records if r.name == "games.processes.servers"]
    assert len(lines) == 1 and "out of service" in lines[0] and REDIS[1] in lines[0], lines
    assert not servers.serving()
    # its open table socket is closed so the page reconnects elsewhere
    closed = await page.communicator.receive_output(TIMEOUT)
    assert closed == {"type": "websocket.close", "code": 4503}
    # a new one is closed at once
    new = await connect(match, alice, expect_board=False)
    assert await new.communicator.receive_output(TIMEOUT) == {
        "type": "websocket.close",
        "code": 4503,
    }
    # the proxy's health check takes it out
    assert await health(application) == (503, True)

    # the other gone, it serves again
    await db(older.leave)
    caplog.clear()
    with caplog.at_level("WARNING", logger="games.processes.servers"):
        await db(servers.beat)
    assert servers.serving()
    assert ["serving again" in r.getMessage() for r in caplog.records] == [True]
    assert await health(application) == (200, False)
    await connect(match, alice)  # gets its board


async def health(application: Any) -> tuple[int, bool]:
    """The health check's status, and whether its answer says "out of service"."""
    check = ApplicationCommunicator(
        application,
        {"type": "http", "method": "GET", "path": "/healthz", "headers": [], "query_string": b""},
    )
    await check.send_input({"type": "http.request", "body": b""})
    start = await check.receive_output(TIMEOUT)
    body = await check.receive_output(TIMEOUT)
    return start["status"], b"out of service" in body["body"]


@pytest.mark.django_db(transaction=True)
def test_the_beat_joins_again_after_the_database_dropped_the_lock(
    others: list[servers.Member],
) -> None:
    """A database restart ends the lock with its connection: the next beat takes a new one
    (with a new row), and the process still counts and serves."""
    assert servers.agree_at_start(layer=REDIS, wait=0)
    mine = servers.member()
    assert mine is not None and mine.id is not None
    before = mine.id
    with mine.connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    watcher = running(others, REDIS)
    with watcher.connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [backend])
    deadline = time.monotonic() + 10  # the backend ends a moment after it is told to
    while watcher.others() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [o.id for o in watcher.others()] == []  # no longer counts
    servers.beat()
    assert mine.id != before and servers.serving()
    assert [o.id for o in watcher.others()] == [mine.id]


@pytest.mark.django_db(transaction=True)
def test_a_server_started_while_the_database_could_not_be_asked_is_checked_by_its_beat(
    others: list[servers.Member],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    running(others, REDIS)
    join = servers.Member.join

    def down(self: servers.Member) -> None:
        raise ConnectionError("the database is not up yet")

    monkeypatch.setattr(servers.Member, "join", down)
    with caplog.at_level("WARNING", logger="games.processes.servers"):
        assert servers.agree_at_start(layer=MEMORY, wait=0) is True
    assert ["could not ask the database" in r.getMessage() for r in caplog.records] == [True]
    assert servers.serving()

    monkeypatch.setattr(servers.Member, "join", join)
    servers.beat()  # the database answers: joined, and found out
    assert not servers.serving()
    mine = servers.member()
    assert mine is not None and mine.connection is not None
