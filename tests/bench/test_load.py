"""The load benchmark (bench/load.py) run tiny: two tables for a few seconds, one daphne
process, then two daphne processes sharing Redis (one run of the bench, ``--mode one,split``),
then open loop with spectators in one process and behind HAProxy (a second run, ``--mode
one,proxy``). It must print every number the issue asks for in each mode's report, play
real moves over the websockets with no error, and leave nothing behind (no server process,
no database). A run's modes share its database (created and migrated, the most of a tiny
run), its floor and its cost growth; each mode's report and load are checked on their own.

Needs PostgreSQL (DATABASE_URL's server, as every test here) and, for the modes on Redis,
Debian's redis-server: a private one on a free port (`tests.servers.Redis`). bench/load.py
empties the Redis database it is given, and two test processes may run it at once."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import psycopg
import pytest

from tests.servers import processes

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow

LINES = [
    r"load benchmark: 2 tables x 4 seats",
    r"load average before [\d.]+ [\d.]+ [\d.]+",
    r"actions per second: [\d.]+",
    r"latency, send -> every seat (and spectator )?holds the new version: p50 [\d.]+ ms, p95 [\d.]+ ms, p99 [\d.]+ ms",
    r"errors: 0$",
    r"server CPU: [\d.]+ s user\+sys .* peak RSS: [\d, ]+ MB",
    r"ack latency, send -> the acting seat's ack: p50 [\d.]+ ms, p95 [\d.]+ ms, p99 [\d.]+ ms",
    r"frames to players \(.*\): median [\d.]+ kB, p95 [\d.]+ kB",
    r"database CPU: [\d.]+ s \([\d.]+ ms per action; /proc of the PostgreSQL backends",
    r"server garbage collection: longest pause .* collections by generation \[\d+, \d+, \d+\]",
    r"client CPU \(this process, collector frozen during play\): [\d.]+ s",
    r"floor \(bare psycopg, 1 transaction = INSERT log row \+ UPDATE match row\): \d+ actions/s",
    r"persisted actions per second: [\d.]+ .* ratio to the floor [\d.]+ \[target >= 0.5: (met|MISSED)\]",
    r"cost growth \(one match, services.action_submit; the two windows timed turn about\): actions 1-5 median [\d.]+ ms, "
    r"actions 31-35 median [\d.]+ ms: ratio [\d.]+; CPU time [\d.]+ -> [\d.]+ ms: ratio [\d.]+ "
    r"\[target <= 1.2: (met|MISSED)\]",
    r"the same place in a round \(round 1's first 5 actions, round \d+'s: actions \d+-\d+\): service [\d.]+",
    r"queries per action: service \d+ -> \d+, four boards \d+ -> \d+",
]


@pytest.fixture
def redis_url() -> Iterator[str]:
    """A private redis-server's URL for one test, stopped after it."""
    with processes() as procs:
        yield procs.redis().url


def server_url() -> str:
    return os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/postgres"


def run_bench(tmp_path: Path, *extra: str) -> tuple[str, dict[str, Any], str]:
    database = f"bench_load_smoke_{os.getpid()}"
    out = tmp_path / "results.json"
    env = {**os.environ, "DATABASE_URL": server_url()}
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "load.py"),
            "--tables",
            "2",
            "--seconds",
            "3",
            "--floor-seconds",
            "0.5",
            "--growth-after",
            "30",
            "--growth-window",
            "5",
            "--database",
            database,
            "--json",
            str(out),
            *extra,
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout, json.loads(out.read_text()), database


class Run:
    """One run of bench/load.py over several modes (``--mode a,b``): its output, its results
    and its database. The modes share the run's database, floor and cost growth (measured
    once, before the modes, whatever they are); each mode's load is its own, and so is its
    report (`report`: from its "load benchmark:" line to the next one)."""

    def __init__(self, tmp_path: Path, modes: list[str], *extra: str) -> None:
        self.stdout, self.results, self.database = run_bench(
            tmp_path, "--mode", ",".join(modes), *extra
        )
        self.modes = modes

    def load(self, mode: str) -> dict[str, Any]:
        return dict(self.results["loads"][mode])

    def report(self, mode: str) -> str:
        reports = re.split(r"^(?=load benchmark: )", self.stdout, flags=re.MULTILINE)[1:]
        assert len(reports) >= len(self.modes), self.stdout
        text = reports[self.modes.index(mode)]
        return text.split("\nmodes side by side", 1)[0]


def assert_left_nothing(database: str) -> None:
    for p in psutil.process_iter(["cmdline", "environ"]):
        try:
            cmdline = " ".join(p.info["cmdline"] or [])
            environ = p.info["environ"] or {}
        except (psutil.Error, OSError):
            continue
        # a server of the site (tablesite/server.py or stock daphne) left on the bench's database
        assert not (
            ("tablesite.asgi:application" in cmdline or "run_computers" in cmdline)
            and database in environ.get("DATABASE_URL", "")
        ), cmdline
    admin = server_url().rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        assert (
            conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (database,)).fetchone()
            is None
        )


