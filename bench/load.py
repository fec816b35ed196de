"""Load benchmark: many 4-seat tables played at once over websockets.

    python bench/load.py [--tables 100] [--seconds 30] [--max-actions 1000000]
                         [--mode one|split|proxy[,...]] [--redis-url redis://127.0.0.1:6379/11]
                         [--pace R] [--spectators K] [--check-every 20]
                         [--capacity] [--json results.json]

What one run does, by itself, and cleans up after:

1. creates a fresh database (``--database``, default ``bench_load``) on the PostgreSQL
   server DATABASE_URL names (default 127.0.0.1:5432) and migrates it;
2. the floor: a bare psycopg loop of the least one action must do — one transaction
   that inserts the log row and updates the match row (bench/load_floor.py);
3. cost growth: one whole match through ``services.action_submit``, the actions near
   its start against those after 1,000 actions (bench/load_growth.py);
4. the load: starts daphne (``--processes 2``: two daphne processes on two ports,
   sharing the Redis channel layer, every table's seats split across them) against
   the database with persistent connections (CONN_MAX_AGE), creates one user with a
   real session per seat and the matches (ORM and services, from this process),
   then drives every table with one websocket client per seat playing the first
   legal move as soon as its board says it is its turn (bench/load_clients.py),
   until ``--seconds`` pass or ``--max-actions`` are sent; or, with ``--pace R``, open
   loop: each table offers R actions per second on a seeded schedule of its own,
   whatever the server's speed; ``--spectators K`` anonymous watchers per table; every
   connection sends the page's ``check`` every ``--check-every`` seconds;
5. prints actions per second, the latency from sending an action until every seat
   of its table holds the new version (p50/p95/p99), errors, the servers' CPU
   time and peak memory, the persisted actions per second against the floor, and
   the cost growth — each with its target from the issue, met or missed — and the
   load average, since the machine may be shared. Also: frame sizes (median, p95) for
   players and spectators, the acting seat's ack latency, the PostgreSQL backends' CPU
   per action (read from /proc for the backends serving the run's database: this
   server has no pg_stat_statements), the servers' garbage-collection pauses (the
   servers record them, tablesite/gcstats.py, when the run sets GC_STATS_FILE) and
   this process's own CPU.

``--capacity`` (open loop; ``--pace`` defaults to 0.5): the most tables held with p99 ≤
``--capacity-p99`` ms and no error: the tables doubling from ``--capacity-start`` until a
run fails, then bisecting (a fresh server and fresh matches for every run). Each run
lasts ``--seconds`` or, if longer, as long as ``--min-samples`` latency samples take at
the offered rate (2,000 by default: a p99 resting on 20 samples, not on two or three);
the figure is the median of ``--searches`` whole searches (3 by default), reported
with their spread.

Modes (``--mode``; several, comma-separated, are run one after the other and reported
side by side):

- ``one``: one daphne, the in-memory channel layer, the computers in it;
- ``split``: two daphnes sharing Redis (``--redis-url``), every table's seats and
  spectators split across them (``--processes 2`` is this mode);
- ``proxy``: two daphnes + Redis + the computer worker (``manage.py run_computers``)
  behind HAProxy (deploy/haproxy.cfg.template: a table's connections hashed to one
  daphne), every client connecting to the proxy.

Each run reports the CPU per action of each process of the site apart: each daphne,
the worker, HAProxy and the Redis server (found on this machine by its port).

Exit status 0 when the run had no errors (a missed target is reported, not fatal).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

# Run as `python bench/load.py`, this file's folder is first on sys.path and
# bench/engine.py would shadow the `engine` package: look in the repository instead.
ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.load_server import SECRET_KEY, BenchDatabase, Servers, server_env  # noqa: E402

TARGET_P99 = 0.050
#: open loop: p99 send -> every seat and spectator
TARGET_OPEN_P99 = 0.100
TARGET_GC_PAUSE_MS = 10.0
TARGET_FLOOR_RATIO = 0.5
TARGET_GROWTH = 1.2
SEATS = 4


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=100, help="concurrent 4-seat tables (default 100)")
    p.add_argument(
        "--seconds", type=float, default=30.0, help="how long the tables play (default 30)"
    )
    p.add_argument(
        "--max-actions", type=int, default=1_000_000, help="stop after sending this many actions"
    )
    p.add_argument(
        "--grace",
        type=float,
        default=60.0,
        help="after the time is up, how long the actions already sent may take to reach every seat "
        "(one still on its way then is counted as an error)",
    )
    p.add_argument(
        "--processes",
        type=int,
        choices=(1, 2),
        default=1,
        help="daphne processes; 2 share the Redis channel layer (the same as --mode one / split)",
    )
    p.add_argument(
        "--mode",
        default=None,
        help="one, split or proxy, or several comma-separated (see above; default from --processes)",
    )
    p.add_argument(
        "--redis-url",
        default="redis://127.0.0.1:6379/11",
        help="channel layer for --processes 2 (a database number of its own)",
    )
    p.add_argument(
        "--database", default="bench_load", help="database created (and dropped) for the run"
    )
    p.add_argument(
        "--keep-database", action="store_true", help="leave the database for a look afterwards"
    )
    p.add_argument(
        "--conn-max-age",
        type=int,
        default=600,
        help="the servers' CONN_MAX_AGE (0: a connection per call)",
    )
    p.add_argument("--floor-seconds", type=float, default=3.0, help="how long the floor loop runs")
    p.add_argument(
        "--growth-after",
        type=int,
        default=1000,
        help="cost growth: compare actions 1..W with actions after this many (0: skip)",
    )
    p.add_argument(
        "--growth-window", type=int, default=10, help="cost growth: actions per window (W)"
    )
    p.add_argument(
        "--seed",
        type=int,
        default=5_000,
        help="seeds of the matches (and the schedules) start here",
    )
    p.add_argument(
        "--pace",
        type=float,
        default=None,
        help="open loop: actions per second offered by each table (exponential gaps; default: flat out)",
    )
    p.add_argument(
        "--spectators", type=int, default=0, help="anonymous spectators per table (watch token)"
    )
    p.add_argument(
        "--check-every",
        type=float,
        default=20.0,
        help="seconds between each connection's 'check' message, as the page sends (0: none)",
    )
    p.add_argument(
        "--capacity",
        action="store_true",
        help="search the most tables held at --pace (default 0.5) with p99 <= --capacity-p99",
    )
    p.add_argument(
        "--capacity-p99", type=float, default=TARGET_OPEN_P99 * 1000, help="ms (default 100)"
    )
    p.add_argument(
        "--capacity-start", type=int, default=5, help="tables in the first run of the search"
    )
    p.add_argument("--capacity-max", type=int, default=1000, help="the search goes no higher")
    p.add_argument(
        "--min-samples",
        type=int,
        default=2000,
        help="capacity runs last long enough for this many latency samples at the offered rate",
    )
    p.add_argument(
        "--searches",
        type=int,
        default=3,
        help="capacity searches per mode; the figure is their median, with their spread",
    )
    p.add_argument("--json", type=Path, help="also write the results to this file")
    p.add_argument(
        "--trace",
        action="store_true",
        help="the servers record each action's spans (games/processes/trace.py); print the top "
        "causes of the slowest 1%% (bench/load_trace.py)",
    )
    return p.parse_args(argv)


def setup_django(database_url: str) -> None:
    """Django in this process, on the benchmark's database, configured as its servers are."""
    os.environ.update(
        DJANGO_SETTINGS_MODULE="tablesite.settings",
        DATABASE_URL=database_url,
        DEBUG="false",
        SECRET_KEY=SECRET_KEY,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="false",
        LOG_LEVEL="WARNING",
    )
    os.environ.pop("REDIS_URL", None)  # this process only writes; its notices go nowhere
    os.environ.pop("TEST_DATABASE_NAME", None)
    import django

    django.setup()


