"""Two requests at once, and a server restart: the database alone holds the match.

These tests commit for real (`transaction=True`): each thread has its own
database connection, as two server processes would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections, transaction

from engine.replay import state_json
from engine.rules import legal_actions
from games import services
from games.errors import GameError
from games.models import LogEntry, Match
from games.reads import selectors
from games.table.commands.undo import match_undo
from tests import reads
from tests.conftest import REPO_ROOT
from tests.games.conftest import Driver, rid, state_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def slow_apply(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hold every service a moment inside its transaction, after the match row is read,
    so that concurrent requests really overlap."""
    real = services.moves._apply

    def slow(*args: Any) -> Any:
        time.sleep(0.3)
        return real(*args)

    monkeypatch.setattr(services.moves, "_apply", slow)


def in_threads(*calls: Callable[[], Any]) -> list[Any]:
    """Run `calls` at the same moment, each in a thread with its own connection."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(k: int) -> None:
        try:
            barrier.wait()
            results[k] = calls[k]()
        except GameError as e:
            results[k] = e
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


@pytest.fixture
def my_turn(make_match: Callable[..., Match], alice: Any, driver: Callable[..., Driver]) -> Driver:
    match = make_match("me", "computer:casual")
    d = driver(match, {0: alice}, rng_seed=21)
    d.until(lambda s: s.turn == 0 and s.phase == "play" and len(legal_actions(s)) >= 1)
    match.refresh_from_db()
    return d


def test_two_submissions_for_one_turn_apply_exactly_once(
    my_turn: Driver, alice: Any, slow_apply: None
) -> None:
    match = my_turn.match
    state = state_of(match)
    version = match.version
    rows = LogEntry.objects.count()
    choices = legal_actions(state)
    first, second = choices[0], choices[-1]

    def send(action: Any) -> Callable[[], Any]:
        return lambda: services.action_submit(
            match_id=match.pk,
            user=alice,
            seat=0,
            action=action.to_json(),
            expected_version=version,
            request_id=rid(),
        )

    results = in_threads(send(first), send(second))
    applied = [r for r in results if isinstance(r, services.Result)]
    refused = [r for r in results if isinstance(r, GameError)]
    assert len(applied) == 1 and len(refused) == 1, results
    assert refused[0].code == "stale"
    match.refresh_from_db()
    assert match.version == version + 1 == applied[0].version
    assert LogEntry.objects.count() == rows + 1


def test_the_same_request_twice_at_once_is_applied_once(
    my_turn: Driver, alice: Any, slow_apply: None
) -> None:
    match = my_turn.match
    action = legal_actions(state_of(match))[0].to_json()
    version = match.version
    rows = LogEntry.objects.count()

    def send() -> Any:
        return services.action_submit(
            match_id=match.pk,
            user=alice,
            seat=0,
            action=action,
            expected_version=version,
            request_id="one-click",
        )

    results = in_threads(send, send)
    assert all(isinstance(r, services.Result) for r in results), results
    assert sorted(r.duplicate for r in results) == [False, True]
    assert {r.version for r in results} == {version + 1}
    assert LogEntry.objects.count() == rows + 1


def test_computer_step_skips_a_match_another_process_holds(
    make_match: Callable[..., Match], alice: Any, driver: Callable[..., Driver]
) -> None:
    match = make_match("computer:casual", "me")
    d = driver(match, {1: alice}, rng_seed=22)
    d.until(lambda s: s.turn == 0)
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                Match.objects.select_for_update().get(pk=match.pk)
                held.set()
                release.wait(10)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(10)
        started = time.monotonic()
        assert services.computer_step(match_id=match.pk) is None
        assert time.monotonic() - started < 2  # skipped, not waited for
    finally:
        release.set()
        holder.join(10)
    assert services.computer_step(match_id=match.pk) is not None


def test_two_workers_never_act_twice_for_one_turn(
    make_match: Callable[..., Match], alice: Any, driver: Callable[..., Driver], slow_apply: None
) -> None:
    match = make_match("computer:casual", "me")
    d = driver(match, {1: alice}, rng_seed=23)
    d.until(lambda s: s.turn == 0)
    match.refresh_from_db()
    version = match.version
    results = in_threads(
        lambda: services.computer_step(match_id=match.pk),
        lambda: services.computer_step(match_id=match.pk),
    )
    acted = [r for r in results if r is not None]
    assert len(acted) == 1 and acted[0].version == version + 1, results
    assert LogEntry.objects.filter(round__match=match, version=version + 1).count() == 1


RESUME = """
import json, sys
import django
django.setup()
from engine.replay import state_json
from games.reads import selectors
from games import services
from games.models import Match
from tests import reads

match = Match.objects.get(pk=int(sys.argv[1]))
snapshot = selectors.match_state(match)
rebuilt = reads.rebuild_state(match)
steps = 0
while services.computer_step(match_id=match.pk) is not None:
    steps += 1
match.refresh_from_db()
print(json.dumps({"same": snapshot == rebuilt, "before": state_json(snapshot), "steps": steps,
                  "version": match.version, "after": state_json(selectors.match_state(match))}))
"""


def test_resume_after_a_server_restart(
    make_match: Callable[..., Match], alice: Any, bob: Any, driver: Callable[..., Driver]
) -> None:
    """Play, undo, then stop: a new process with nothing but the database rebuilds the
    same state from the log, lets the computers play on, and the players continue."""
    match = make_match("me", "computer:casual", "human", "computer")
    services.seat_join(match_id=match.pk, user=bob, token=match.invite_token)
    d = driver(match, {0: alice, 2: bob}, rng_seed=24)
    d.until(lambda s: s.phase == "play" and s.turn == 0)
    d.step()
    match_undo(match_id=match.pk, user=alice, expected_version=d.version, request_id=rid())
    ask = match.change_requests.get()  # bob shares the table: he agrees to the undo
    services.change_answer(match_id=match.pk, user=bob, ask=ask.pk, accept=True, request_id=rid())
    d.step()  # alice plays again; now a computer (seat 1) is to act
    before = state_json(state_of(match))
    settings = connection.settings_dict
    connections.close_all()  # the "server" stops: no connection, no cache survives

    url = f"postgres://{settings['USER']}@{settings['HOST']}:{settings['PORT']}/{settings['NAME']}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DEBUG": "true",
        "DJANGO_SETTINGS_MODULE": "tablesite.settings",
    }
    env.pop("TEST_DATABASE_NAME", None)
    done = subprocess.run(
        [sys.executable, "-c", RESUME, str(match.pk)],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["same"] and report["before"] == before
    assert report["steps"] >= 1  # the computers picked the match up again

    match.refresh_from_db()
    assert match.version == report["version"]
    assert state_json(selectors.match_state(match)) == report["after"]
    assert reads.rebuild_state(match) == selectors.match_state(match)
    state = d.state
    assert state.turn is not None and d.kinds[state.turn] == "human" or state.over
    if not state.over:
        d.step()  # and the players continue
        match.refresh_from_db()
        assert reads.rebuild_state(match) == selectors.match_state(match)
