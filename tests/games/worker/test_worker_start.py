"""The computer players start with the server and never stay frozen.

- where the loop runs: in the server process without a shared layer; with REDIS_URL in
  ``manage.py run_computers`` only (COMPUTER_WORKER overrides either way);
- servers that speak ASGI lifespan start it at ``startup`` and stop it at ``shutdown``
  (daphne does not: tablesite/asgi.py schedules it on daphne's loop, tested with a real
  daphne in tests/faults/test_pause_kill.py);
- a single server starting up clears every pause left in the database (their
  connections died with the previous process); a worker clears the expired ones;
- two workers never take the same move (FOR UPDATE SKIP LOCKED).
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator
from django.utils import timezone

from games import services
from games import worker as computers
from games.models import Pause
from games.reads import selectors
from tests.games.table.socket.conftest import db, snapshot

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    ("redis", "setting", "runs"),
    [
        (None, "", True),
        ("redis://127.0.0.1:6379/0", "", False),
        (None, "off", False),
        ("redis://127.0.0.1:6379/0", "on", True),
    ],
)
async def test_the_server_runs_the_computers_only_without_a_shared_layer(
    settings: Any, monkeypatch: pytest.MonkeyPatch, redis: str | None, setting: str, runs: bool
) -> None:
    settings.REDIS_URL = redis
    monkeypatch.setenv("COMPUTER_WORKER", setting)
    assert computers.enabled() is runs


async def test_lifespan_starts_the_worker_with_the_server_and_stops_it(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tablesite.asgi import application

    settings.REDIS_URL = None
    monkeypatch.setenv("COMPUTER_WORKER", "")
    server = ApplicationCommunicator(application, {"type": "lifespan"})
    try:
        await server.send_input({"type": "lifespan.startup"})
        assert await server.receive_output(10) == {"type": "lifespan.startup.complete"}
        task = computers._running["task"]
        assert task is not None and not task.done()
        assert computers._running[
            "worker"
        ].clear_all_pauses  # the only server: no pause is anyone's yet
        await server.send_input({"type": "lifespan.shutdown"})
        assert await server.receive_output(10) == {"type": "lifespan.shutdown.complete"}
        assert task.done() and computers._running["task"] is None
    finally:
        await computers.stop_in_process()


async def test_start_up_clears_dead_pauses_and_the_computers_play(
    make_match: Any, alice: Any
) -> None:
    match = await db(make_match, "computer", "me", "computer")
    # A pause of a connection of the previous process, renewed a second before it was killed.
    await db(services.pause_open, match_id=match.pk, user=alice, channel="specific.dead!conn")
    assert await db(selectors.paused, match)
    worker = computers.ComputerWorker(delay=0, clear_all_pauses=True)
    await db(worker._pass)
    assert not await db(lambda: Pause.objects.exists())
    assert (await db(snapshot, match.pk))[0] > match.version  # a computer moved


async def test_a_worker_apart_clears_expired_pauses_only(make_match: Any, alice: Any) -> None:
    live = await db(make_match, "computer", "me")
    dead = await db(make_match, "computer", "me")
    await db(services.pause_open, match_id=live.pk, user=alice, channel="live")
    await db(services.pause_open, match_id=dead.pk, user=alice, channel="dead")
    await db(
        lambda: Pause.objects.filter(channel="dead").update(
            alive_at=timezone.now() - selectors.PAUSE_TIMEOUT - timedelta(seconds=1)
        )
    )
    worker = computers.ComputerWorker(delay=0)  # run_computers: other servers' pauses may be live
    await db(worker._pass)
    assert await db(lambda: list(Pause.objects.values_list("channel", flat=True))) == ["live"]
    assert (await db(snapshot, live.pk))[0] == live.version  # still paused
    assert (await db(snapshot, dead.pk))[0] > dead.version


async def test_two_workers_never_take_the_same_move(make_match: Any) -> None:
    match = await db(make_match, "computer:casual", "computer:casual")
    first, second = computers.ComputerWorker(delay=3600), computers.ComputerWorker(delay=3600)
    # Both due at once (the match's last change is an hour old); they race for the row.
    await db(
        lambda: (
            type(match)
            .objects.filter(pk=match.pk)
            .update(updated_at=timezone.now() - timedelta(hours=2))
        )
    )

    def in_own_thread(worker: computers.ComputerWorker) -> Any:
        from django.db import connection

        try:
            return worker.run_once()
        finally:
            connection.close()

    results = await asyncio.gather(
        *(sync_to_async(in_own_thread, thread_sensitive=False)(w) for w in (first, second))
    )
    assert sum(steps for steps, _wait in results) == 1
    assert (await db(snapshot, match.pk))[0] == match.version + 1


async def test_lifespan_start_fails_while_another_server_holds_the_database(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a shared layer a second server does not start (one log line)."""
    import psycopg
    from django.db import connection

    from tablesite.asgi import application
    from tests.servers import database_url

    settings.REDIS_URL = None
    monkeypatch.setenv("COMPUTER_WORKER", "")
    settings.COMPUTER_LOCK_WAIT = 0.2
    other = await psycopg.AsyncConnection.connect(
        database_url(connection.settings_dict), autocommit=True
    )
    try:
        await other.execute("SELECT pg_advisory_lock(%s, %s)", computers.LOCK_KEY)
        server = ApplicationCommunicator(application, {"type": "lifespan"})
        await server.send_input({"type": "lifespan.startup"})
        assert (await server.receive_output(10))["type"] == "lifespan.startup.failed"
        assert computers._running["task"] is None
    finally:
        await other.close()
    # The other server gone, this one starts (and holds the lock until its shutdown).
    server = ApplicationCommunicator(application, {"type": "lifespan"})
    try:
        await server.send_input({"type": "lifespan.startup"})
        assert await server.receive_output(10) == {"type": "lifespan.startup.complete"}
        assert computers._lock["connection"] is not None
        await server.send_input({"type": "lifespan.shutdown"})
        assert await server.receive_output(10) == {"type": "lifespan.shutdown.complete"}
        assert computers._lock["connection"] is None
    finally:
        await computers.stop_in_process()
    # Released for real: another session takes it at once.
    other = await psycopg.AsyncConnection.connect(
        database_url(connection.settings_dict), autocommit=True
    )
    try:
        taken = await (
            await other.execute("SELECT pg_try_advisory_lock(%s, %s)", computers.LOCK_KEY)
        ).fetchone()
        assert taken == (True,)
    finally:
        await other.close()


