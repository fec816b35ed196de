"""Load benchmark (issue 5): many 4-seat tables played at once over websockets.

    python bench/load.py [--tables 100] [--seconds 30] [--max-actions 1000000]
                         [--processes 1|2] [--redis-url redis://127.0.0.1:6379/11]
                         [--json results.json]

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
   until ``--seconds`` pass or ``--max-actions`` are sent;
5. prints actions per second, the latency from sending an action until every seat
   of its table holds the new version (p50/p95/p99), errors, the servers' CPU
   time and peak memory, the persisted actions per second against the floor, and
   the cost growth — each with its target from the issue, met or missed — and the
   load average, since the machine may be shared.

Exit status 0 when the run had no errors (a missed target is reported, not fatal).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import signal
import sys
from pathlib import Path
from typing import Any

# Run as `python bench/load.py`, this file's folder is first on sys.path and
# bench/engine.py would shadow the `engine` package: look in the repository instead.
ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.load_server import SECRET_KEY, BenchDatabase, Servers, server_env  # noqa: E402

TARGET_P99 = 0.050
TARGET_FLOOR_RATIO = 0.5
TARGET_GROWTH = 1.2
SEATS = 4


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=100, help="concurrent 4-seat tables (default 100)")
    p.add_argument("--seconds", type=float, default=30.0, help="how long the tables play (default 30)")
    p.add_argument("--max-actions", type=int, default=1_000_000, help="stop after sending this many actions")
    p.add_argument("--grace", type=float, default=60.0,
                   help="after the time is up, how long the actions already sent may take to reach every seat "
                        "(one still on its way then is counted as an error)")
    p.add_argument("--processes", type=int, choices=(1, 2), default=1,
                   help="daphne processes; 2 share the Redis channel layer")
    p.add_argument("--redis-url", default="redis://127.0.0.1:6379/11",
                   help="channel layer for --processes 2 (a database number of its own)")
    p.add_argument("--database", default="bench_load", help="database created (and dropped) for the run")
    p.add_argument("--keep-database", action="store_true", help="leave the database for a look afterwards")
    p.add_argument("--conn-max-age", type=int, default=600, help="the servers' CONN_MAX_AGE (0: a connection per call)")
    p.add_argument("--floor-seconds", type=float, default=3.0, help="how long the floor loop runs")
    p.add_argument("--growth-after", type=int, default=1000,
                   help="cost growth: compare actions 1..W with actions after this many (0: skip)")
    p.add_argument("--growth-window", type=int, default=10, help="cost growth: actions per window (W)")
    p.add_argument("--seed", type=int, default=5_000, help="seeds of the matches start here")
    p.add_argument("--json", type=Path, help="also write the results to this file")
    return p.parse_args(argv)


def setup_django(database_url: str) -> None:
    """Django in this process, on the benchmark's database, configured as its servers are."""
    os.environ.update(DJANGO_SETTINGS_MODULE="tablesite.settings", DATABASE_URL=database_url, DEBUG="false",
                      SECRET_KEY=SECRET_KEY, ALLOWED_HOSTS="127.0.0.1,localhost", SECURE_SSL_REDIRECT="false",
                      LOG_LEVEL="WARNING")
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


def make_tables(n: int, seed: int) -> tuple[list[int], list[list[Any]]]:
    """`n` started 4-seat matches, every seat a signed-in human of its own."""
    from games import services

    users = make_users(n * SEATS, "load")
    ids, seated = [], []
    for t in range(n):
        table_users = users[t * SEATS:(t + 1) * SEATS]
        match = services.match_create(creator=table_users[0], seed=seed + t, listed=False,
                                      seats=[services.SeatSpec("me")] + [services.SeatSpec("human")] * (SEATS - 1))
        for user in table_users[1:]:
            services.seat_join(match_id=match.pk, user=user, token=match.invite_token)
        ids.append(match.pk)
        seated.append(table_users)
    return ids, seated


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
    match = services.match_create(creator=user, listed=False, seed=1,
                                  seats=[services.SeatSpec("me")] + [services.SeatSpec("local")] * (SEATS - 1))
    match.refresh_from_db()
    rnd = Round.objects.get(match=match, number=1)
    return measure_floor(db.url, match_id=match.pk, round_id=rnd.pk, user_id=user.pk, state=match.state,
                         seconds=seconds)


def growth_phase(after: int, window: int, seed: int) -> dict[str, Any]:
    from bench.load_growth import measure_growth

    users = make_users(SEATS, "growth")
    g = measure_growth(users=users, seed=seed, after=after, size=window)
    out: dict[str, Any] = {"window": window, "after": after, "round": g.round,
                           "round_first_action": g.round_first_action, "complete": bool(g.late.service)}
    pairs = {"": (g.start, g.late), "same_place_": (g.round_start, g.late_round_start)}
    for prefix, (early, late) in pairs.items():
        for name in ("service", "boards", "service_cpu", "boards_cpu", "service_queries", "board_queries"):
            a = early.median(name) if getattr(early, name) else None
            b = late.median(name) if getattr(late, name) else None
            out[f"{prefix}{name}_early"], out[f"{prefix}{name}_late"] = a, b
            out[f"{prefix}{name}_ratio"] = b / a if a and b else None
    return out