def make_users(count: int, prefix: str) -> list[Any]:
    from django.contrib.auth import get_user_model

    User = get_user_model()
    users = [User(username=f"{prefix}{i}") for i in range(count)]
    for u in users:
        u.set_unusable_password()  # no password hashing: nobody logs in with a password here
    return list(User.objects.bulk_create(users))


def session_cookie(user: Any) -> str:
    """A real signed-in session for `user`, as django.contrib.auth.login stores it."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    assert session.session_key is not None
    return session.session_key


def make_tables(
    n: int, seed: int, prefix: str = "load"
) -> tuple[list[int], list[list[Any]], list[str]]:
    """`n` started 4-seat matches, every seat a signed-in human of its own; their ids,
    users and watch tokens."""
    from games import services
    from tests import seeded

    users = make_users(n * SEATS, prefix)
    ids, seated, tokens = [], [], []
    for t in range(n):
        table_users = users[t * SEATS : (t + 1) * SEATS]
        match = seeded.match_create(
            creator=table_users[0],
            seed=seed + t,
            listed=False,
            seats=[services.SeatSpec("me")] + [services.SeatSpec("human")] * (SEATS - 1),
        )
        for user in table_users[1:]:
            services.seat_join(match_id=match.pk, user=user, token=match.invite_token)
        ids.append(match.pk)
        seated.append(table_users)
        tokens.append(match.watch_token)
    return ids, seated, tokens


def persisted(match_ids: list[int]) -> int:
    from games.models import LogEntry

    return LogEntry.objects.filter(kind="action", round__match_id__in=match_ids).count()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * q
    low = int(k)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (k - low)


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def loadavg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def floor_phase(db: BenchDatabase, seconds: float) -> Any:
    from bench.load_floor import measure_floor
    from games import services
    from games.models import Round

    (user,) = make_users(1, "floor")
    match = services.match_create(
        creator=user,
        listed=False,
        seed=1,
        seats=[services.SeatSpec("me")] + [services.SeatSpec("local")] * (SEATS - 1),
    )
    match.refresh_from_db()
    rnd = Round.objects.get(match=match, number=1)
    return measure_floor(
        db.url,
        match_id=match.pk,
        round_id=rnd.pk,
        user_id=user.pk,
        state=match.state,
        seconds=seconds,
    )


def growth_phase(after: int, window: int, seed: int) -> dict[str, Any]:
    from bench.load_growth import measure_growth

    users = make_users(SEATS, "growth")
    g = measure_growth(users=users, seed=seed, after=after, size=window)
    out: dict[str, Any] = {
        "window": window,
        "after": after,
        "round": g.round,
        "round_first_action": g.round_first_action,
        "complete": bool(g.late.service),
    }
    pairs = {"": (g.start, g.late), "same_place_": (g.round_start, g.late_round_start)}
    for prefix, (early, late) in pairs.items():
        for name in (
            "service",
            "boards",
            "service_cpu",
            "boards_cpu",
            "service_queries",
            "board_queries",
        ):
            a = early.median(name) if getattr(early, name) else None
            b = late.median(name) if getattr(late, name) else None
            out[f"{prefix}{name}_early"], out[f"{prefix}{name}_late"] = a, b
            out[f"{prefix}{name}_ratio"] = b / a if a and b else None
    return out


class DatabaseCpu:
    """CPU time (user + system) of the PostgreSQL backends serving one database, read
    from /proc (psutil) — the server runs on this machine. Sampled every second during
    the run, so a backend that exits counts up to its last sample; a backend that
    appears after the mark counts from zero. The server's shared processes (WAL
    writer, checkpointer) are not counted."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.start: dict[int, float] = {}
        self.last: dict[int, float] = {}
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None

    def sample(self) -> dict[int, float]:
        import psutil

        out = {}
        for p in psutil.process_iter(["cmdline"]):
            try:
                words = " ".join(p.info["cmdline"] or []).split()
                if words[:1] == ["postgres:"] and self.name in words:
                    t = p.cpu_times()
                    out[p.pid] = float(t.user + t.system)
            except (psutil.Error, OSError):
                continue
        return out

    def mark(self) -> None:
        self.start = self.sample()
        self.last = dict(self.start)
        self.thread = threading.Thread(target=self._keep_sampling, daemon=True)
        self.thread.start()

    def _keep_sampling(self) -> None:
        while not self.stop.wait(1.0):
            self.last.update(self.sample())

    def seconds(self) -> float:
        self.stop.set()
        if self.thread is not None:
            self.thread.join()
        self.last.update(self.sample())
        return sum(v - self.start.get(pid, 0.0) for pid, v in self.last.items())