def backend_of_the_claim() -> int:
    with computers._lock["connection"].cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


async def test_a_lock_lost_with_its_connection_is_taken_again_or_said_lost(
    settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """The database drops the lock's connection (a restart): the worker's beat takes the lock
    again; if another server took it meanwhile, one critical line says two now run."""
    import psycopg
    from django.db import connection

    from tests.servers import database_url

    settings.REDIS_URL = None
    url = database_url(connection.settings_dict)
    other = await psycopg.AsyncConnection.connect(url, autocommit=True)
    try:
        assert await db(computers.claim, 1.0)
        first = await db(backend_of_the_claim)
        await other.execute("SELECT pg_terminate_backend(%s)", (first,))
        await db(computers.keep_claim)
        second = await db(backend_of_the_claim)
        assert second != first and await db(computers.lock_holder) == second

        await other.execute("SELECT pg_terminate_backend(%s)", (second,))
        await other.execute(
            "SELECT pg_advisory_lock(%s, %s)", computers.LOCK_KEY
        )  # another server, quicker
        with caplog.at_level("CRITICAL", logger="games.worker"):
            await db(computers.keep_claim)
            await db(computers.keep_claim)  # said once, then no longer asked
        lost = [
            r.getMessage()
            for r in caplog.records
            if "lost the PostgreSQL advisory lock" in r.getMessage()
        ]
        assert len(lost) == 1 and "their pages stall" in lost[0], lost
        assert computers._lock["connection"] is None and not computers._lock["wanted"]
    finally:
        await other.close()
        await db(computers.release)