def load_phase(args: argparse.Namespace, db: BenchDatabase) -> dict[str, Any]:
    from django.db import connection

    from bench.load_clients import TableSpec, drive

    match_ids, seated = make_tables(args.tables, args.seed)
    cookies = [[session_cookie(u) for u in users] for users in seated]
    connection.close()  # nothing of this process touches the database while the servers work

    redis_url = args.redis_url if args.processes > 1 else None
    if redis_url:
        import redis

        r = redis.Redis.from_url(redis_url)
        r.flushdb()  # a channel layer of this run only (its own database number)
        r.close()
    servers = Servers(env=server_env(db.url, redis_url=redis_url, conn_max_age=args.conn_max_age),
                      count=args.processes)
    try:
        servers.start()
        ports = servers.ports
        specs = [TableSpec(match_id=m, cookies=c, ports=[ports[(t + s) % len(ports)] for s in range(SEATS)])
                 for t, (m, c) in enumerate(zip(match_ids, cookies, strict=True))]
        load_before = loadavg()
        # The servers' CPU is counted from the first move, after every board of the connections.
        client_cpu = resource.getrusage(resource.RUSAGE_SELF)

        async def play() -> Any:
            return await drive(specs, seconds=args.seconds, max_actions=args.max_actions, grace=args.grace,
                               on_start=servers.mark)

        stats = asyncio.run(play())
        cpu = servers.cpu_since_mark()
        rss = servers.peak_rss()
        alive = servers.alive()
        after_cpu = resource.getrusage(resource.RUSAGE_SELF)
        load_after = loadavg()
    finally:
        servers.stop()
    stored = persisted(match_ids)
    lat = stats.latencies
    errors = sum(stats.errors.values()) + (0 if alive else 1)
    if errors == 0:
        shutil.rmtree(servers.log_dir, ignore_errors=True)  # kept (and named) only when something went wrong
    return {
        "tables": args.tables, "processes": args.processes, "channel_layer": "redis" if redis_url else "in-memory",
        "conn_max_age": args.conn_max_age,
        "connect_seconds": stats.connect_seconds, "connect_retries": stats.connect_retries, "elapsed": stats.elapsed,
        "actions": len(lat), "acts_sent": stats.acts_sent, "acts_acked": stats.acts_acked,
        "actions_per_second": len(lat) / stats.elapsed if stats.elapsed else 0.0,
        "persisted": stored, "persisted_per_second": stored / stats.elapsed if stats.elapsed else 0.0,
        "next_rounds": stats.next_rounds, "tables_finished": stats.tables_finished,
        "p50_ms": percentile(lat, 0.50) * 1000, "p95_ms": percentile(lat, 0.95) * 1000,
        "p99_ms": percentile(lat, 0.99) * 1000, "max_ms": max(lat) * 1000 if lat else float("nan"),
        "errors": errors, "error_kinds": dict(stats.errors) | ({} if alive else {"server_died": 1}),
        "error_samples": stats.error_samples,
        "boards": stats.boards, "board_kb_mean": stats.board_bytes / stats.boards / 1024 if stats.boards else 0.0,
        # every board or update frame a connection got (games/table/parts.py): its size
        "updates": stats.updates,
        "frame_kb_p50": percentile(sorted(stats.frame_sizes), 0.50) / 1024 if stats.frame_sizes else 0.0,
        "frame_kb_p95": percentile(sorted(stats.frame_sizes), 0.95) / 1024 if stats.frame_sizes else 0.0,
        "server_cpu_seconds": cpu, "server_cores": cpu / stats.elapsed if stats.elapsed else 0.0,
        "server_peak_rss_mb": [r / 2**20 for r in rss],
        "client_cpu_seconds": (after_cpu.ru_utime + after_cpu.ru_stime) - (client_cpu.ru_utime + client_cpu.ru_stime),
        "loadavg_before": load_before, "loadavg_after": load_after,
        "server_logs": str(servers.log_dir) if errors else None,
    }