def check(run: Run, mode: str) -> dict[str, Any]:
    """Every number of `mode`'s report printed, and its load, the floor and the cost growth
    as they must be. The mode's load."""
    stdout, results, load = run.report(mode), run.results, run.load(mode)
    for pattern in LINES:
        assert any(re.search(pattern, line) for line in stdout.splitlines()), (pattern, stdout)
    assert load["errors"] == 0, load
    assert load["actions"] > 0 and load["actions_per_second"] > 0
    assert load["persisted"] >= load["actions"]  # every confirmed action is stored
    assert 0 < load["p50_ms"] <= load["p95_ms"] <= load["p99_ms"]
    assert load["server_cpu_seconds"] > 0 and all(mb > 0 for mb in load["server_peak_rss_mb"])
    assert load["database_cpu_seconds"] > 0  # the backends serving the run's database were found
    assert 0 < load["ack_p50_ms"] <= load["ack_p99_ms"]
    assert load["frames"]["player"]["count"] > 0 and load["frames"]["player"]["median"] > 0
    assert sum(load["gc"]["collections"]) > 0  # the servers' collector hook wrote its snapshots
    assert results["floor"]["per_second"] > 0 and results["floor_ratio"] > 0
    assert load["persisted_per_second"] / results["floor"]["per_second"] > 0  # this mode's ratio
    growth = results["growth"]
    assert growth["complete"] and growth["service_ratio"] > 0 and growth["boards_ratio"] > 0
    assert growth["round"] >= 2 and growth["same_place_service_ratio"] > 0
    assert growth["service_cpu_ratio"] > 0 and growth["service_queries_early"] > 0
    assert_left_nothing(run.database)
    return load


def test_flat_out_in_one_server_process_then_in_two_sharing_redis(
    tmp_path: Path, redis_url: str
) -> None:
    run = Run(tmp_path, ["one", "split"], "--redis-url", redis_url)
    load = check(run, "one")
    assert load["processes"] == 1 and load["channel_layer"] == "in-memory"
    # Every table's seats are split over both processes: a move made on one process
    # reaches the seats on the other through Redis, or the latencies never complete.
    load = check(run, "split")
    assert load["processes"] == 2 and load["channel_layer"] == "redis"
    assert len(load["server_peak_rss_mb"]) == 2


def test_open_loop_with_spectators_in_one_process_then_behind_the_proxy(
    tmp_path: Path, redis_url: str
) -> None:
    # Two tables offering 2 actions/s each for 4 s, one anonymous spectator each (watch
    # token), every connection checking every second: the actions sent follow the tables'
    # schedules (not the server's speed), and every action reaches the spectators too.
    run = Run(
        tmp_path,
        ["one", "proxy"],
        "--redis-url",
        redis_url,
        "--pace",
        "2",
        "--spectators",
        "1",
        "--check-every",
        "1",
        "--seconds",
        "4",
    )
    load = check(run, "one")
    stdout = run.report("one")
    assert "open loop at 2.0 actions/s per table (4.0/s offered)" in stdout
    assert "latency, send -> every seat and spectator holds the new version" in stdout
    assert load["pace"] == 2.0 and load["spectators"] == 1
    assert load["processes"] == 1 and load["channel_layer"] == "in-memory"
    # Sent on schedule: about 16 scheduled times came in 4 s; a seat never sends before its
    # table's time, so no more than those (and the few next rounds among them).
    assert 0 < load["acts_sent"] + load["next_rounds"] <= load["offered"]
    assert load["acts_sent"] >= load["offered"] // 3
    assert load["frames"]["spectator"]["count"] >= load["actions"]
    assert load["checks_sent"] >= 2 * 10  # 10 connections, a check a second, 4 s
    # Where the server's CPU went, by part: the seats' and the spectators' boards, the
    # action's service and the checks' reads are each counted, the rest is the event loop's.
    costs = load["gc"]["costs"]
    assert {
        "hub pass",
        "hub pass: a seat's board",
        "hub pass: a spectator's board",
        "call action_submit",
        "call match_version",
    } <= set(costs), costs
    assert all(seconds >= 0 for seconds in costs.values())
    assert costs["hub pass"] >= costs["hub pass: a seat's board"]  # the boards are of the pass
    assert re.search(r"server CPU per action by part: .*call action_submit [\d.]+ ms", stdout)

    # --mode proxy: Redis, two daphnes, run_computers and HAProxy; every client connects to
    # the proxy, and the CPU of each process is reported apart.
    load = check(run, "proxy")
    stdout = run.report("proxy")
    assert load["mode"] == "proxy" and load["processes"] == 2 and load["channel_layer"] == "redis"
    assert load["pace"] == 2.0 and load["spectators"] == 1
    assert "2 daphne processes behind HAProxy + run_computers" in stdout
    per = load["process_cpu_ms_per_action"]
    assert {"daphne 1", "daphne 2", "run_computers", "haproxy"} <= set(per)
    assert re.search(
        r"CPU per action by process: daphne 1 [\d.]+ ms, daphne 2 [\d.]+ ms, run_computers", stdout
    )
