"""The computer-player worker (games/worker/): driven from the database, paced, paused (R26),
safe with several workers at once, started once per server process."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from django.utils import timezone

from engine.bots import choose
from engine.views import view
from games import services
from games import worker as computers
from games.models import LogEntry, Match
from games.worker import ComputerWorker, step_when_due
from tests.games.table.socket.conftest import db, phase_of, play, rid, snapshot, state_of

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_r25_computers_play_a_whole_round_against_a_scripted_human_through_the_loop(
    make_match: Any, alice: Any, connect: Any
) -> None:
    match = await db(make_match, "me", "computer:casual", "computer:expert", "computer:casual")
    me = await connect(match, alice)
    worker = ComputerWorker(delay=0, poll=0.02)
    loop = asyncio.create_task(worker.run())
    my_moves = 0
    try:
        board = me.last_board
        assert board is not None
        for _ in range(2000):
            if phase_of(board) == "round_over":
                break
            if board["your_turn"]:
                state = await db(state_of, match.pk)
                assert state.turn == 0 and board["version"] == (await db(snapshot, match.pk))[0]
                action = choose(view(state, 0), "casual")  # alice sees only her own view
                await me.send(
                    type="act",
                    seat=0,
                    action=action.to_json(),
                    version=board["version"],
                    request_id=rid(),
                )
                my_moves += 1
            board = await me.board(at_least=board["version"] + 1, timeout=20)
        else:
            raise AssertionError("the round did not end")
    finally:
        worker.stop()
        await loop
    state = await db(state_of, match.pk)
    assert state.over and my_moves > 0
    entries = await db(
        lambda: list(
            LogEntry.objects.filter(round__match_id=match.pk).values_list("seat", "by_computer")
        )
    )
    assert {seat for seat, by_computer in entries if by_computer} == {1, 2, 3}
    assert all(not by_computer for seat, by_computer in entries if seat == 0)
    assert worker.steps == sum(1 for _seat, by_computer in entries if by_computer)
    assert board["version"] == (await db(snapshot, match.pk))[0]
    kinds = [json.loads(f)["type"] for f in me.frames]
    assert "error" not in kinds and kinds.count("ack") == my_moves


async def test_r26_an_open_panel_stops_the_worker(
    make_match: Any, alice: Any, connect: Any
) -> None:
    match = await db(make_match, "me", "computer")
    await db(play, match.pk, {0: alice}, until=lambda s: s.turn == 1)
    me = await connect(match, alice)
    worker = ComputerWorker(delay=0)
    await me.send(type="panel", open=True)
    await me.expect("board")
    before = await db(snapshot, match.pk)
    for _ in range(3):
        steps, wait = await db(worker.run_once)
        # nothing done; the loop is to look again when the pause would expire
        assert steps == 0 and wait is not None and 25 < wait <= 30.01
    assert await db(snapshot, match.pk) == before
    await me.send(type="panel", open=False)
    await me.expect("board")
    steps, _wait = await db(worker.run_once)
    assert steps == 1 and (await db(snapshot, match.pk))[0] == before[0] + 1


async def test_the_delay_paces_a_matchs_computer_actions(make_match: Any, alice: Any) -> None:
    match = await db(make_match, "me", "computer")
    await db(play, match.pk, {0: alice}, until=lambda s: s.turn == 1)
    # Just changed: not due for a minute; the pass says when to look again.
    assert await db(step_when_due, match.pk, delay=60) is None
    steps, wait = await db(ComputerWorker(delay=60).run_once)
    assert steps == 0 and wait is not None and 55 < wait <= 60
    await db(
        lambda: Match.objects.filter(pk=match.pk).update(
            updated_at=timezone.now() - timezone.timedelta(minutes=2)
        )
    )
    assert await db(step_when_due, match.pk, delay=60) is not None


async def test_two_workers_at_once_act_once_each_time_and_keep_the_pace(
    make_match: Any, alice: Any
) -> None:
    """Like two server processes: each worker has its own thread and database connection."""
    matches = [
        await db(make_match, "computer:casual", "computer:casual", creator=alice) for _ in range(2)
    ]
    delay = 0.25
    workers = [ComputerWorker(delay=delay, poll=0.02) for _ in range(2)]
    loops = [asyncio.create_task(w.run()) for w in workers]

    def logged(m: Any) -> list[Any]:
        return list(
            LogEntry.objects.filter(round__match_id=m.pk)
            .order_by("round__number", "seq")
            .values_list("created_at", flat=True)
        )

    # Until both matches have moved on a few times (at their pace, about a second).
    deadline = asyncio.get_running_loop().time() + 30
    while min([len(await db(logged, m)) for m in matches]) < 4:
        assert asyncio.get_running_loop().time() < deadline, "the workers stopped playing"
        await asyncio.sleep(0.05)
    for w in workers:
        w.stop()
    await asyncio.gather(*loops)
    for match in matches:
        times = await db(logged, match)
        assert len(times) >= 4  # both kept the match going
        gaps = [(b - a).total_seconds() for a, b in zip(times, times[1:], strict=False)]
        assert min(gaps) >= delay * 0.95, gaps
        # The log and the snapshot agree: no action was taken twice.
        assert await db(lambda m=match: Match.objects.get(pk=m.pk).version) == len(times) + 1
    assert sum(w.steps for w in workers) == sum(
        [
            len(await db(lambda m=m: list(LogEntry.objects.filter(round__match_id=m.pk))))
            for m in matches
        ]
    )


async def test_a_match_of_computers_only_goes_on_past_the_round_end(
    make_match: Any, alice: Any
) -> None:
    match = await db(make_match, "computer:casual", "computer:casual", creator=alice)
    worker = ComputerWorker(delay=0)
    for _ in range(1000):
        await db(worker.run_once)
        if (await db(state_of, match.pk)).round == 2:
            break
    else:
        raise AssertionError("the worker stopped at the end of round 1")
    assert await db(lambda: Match.objects.get(pk=match.pk).rounds.get(number=1).ended_by)


async def test_a_failing_match_is_set_aside_and_the_others_go_on(
    make_match: Any, alice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken, fine = [await db(make_match, "me", "computer", creator=alice) for _ in range(2)]
    for match in (broken, fine):
        await db(play, match.pk, {0: alice}, until=lambda s: s.turn == 1)
    real = services.computer_step

    def step(*, match_id: int) -> Any:
        if match_id == broken.pk:
            raise RuntimeError("a bug in a computer player")
        return real(match_id=match_id)

    monkeypatch.setattr(services, "computer_step", step)
    worker = ComputerWorker(delay=0)
    steps, _wait = await db(worker.run_once)
    assert steps == 1 and broken.pk in worker.failed
    assert (await db(snapshot, fine.pk))[0] > fine.version


async def test_started_once_per_process_and_only_when_enabled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        calls.append(scope["type"])

    wrapped = computers.WithComputerWorker(app)
    await wrapped({"type": "http"}, None, None)
    assert calls == ["http"] and computers._running["task"] is None  # COMPUTER_WORKER=off here
    monkeypatch.setenv("COMPUTER_WORKER", "on")
    try:
        await wrapped({"type": "websocket"}, None, None)
        task = computers._running["task"]
        assert task is not None and not task.done()
        assert computers.start_in_process() is False  # already running in this process
        assert computers._running["task"] is task
    finally:
        await computers.stop_in_process()
    assert task.done() and computers._running["task"] is None