def report(results: dict[str, Any]) -> None:
    load, floor, growth = results["load"], results.get("floor"), results.get("growth")
    mode = (f"{load['processes']} daphne process{'es' if load['processes'] > 1 else ''}, "
            f"{load['channel_layer']} channel layer, CONN_MAX_AGE={load['conn_max_age']}")
    print(f"load benchmark: {load['tables']} tables x {SEATS} seats, {mode}")
    print(f"  machine: {os.cpu_count()} cores; load average before {load['loadavg_before']}, "
          f"after {load['loadavg_after']}")
    print(f"  connected {load['tables'] * SEATS} websockets in {load['connect_seconds']:.1f} s "
          f"({load['connect_retries']} handshakes retried)")
    print(f"  actions per second: {load['actions_per_second']:.1f} "
          f"({load['actions']} actions in {load['elapsed']:.1f} s; next rounds {load['next_rounds']}, "
          f"tables finished {load['tables_finished']})")
    print(f"  latency, send -> every seat holds the new version: p50 {load['p50_ms']:.1f} ms, "
          f"p95 {load['p95_ms']:.1f} ms, p99 {load['p99_ms']:.1f} ms, max {load['max_ms']:.1f} ms "
          f"[target p99 <= {TARGET_P99 * 1000:.0f} ms: {verdict(load['p99_ms'] <= TARGET_P99 * 1000)}]")
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(load["error_kinds"].items()))
    print(f"  errors: {load['errors']}" + (f" ({kinds})" if kinds else ""))
    for sample in load["error_samples"][:5]:
        print(f"    {sample}")
    if load["server_logs"]:
        print(f"    the servers' logs: {load['server_logs']}")
    rss = ", ".join(f"{r:.0f}" for r in load["server_peak_rss_mb"])
    per_action = load["server_cpu_seconds"] / load["actions"] * 1000 if load["actions"] else float("nan")
    print(f"  server CPU: {load['server_cpu_seconds']:.1f} s user+sys ({load['server_cores']:.2f} cores, "
          f"{per_action:.1f} ms per action); peak RSS: {rss} MB")
    print(f"  client CPU (this process): {load['client_cpu_seconds']:.1f} s; boards received {load['boards']} "
          f"({load['updates']} as update frames), {load['board_kb_mean']:.1f} KB each on average; per frame "
          f"median {load['frame_kb_p50']:.2f} KB [target <= 1.5], p95 {load['frame_kb_p95']:.2f} KB [target <= 6]")
    if floor is not None:
        ratio = load["persisted_per_second"] / floor["per_second"] if floor["per_second"] else 0.0
        results["floor_ratio"] = ratio
        print(f"  floor (bare psycopg, 1 transaction = INSERT log row + UPDATE match row): "
              f"{floor['per_second']:.0f} actions/s")
        print(f"  persisted actions per second: {load['persisted_per_second']:.1f} ({load['persisted']} stored); "
              f"ratio to the floor {ratio:.3f} [target >= {TARGET_FLOOR_RATIO}: {verdict(ratio >= TARGET_FLOOR_RATIO)}]")
    if growth is not None:
        w, a = growth["window"], growth["after"]
        if growth["service_ratio"] is None:
            print(f"  cost growth: the match ended before action {a + w}")
        else:
            worst = max(growth["service_ratio"], growth["service_cpu_ratio"])
            print(f"  cost growth (one match, services.action_submit; the two windows timed turn about): "
                  f"actions 1-{w} median {growth['service_early'] * 1000:.2f} ms, actions {a + 1}-{a + w} median "
                  f"{growth['service_late'] * 1000:.2f} ms: ratio {growth['service_ratio']:.2f}; CPU time "
                  f"{growth['service_cpu_early'] * 1000:.2f} -> {growth['service_cpu_late'] * 1000:.2f} ms: "
                  f"ratio {growth['service_cpu_ratio']:.2f} [target <= {TARGET_GROWTH}: {verdict(worst <= TARGET_GROWTH)}]")
            print(f"    the four boards after each action: {growth['boards_early'] * 1000:.2f} -> "
                  f"{growth['boards_late'] * 1000:.2f} ms: ratio {growth['boards_ratio']:.2f}; CPU time "
                  f"{growth['boards_cpu_early'] * 1000:.2f} -> {growth['boards_cpu_late'] * 1000:.2f} ms: "
                  f"ratio {growth['boards_cpu_ratio']:.2f}")
            if growth["same_place_service_ratio"] is not None:
                s0, r = growth["round_first_action"], growth["round"]
                print(f"    the same place in a round (round 1's first {w} actions, round {r}'s: actions "
                      f"{s0}-{s0 + w - 1}): service {growth['same_place_service_ratio']:.2f} "
                      f"(CPU {growth['same_place_service_cpu_ratio']:.2f}), four boards "
                      f"{growth['same_place_boards_ratio']:.2f} (CPU {growth['same_place_boards_cpu_ratio']:.2f})")
            print(f"    queries per action: service {growth['service_queries_early']:.0f} -> "
                  f"{growth['service_queries_late']:.0f}, four boards {growth['board_queries_early']:.0f} -> "
                  f"{growth['board_queries_late']:.0f}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.tables < 1 or args.seconds <= 0:
        raise SystemExit("--tables and --seconds must be positive")
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
            results["floor"] = {"actions": f.actions, "seconds": f.seconds, "per_second": f.per_second}
        if args.growth_after > 0:
            results["growth"] = growth_phase(args.growth_after, args.growth_window, args.seed - 1)
        results["load"] = load_phase(args, db)
        report(results)
    finally:
        if "django" in sys.modules and "django.db" in sys.modules:
            from django.db import connections

            connections.close_all()
        if not args.keep_database:
            db.drop()
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0 if results["load"]["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
