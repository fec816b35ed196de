"""games.table.passes: the boards of a table told of a version are made in one database hop.

A pass takes the jobs that join it until its thread starts on it and finds none left;
each caller gets back its own job's result or exception, and a job that joins after
the pass ended starts another. The threads here are a one-thread executor held busy
by a first job, so the others are known to be waiting when they join.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from games.table import passes

pytestmark = pytest.mark.asyncio


class Counting(ThreadPoolExecutor):
    """An executor that counts the calls it is given (one per database hop)."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.hops = 0

    def submit(self, *args: Any, **kwargs: Any) -> Any:
        self.hops += 1
        return super().submit(*args, **kwargs)


async def test_jobs_waiting_for_the_thread_are_made_in_one_hop_each_getting_its_own() -> None:
    pool = Counting()
    release = threading.Event()
    busy = pool.submit(release.wait)  # the only thread is taken: the pass waits for it
    made: list[tuple[str, str]] = []

    def job(name: str) -> Any:
        def make() -> str:
            made.append((name, threading.current_thread().name))
            return f"board of {name}"
        return make

    calls = [asyncio.ensure_future(passes.run(7, job(name), executor=pool)) for name in ("a", "b", "c", "d")]
    await asyncio.sleep(0.05)
    assert not any(c.done() for c in calls)
    release.set()
    results = await asyncio.wait_for(asyncio.gather(*calls), 10)
    busy.result()
    assert results == ["board of a", "board of b", "board of c", "board of d"]
    assert [name for name, _thread in made] == ["a", "b", "c", "d"]
    assert len({thread for _name, thread in made}) == 1
    assert pool.hops == 2  # the busy job, then one pass for the four boards
    # The pass is over: the next job starts another.
    assert await asyncio.wait_for(passes.run(7, job("e"), executor=pool), 10) == "board of e"
    assert pool.hops == 3
    pool.shutdown()


async def test_a_failing_job_fails_its_own_caller_only() -> None:
    pool = Counting()
    release = threading.Event()
    busy = pool.submit(release.wait)

    def broken() -> Any:
        raise LookupError("this connection's board failed")

    ok_before = asyncio.ensure_future(passes.run(8, lambda: 1, executor=pool))
    failing = asyncio.ensure_future(passes.run(8, broken, executor=pool))
    ok_after = asyncio.ensure_future(passes.run(8, lambda: 2, executor=pool))
    await asyncio.sleep(0.05)
    release.set()
    busy.result()
    assert await asyncio.wait_for(ok_before, 10) == 1
    with pytest.raises(LookupError, match="this connection's board failed"):
        await asyncio.wait_for(failing, 10)
    assert await asyncio.wait_for(ok_after, 10) == 2
    assert pool.hops == 2
    pool.shutdown()


async def test_matches_have_passes_of_their_own() -> None:
    pool = Counting()
    release = threading.Event()
    busy = pool.submit(release.wait)
    calls = [asyncio.ensure_future(passes.run(match, lambda m=match: m, executor=pool)) for match in (1, 2, 1, 2)]
    await asyncio.sleep(0.05)
    release.set()
    busy.result()
    assert await asyncio.wait_for(asyncio.gather(*calls), 10) == [1, 2, 1, 2]
    assert pool.hops == 3  # the busy job and one pass per match
    pool.shutdown()


async def test_a_refused_pass_fails_its_callers_instead_of_leaving_them_waiting() -> None:
    pool = Counting()
    pool.shutdown()  # submit now raises
    with pytest.raises(RuntimeError):
        await asyncio.wait_for(passes.run(9, lambda: 1, executor=pool), 10)