def read_gc_stats(folder: Path) -> dict[int, dict[str, Any]]:
    out = {}
    for f in folder.glob("gc-*.json"):
        try:
            data = json.loads(f.read_text())
        except (OSError, ValueError):
            continue
        out[data["pid"]] = data
    return out


def fresh_gc_stats(folder: Path, since: float, wait: float = 2.0) -> dict[int, dict[str, Any]]:
    """The servers' snapshots written after `since` (each writes one every half second), so
    that what they count from then on is the run's alone; waits at most `wait` seconds."""
    deadline = time.time() + wait
    while True:
        stats = read_gc_stats(folder)
        if (stats and all(s["time"] > since for s in stats.values())) or time.time() > deadline:
            return stats
        time.sleep(0.05)


def gc_summary(
    before: dict[int, dict[str, Any]], after: dict[int, dict[str, Any]], since: float, until: float
) -> dict[str, Any]:
    """The servers' collections between two snapshots: counts and time per generation, and the
    longest pause within [since, until] (pauses under gcstats.LONG_MS are not listed one by one)."""
    collections, seconds, cpu = [0, 0, 0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
    longest, long_count, collected, longest_cpu = 0.0, 0, 0, 0.0
    pauses: list[tuple[int, float, float]] = []
    by_gen = [0.0, 0.0, 0.0]
    for pid, a in after.items():
        b = before.get(
            pid,
            {
                "collections": [0, 0, 0],
                "seconds": [0.0, 0.0, 0.0],
                "cpu_seconds": [0.0, 0.0, 0.0],
                "collected": 0,
            },
        )
        collected += a["collected"] - b["collected"]
        for g in range(3):
            collections[g] += a["collections"][g] - b["collections"][g]
            seconds[g] += a["seconds"][g] - b["seconds"][g]
            cpu[g] += a["cpu_seconds"][g] - b["cpu_seconds"][g]
        for t, gen, ms, _collected, cpu_ms in a["long"]:
            if since <= t <= until:
                longest = max(longest, ms)
                longest_cpu = max(longest_cpu, cpu_ms)
                by_gen[gen] = max(by_gen[gen], ms)
                long_count += 1
                pauses.append((gen, ms, cpu_ms))
    return {
        "collections": collections,
        "seconds": seconds,
        "cpu_seconds": cpu,
        "pauses_over_1ms_list": pauses,
        "max_pause_ms": longest,
        "pauses_over_1ms": long_count,
        "max_pause_ms_by_generation": by_gen,
        "collected": collected,
        "max_pause_cpu_ms": longest_cpu,
        "thresholds": [a.get("thresholds") for a in after.values()],
        "frozen": [a.get("frozen") for a in after.values()],
        "costs": cost_deltas(before, after),
    }


def cost_deltas(
    before: dict[int, dict[str, Any]], after: dict[int, dict[str, Any]]
) -> dict[str, float]:
    """The servers' CPU seconds by part (games.processes.trace `costs`) between two snapshots,
    summed over the processes."""
    out: dict[str, float] = {}
    for pid, a in after.items():
        earlier = before.get(pid, {}).get("costs", {})
        for part, seconds in a.get("costs", {}).items():
            out[part] = out.get(part, 0.0) + seconds - earlier.get(part, 0.0)
    return out


def cost_parts(costs: dict[str, float], server_cpu: float, actions: int) -> list[tuple[str, float]]:
    """The server CPU per action by part, in ms, largest first: the hub's passes split into the
    seats' boards, the spectators' and the version's shared work (reads derived, facts, the
    shared parts); each database call by its function; the computers' loop; and the rest,
    what no part names (the event loop: sockets, frames, dispatch, the collector)."""
    if not actions:
        return []
    ms = {part: seconds / actions * 1000 for part, seconds in costs.items()}
    boards = sum(v for part, v in ms.items() if part.startswith("hub pass: "))
    if "hub pass" in ms:
        ms["hub pass: the version's shared work"] = max(0.0, ms.pop("hub pass") - boards)
    named = sum(ms.values())
    ms["the rest: event loop, sockets, frames"] = max(0.0, server_cpu / actions * 1000 - named)
    return sorted(ms.items(), key=lambda item: -item[1])


MODES = ("one", "split", "proxy")


def modes_of(args: argparse.Namespace) -> list[str]:
    """The modes asked for (``--mode``, else ``--processes``: 1 one, 2 split)."""
    if not args.mode:
        return ["one" if args.processes == 1 else "split"]
    modes = [m.strip() for m in args.mode.split(",") if m.strip()]
    unknown = [m for m in modes if m not in MODES]
    if unknown or not modes:
        raise SystemExit(
            f"--mode: {', '.join(unknown) or 'nothing'} is not one of {', '.join(MODES)}"
        )
    return modes


def run_seconds(args: argparse.Namespace, tables: int) -> float:
    """How long a run plays: ``--seconds``, or longer for ``--min-samples`` at the offered rate."""
    if not args.pace or not args.min_samples:
        return float(args.seconds)
    return max(float(args.seconds), args.min_samples / (tables * args.pace) * 1.05)


def load_phase(
    args: argparse.Namespace,
    db: BenchDatabase,
    *,
    tables: int | None = None,
    run_tag: str = "load",
    mode: str | None = None,
) -> dict[str, Any]:
    from django.db import connection

    from bench.load_clients import TableSpec, drive

    mode = mode or modes_of(args)[0]
    processes = 1 if mode == "one" else 2
    n_tables = tables or args.tables
    seconds = run_seconds(args, n_tables) if args.capacity else float(args.seconds)
    match_ids, seated, tokens = make_tables(n_tables, args.seed, prefix=run_tag)
    cookies = [[session_cookie(u) for u in users] for users in seated]
    connection.close()  # nothing of this process touches the database while the servers work

    redis_url = args.redis_url if processes > 1 else None
    if redis_url:
        import redis

        r = redis.Redis.from_url(redis_url)
        r.flushdb()  # a channel layer of this run only (its own database number)
        r.close()
    env = server_env(db.url, redis_url=redis_url, conn_max_age=args.conn_max_age)
    servers = Servers(env=env, count=processes, proxy=mode == "proxy")
    servers.env["GC_STATS_FILE"] = str(servers.log_dir / "gc-%p.json")
    servers.env["TABLE_COSTS"] = (
        "1"  # the CPU by part, in the same snapshots (games.processes.trace)
    )
    trace_dir = servers.log_dir / "trace"
    if getattr(args, "trace", False):
        servers.env["TABLE_TRACE"] = str(trace_dir)
    db_cpu = DatabaseCpu(db.name)
    gc_marks: dict[str, Any] = {}
    try:
        servers.start()
        # Through the proxy every client connects to it; else each table's seats are split.
        ports = [servers.entry_port] if servers.entry_port is not None else servers.ports
        specs = [
            TableSpec(
                match_id=m,
                cookies=c,
                ports=[ports[(t + s) % len(ports)] for s in range(SEATS)],
                watch_token=token,
                spectator_ports=[
                    ports[(t + SEATS + k) % len(ports)] for k in range(args.spectators)
                ],
            )
            for t, (m, c, token) in enumerate(zip(match_ids, cookies, tokens, strict=True))
        ]
        load_before = loadavg()

        def on_start() -> None:
            # The servers' CPU is counted from the first move, after every board of the connections.
            servers.mark()
            db_cpu.mark()
            gc_marks["since"] = time.time()
            gc_marks["before"] = fresh_gc_stats(servers.log_dir, gc_marks["since"])

        ended: dict[str, Any] = {}

        def on_end() -> None:
            # ... and up to the last action's boards, before the clients close their sockets:
            # closing a few hundred connections is not the cost of an action.
            ended["cpu"] = servers.cpu_since_mark()
            ended["process_cpu"] = servers.cpu_by_process()
            ended["database_cpu"] = db_cpu.seconds()
            ended["until"] = time.time()
            # a snapshot of each server's collector written after the end (every 0.5 s; on a
            # busy machine the writer may be late: a fixed wait read an old one)
            ended["gc"] = fresh_gc_stats(servers.log_dir, ended["until"], wait=10.0)

        async def play() -> Any:
            return await drive(
                specs,
                seconds=seconds,
                max_actions=args.max_actions,
                grace=args.grace,
                on_start=on_start,
                on_end=on_end,
                pace=args.pace,
                seed=args.seed,
                check_every=args.check_every,
            )

        stats = asyncio.run(play())
        cpu, process_cpu = ended["cpu"], ended["process_cpu"]
        database_cpu, until = ended["database_cpu"], ended["until"]
        gc_stats = gc_summary(
            gc_marks.get("before", {}), ended["gc"], gc_marks.get("since", until), until
        )
        rss = servers.peak_rss()
        alive = servers.alive()
        load_after = loadavg()
    finally:
        db_cpu.stop.set()
        servers.stop()
    stored = persisted(match_ids)
    lat = stats.latencies
    traced = None
    if getattr(args, "trace", False):
        from bench.load_trace import explain

        traced = explain(trace_dir, lat, stats.latency_keys)
    ack = stats.ack_latencies
    errors = sum(stats.errors.values()) + (0 if alive else 1)
    if errors == 0:
        shutil.rmtree(
            servers.log_dir, ignore_errors=True
        )  # kept (and named) only when something went wrong
    actions = len(lat)
    frames = {
        role: {
            "count": len(sizes),
            "median": percentile([float(x) for x in sizes], 0.5),
            "p95": percentile([float(x) for x in sizes], 0.95),
        }
        for role, sizes in stats.frame_sizes.items()
    }
    per_connection = {
        role: (sum(b) / len(b) / actions * n_tables if b and actions else 0.0)
        for role, b in stats.connection_bytes.items()
    }
    return {
        "tables": n_tables,
        "processes": processes,
        "mode": mode,
        "seconds": seconds,
        "channel_layer": "redis" if redis_url else "in-memory",
        "conn_max_age": args.conn_max_age,
        "pace": args.pace,
        "spectators": args.spectators,
        "check_every": args.check_every,
        "checks_sent": stats.checks_sent,
        "offered": stats.offered,
        "offered_per_second": n_tables * args.pace if args.pace else None,
        "connect_seconds": stats.connect_seconds,
        "connect_retries": stats.connect_retries,
        "elapsed": stats.elapsed,
        "actions": actions,
        "acts_sent": stats.acts_sent,
        "acts_acked": stats.acts_acked,
        "actions_per_second": actions / stats.elapsed if stats.elapsed else 0.0,
        "persisted": stored,
        "persisted_per_second": stored / stats.elapsed if stats.elapsed else 0.0,
        "next_rounds": stats.next_rounds,
        "tables_finished": stats.tables_finished,
        "p50_ms": percentile(lat, 0.50) * 1000,
        "p95_ms": percentile(lat, 0.95) * 1000,
        "p99_ms": percentile(lat, 0.99) * 1000,
        "max_ms": max(lat) * 1000 if lat else float("nan"),
        "ack_p50_ms": percentile(ack, 0.50) * 1000,
        "ack_p95_ms": percentile(ack, 0.95) * 1000,
        "ack_p99_ms": percentile(ack, 0.99) * 1000,
        "late_p50_ms": percentile(stats.lateness, 0.50) * 1000 if stats.lateness else None,
        "late_p99_ms": percentile(stats.lateness, 0.99) * 1000 if stats.lateness else None,
        "errors": errors,
        "error_kinds": dict(stats.errors) | ({} if alive else {"server_died": 1}),
        "error_samples": stats.error_samples,
        "frames": frames,
        "frame_types": dict(stats.frame_types),
        "bytes_per_connection_per_table_action": per_connection,
        "server_cpu_seconds": cpu,
        "server_cores": cpu / stats.elapsed if stats.elapsed else 0.0,
        "server_cpu_ms_per_action": cpu / actions * 1000 if actions else None,
        "process_cpu_seconds": process_cpu,
        "process_cpu_ms_per_action": {
            name: (c / actions * 1000 if actions else None) for name, c in process_cpu.items()
        },
        "database_cpu_seconds": database_cpu,
        "database_cpu_ms_per_action": database_cpu / actions * 1000 if actions else None,
        "database_cpu_source": "/proc of the PostgreSQL backends serving the run's database",
        "gc": gc_stats,
        "server_peak_rss_mb": [r / 2**20 for r in rss],
        "client_cpu_seconds": stats.client_cpu_seconds,
        "loadavg_before": load_before,
        "loadavg_after": load_after,
        "server_logs": str(servers.log_dir) if errors else None,
        "trace": traced,
    }


def capacity_searches(args: argparse.Namespace, db: BenchDatabase, mode: str) -> dict[str, Any]:
    """`args.searches` whole capacity searches in `mode`; the figure is the median of the
    tables each held, with the spread (lowest, highest) beside it."""
    searches = []
    for k in range(max(1, args.searches)):
        print(f"  {mode}: search {k + 1} of {args.searches}", flush=True)
        searches.append(capacity_search(args, db, mode=mode, tag=f"{mode[0]}{k}"))
    held = sorted(s["tables_held"] for s in searches)
    samples = [r["actions"] for s in searches for r in s["runs"]]
    return {
        "mode": mode,
        "pace": args.pace,
        "p99_limit_ms": args.capacity_p99,
        "tables_held": statistics.median(held),
        "spread": [held[0], held[-1]],
        "each": [s["tables_held"] for s in searches],
        "first_not_held": [s["first_not_held"] for s in searches],
        "min_samples_per_run": min(samples) if samples else 0,
        "searches": searches,
        "runs": [r for s in searches for r in s["runs"]],
    }


def capacity_search(
    args: argparse.Namespace, db: BenchDatabase, *, mode: str | None = None, tag: str = ""
) -> dict[str, Any]:
    """The most tables held at `args.pace` with p99 <= `args.capacity_p99` and no error:
    doubling from --capacity-start until a run fails, then bisecting to within 10%."""
    runs: list[dict[str, Any]] = []

    def held(n: int) -> bool:
        result = load_phase(args, db, tables=n, run_tag=f"cap{tag}{len(runs)}_", mode=mode)
        ok = result["errors"] == 0 and result["p99_ms"] <= args.capacity_p99
        result["held"] = ok
        runs.append(result)
        print(
            f"  capacity run {len(runs)}: {n} tables, {result['seconds']:.0f} s, {result['actions']} samples, "
            f"{result['actions_per_second']:.1f} actions/s "
            f"(offered {n * args.pace:.1f}/s), p50 {result['p50_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms, "
            f"errors {result['errors']}, server CPU {result['server_cores']:.2f} cores, longest collection "
            f"{result['gc']['max_pause_ms']:.1f} ms, load average {result['loadavg_before']} -> "
            f"{result['loadavg_after']}: {'held' if ok else 'NOT held'}",
            flush=True,
        )
        return ok

    good, bad, n = 0, None, max(1, args.capacity_start)
    while bad is None:
        if held(n):
            good = n
            if n >= args.capacity_max:
                break
            n = min(n * 2, args.capacity_max)
        else:
            bad = n
    while bad is not None and bad - good > max(1, good // 10):
        mid = (good + bad) // 2
        if held(mid):
            good = mid
        else:
            bad = mid
    return {
        "pace": args.pace,
        "p99_limit_ms": args.capacity_p99,
        "tables_held": good,
        "first_not_held": bad,
        "runs": runs,
    }


def fmt(x: float | None, digits: int = 1) -> str:
    return "n/a" if x is None or x != x else f"{x:.{digits}f}"


def report_load(load: dict[str, Any], indent: str = "  ") -> None:
    mode = (
        f"{load['processes']} daphne process{'es' if load['processes'] > 1 else ''}"
        f"{' behind HAProxy + run_computers' if load.get('mode') == 'proxy' else ''}, "
        f"{load['channel_layer']} channel layer, CONN_MAX_AGE={load['conn_max_age']}"
    )
    watchers = (
        f" + {load['spectators']} spectator{'s' if load['spectators'] != 1 else ''}"
        if load["spectators"]
        else ""
    )
    pace = (
        f"open loop at {load['pace']} actions/s per table ({load['offered_per_second']:.1f}/s offered)"
        if load["pace"]
        else "flat out"
    )
    print(f"load benchmark: {load['tables']} tables x {SEATS} seats{watchers}, {mode}; {pace}")
    print(
        f"{indent}machine: {os.cpu_count()} cores; load average before {load['loadavg_before']}, "
        f"after {load['loadavg_after']}"
    )
    connections = load["tables"] * (SEATS + load["spectators"])
    print(
        f"{indent}connected {connections} websockets in {load['connect_seconds']:.1f} s "
        f"({load['connect_retries']} handshakes retried); 'check' every {load['check_every']:g} s: "
        f"{load['checks_sent']} sent"
    )
    offered = f"; offered {load['offered']}" if load["pace"] else ""
    print(
        f"{indent}actions per second: {load['actions_per_second']:.1f} "
        f"({load['actions']} actions in {load['elapsed']:.1f} s{offered}; next rounds {load['next_rounds']}, "
        f"tables finished {load['tables_finished']})"
    )
    who = "every seat and spectator holds" if load["spectators"] else "every seat holds"
    target = TARGET_OPEN_P99 if load["pace"] else TARGET_P99
    print(
        f"{indent}latency, send -> {who} the new version: p50 {load['p50_ms']:.1f} ms, "
        f"p95 {load['p95_ms']:.1f} ms, p99 {load['p99_ms']:.1f} ms, max {load['max_ms']:.1f} ms "
        f"[target p99 <= {target * 1000:.0f} ms: {verdict(load['p99_ms'] <= target * 1000)}]"
    )
    print(
        f"{indent}ack latency, send -> the acting seat's ack: p50 {load['ack_p50_ms']:.1f} ms, "
        f"p95 {load['ack_p95_ms']:.1f} ms, p99 {load['ack_p99_ms']:.1f} ms"
    )
    if load["pace"]:
        print(
            f"{indent}sends behind their table's schedule: p50 {fmt(load['late_p50_ms'])} ms, "
            f"p99 {fmt(load['late_p99_ms'])} ms"
        )
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(load["error_kinds"].items()))
    print(f"{indent}errors: {load['errors']}" + (f" ({kinds})" if kinds else ""))
    for sample in load["error_samples"][:5]:
        print(f"{indent}  {sample}")
    if load["server_logs"]:
        print(f"{indent}  the servers' logs: {load['server_logs']}")
    for role, f in load["frames"].items():
        if f["count"]:
            per = load["bytes_per_connection_per_table_action"][role]
            print(
                f"{indent}frames to {role}s ({', '.join(f'{k} {v}' for k, v in sorted(load['frame_types'].items()))} "
                f"in all): median {f['median'] / 1024:.2f} kB, p95 {f['p95'] / 1024:.2f} kB "
                f"({f['count']} frames; {per / 1024:.2f} kB per connection per action of its table) "
                f"[target median <= 1.5 kB: {verdict(f['median'] <= 1536)}, p95 <= 6 kB: "
                f"{verdict(f['p95'] <= 6144)}]"
            )
    rss = ", ".join(f"{r:.0f}" for r in load["server_peak_rss_mb"])
    print(
        f"{indent}server CPU: {load['server_cpu_seconds']:.1f} s user+sys ({load['server_cores']:.2f} cores, "
        f"{fmt(load['server_cpu_ms_per_action'])} ms per action); peak RSS: {rss} MB"
    )
    if load.get("process_cpu_ms_per_action"):
        print(
            f"{indent}CPU per action by process: "
            + ", ".join(
                f"{name} {fmt(ms, 2)} ms" for name, ms in load["process_cpu_ms_per_action"].items()
            )
        )
    parts = cost_parts(load["gc"].get("costs", {}), load["server_cpu_seconds"], load["actions"])
    if parts:
        print(
            f"{indent}server CPU per action by part: "
            + ", ".join(f"{part} {ms:.2f} ms" for part, ms in parts)
        )
    print(
        f"{indent}database CPU: {load['database_cpu_seconds']:.1f} s ({fmt(load['database_cpu_ms_per_action'])} "
        f"ms per action; {load['database_cpu_source']})"
    )
    g = load["gc"]
    gc_share = (
        sum(g["cpu_seconds"]) / load["server_cpu_seconds"] if load["server_cpu_seconds"] else 0.0
    )
    longest = (
        f"{g['max_pause_ms']:.1f} ms (CPU {g['max_pause_cpu_ms']:.1f} ms)"
        if g["pauses_over_1ms"]
        else "under 1 ms"
    )
    print(
        f"{indent}server garbage collection: longest pause {longest} "
        f"[target <= {TARGET_GC_PAUSE_MS:.0f} ms: {verdict(g['max_pause_ms'] <= TARGET_GC_PAUSE_MS)}]; "
        f"{g['pauses_over_1ms']} pauses over 1 ms (longest by generation, ms: "
        f"{', '.join(f'{x:.1f}' for x in g['max_pause_ms_by_generation'])}); collections by generation "
        f"{g['collections']}, {sum(g['seconds']) * 1000:.0f} ms in all (CPU {sum(g['cpu_seconds']) * 1000:.0f} ms: "
        f"{gc_share:.1%} of the server CPU), "
        f"{g['collected']} objects freed by them ({fmt(g['collected'] / load['actions'] if load['actions'] else None)} "
        f"per action); thresholds "
        f"{g['thresholds']}, frozen objects {g['frozen']}"
    )
    print(
        f"{indent}client CPU (this process, collector frozen during play): {load['client_cpu_seconds']:.1f} s"
    )
    if load.get("trace") is not None:
        from bench.load_trace import report as report_trace

        report_trace(load["trace"], indent)


def report(results: dict[str, Any]) -> None:
    load, floor, growth = results["load"], results.get("floor"), results.get("growth")
    report_load(load)
    if floor is not None:
        ratio = load["persisted_per_second"] / floor["per_second"] if floor["per_second"] else 0.0
        results["floor_ratio"] = ratio
        print(
            f"  floor (bare psycopg, 1 transaction = INSERT log row + UPDATE match row): "
            f"{floor['per_second']:.0f} actions/s"
        )
        print(
            f"  persisted actions per second: {load['persisted_per_second']:.1f} ({load['persisted']} stored); "
            f"ratio to the floor {ratio:.3f} [target >= {TARGET_FLOOR_RATIO}: {verdict(ratio >= TARGET_FLOOR_RATIO)}]"
        )
    if growth is not None:
        w, a = growth["window"], growth["after"]
        if growth["service_ratio"] is None:
            print(f"  cost growth: the match ended before action {a + w}")
        else:
            worst = max(growth["service_ratio"], growth["service_cpu_ratio"])
            print(
                f"  cost growth (one match, services.action_submit; the two windows timed turn about): "
                f"actions 1-{w} median {growth['service_early'] * 1000:.2f} ms, actions {a + 1}-{a + w} median "
                f"{growth['service_late'] * 1000:.2f} ms: ratio {growth['service_ratio']:.2f}; CPU time "
                f"{growth['service_cpu_early'] * 1000:.2f} -> {growth['service_cpu_late'] * 1000:.2f} ms: "
                f"ratio {growth['service_cpu_ratio']:.2f} [target <= {TARGET_GROWTH}: {verdict(worst <= TARGET_GROWTH)}]"
            )
            print(
                f"    the four boards after each action: {growth['boards_early'] * 1000:.2f} -> "
                f"{growth['boards_late'] * 1000:.2f} ms: ratio {growth['boards_ratio']:.2f}; CPU time "
                f"{growth['boards_cpu_early'] * 1000:.2f} -> {growth['boards_cpu_late'] * 1000:.2f} ms: "
                f"ratio {growth['boards_cpu_ratio']:.2f}"
            )
            if growth["same_place_service_ratio"] is not None:
                s0, r = growth["round_first_action"], growth["round"]
                print(
                    f"    the same place in a round (round 1's first {w} actions, round {r}'s: actions "
                    f"{s0}-{s0 + w - 1}): service {growth['same_place_service_ratio']:.2f} "
                    f"(CPU {growth['same_place_service_cpu_ratio']:.2f}), four boards "
                    f"{growth['same_place_boards_ratio']:.2f} (CPU {growth['same_place_boards_cpu_ratio']:.2f})"
                )
            print(
                f"    queries per action: service {growth['service_queries_early']:.0f} -> "
                f"{growth['service_queries_late']:.0f}, four boards {growth['board_queries_early']:.0f} -> "
                f"{growth['board_queries_late']:.0f}"
            )


def report_side_by_side(by_mode: dict[str, dict[str, Any]]) -> None:
    """The modes beside each other: tables held (capacity) and, at each mode's best held run,
    latency and CPU per action (the daphnes, then every process, the database)."""
    print("modes side by side (at each mode's largest held run, else its largest run):")
    for mode, c in by_mode.items():
        best = max(c["runs"], key=lambda r: (r.get("held", True), r["tables"]))
        held = (
            f"{c['tables_held']:g} tables held (searches {c['each']}, spread {c['spread'][0]}-{c['spread'][1]}); "
            if "tables_held" in c
            else ""
        )
        per = ", ".join(f"{n} {fmt(ms, 2)}" for n, ms in best["process_cpu_ms_per_action"].items())
        print(
            f"  {mode:>5}: {held}{best['tables']} tables: p50 {best['p50_ms']:.1f} ms, p99 {best['p99_ms']:.1f} ms, "
            f"{best['actions']} samples; server CPU {fmt(best['server_cpu_ms_per_action'], 2)} ms/action "
            f"({per}); database {fmt(best['database_cpu_ms_per_action'], 2)} ms/action"
        )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.tables < 1 or args.seconds <= 0:
        raise SystemExit("--tables and --seconds must be positive")
    if args.capacity and args.pace is None:
        args.pace = 0.5
    if (args.pace is not None and args.pace <= 0) or args.spectators < 0 or args.check_every < 0:
        raise SystemExit("--pace must be positive; --spectators and --check-every not negative")
    # SIGTERM (a test's timeout, Ctrl-C's cousin) still runs the cleanup below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    db = BenchDatabase(args.database)
    results: dict[str, Any] = {}
    try:
        db.create()
        setup_django(db.url)
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)
        if args.floor_seconds > 0:
            f = floor_phase(db, args.floor_seconds)
            results["floor"] = {
                "actions": f.actions,
                "seconds": f.seconds,
                "per_second": f.per_second,
            }
        if args.growth_after > 0:
            results["growth"] = growth_phase(args.growth_after, args.growth_window, args.seed - 1)
        modes = modes_of(args)
        if args.capacity:
            print(
                f"capacity search: open loop at {args.pace} actions/s per table, {args.spectators} "
                f"spectator{'' if args.spectators == 1 else 's'} per table, p99 <= {args.capacity_p99:g} ms, "
                f"runs of {args.seconds:g} s or {args.min_samples} samples if longer, {args.searches} "
                f"search{'es' if args.searches != 1 else ''} per mode ({', '.join(modes)})",
                flush=True,
            )
            results["capacities"] = {mode: capacity_searches(args, db, mode) for mode in modes}
            results["capacity"] = results["capacities"][modes[0]]
            for mode in modes:
                c = results["capacities"][mode]
                results["load"] = max(c["runs"], key=lambda r: (r["held"], r["tables"]))
                print(
                    f"capacity ({mode}): {c['tables_held']:g} tables held at {c['pace']} actions/s per table, "
                    f"median of {len(c['each'])} searches {c['each']} (spread {c['spread'][0]}-{c['spread'][1]}; "
                    f"first not held: {c['first_not_held']}; fewest samples in a run: {c['min_samples_per_run']})"
                )
                report(results)
            if len(modes) > 1:
                report_side_by_side(results["capacities"])
        else:
            results["loads"] = {
                mode: load_phase(args, db, mode=mode, run_tag=f"load{mode}_") for mode in modes
            }
            for mode in modes:
                results["load"] = results["loads"][mode]
                report(results)
            if len(modes) > 1:
                report_side_by_side({m: {"runs": [r]} for m, r in results["loads"].items()})
    finally:
        if "django" in sys.modules and "django.db" in sys.modules:
            from django.db import connections

            connections.close_all()
        if not args.keep_database:
            db.drop()
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    if args.capacity:
        return 0
    return 0 if all(r["errors"] == 0 for r in results["loads"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
