"""The table's database threads (games/table/threads.py): waiting until they are idle, and
the server's shutdown letting the calls under way end while its loop still runs."""

from __future__ import annotations

import asyncio
import time

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from games.table import threads


def test_idle_waits_for_every_call_given_before() -> None:
    ended: list[str] = []
    threads.DATABASE_THREADS.submit(lambda: (time.sleep(0.3), ended.append("call")))
    assert threads.idle(timeout=5)
    assert ended == ["call"]


def test_idle_says_when_its_time_ran_out() -> None:
    threads.DATABASE_THREADS.submit(time.sleep, 1.0)
    assert not threads.idle(timeout=0.2)
    assert threads.idle(timeout=5)


@pytest.mark.asyncio
async def test_drain_lets_a_call_under_way_hand_its_notice_to_the_loop() -> None:
    """A call that, like a move's, hands a notice to the loop when it ends: the drain returns
    once it has, so the loop may stop with no thread left waiting for it."""
    told: list[str] = []

    async def notice() -> None:
        told.append("notice")

    def call() -> None:
        time.sleep(0.3)  # the call is under way when the shutdown comes
        async_to_sync(notice)()

    under_way = asyncio.ensure_future(
        sync_to_async(call, thread_sensitive=False, executor=threads.DATABASE_THREADS)()
    )
    await asyncio.sleep(0.05)
    await threads.drain(timeout=5)
    assert told == ["notice"] and under_way.done()
