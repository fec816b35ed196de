"""The load benchmark's own database and daphne processes, and what they cost.

`BenchDatabase` creates a fresh PostgreSQL database (dropped first if a previous
run left it) on the server that DATABASE_URL names (default 127.0.0.1:5432) and
drops it again at the end. `Servers` starts one or more daphne processes of the
site on free loopback ports against that database, waits until each answers,
measures their CPU time (user + system, from /proc through psutil) and peak
resident memory (VmHWM), and stops them: SIGTERM, then SIGKILL if one hangs
(the processes are `tests.servers.Daphne`, the launcher the tests use).
Nothing is left running when the benchmark exits, however it exits.

With ``proxy=True`` (bench/load.py ``--mode proxy``) `Servers` also starts the
computer worker (``manage.py run_computers``) and HAProxy in front of the daphnes
(`tests.servers.Proxy`, deploy/haproxy.cfg.template); the clients then connect to
`entry_port`. `cpu_by_process` counts every process of the site apart — each daphne,
the worker, the proxy, and the Redis server (`redis_pid`, found on this machine by
its port) — for the CPU per action of each.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psutil
import psycopg
from psycopg import sql

from tests.servers import Computers, Daphne, Proxy, tail

DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432/postgres"
#: the secret shared by the benchmark (which writes the session rows) and its servers
SECRET_KEY = "load-benchmark-only-not-a-real-secret-0123456789abcdef"


def with_database(url: str, name: str) -> str:
    """The same server and credentials, another database."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


class BenchDatabase:
    """A fresh database for one run, created empty and dropped at `drop()`."""

    def __init__(self, name: str, server_url: str | None = None) -> None:
        self.name = name
        self.server_url = server_url or os.environ.get("DATABASE_URL") or DEFAULT_SERVER
        self.url = with_database(self.server_url, name)

    def _admin(self) -> psycopg.Connection:
        return psycopg.connect(
            with_database(self.server_url, "postgres"), autocommit=True, connect_timeout=10
        )

    def create(self) -> None:
        with self._admin() as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(self.name))
            )
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(self.name)))

    def drop(self) -> None:
        with contextlib.suppress(psycopg.Error), self._admin() as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(self.name))
            )

    def backend_pids(self) -> list[int]:
        """The PostgreSQL backends serving this database now (for their CPU time)."""
        with self._admin() as conn:
            rows = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s", (self.name,)
            ).fetchall()
        return [int(r[0]) for r in rows]


def server_env(database_url: str, *, redis_url: str | None, conn_max_age: int) -> dict[str, str]:
    """The environment of a benchmark server: production-like (DEBUG off, so no query log)."""
    env = dict(os.environ)
    for name in ("REDIS_URL", "TEST_DATABASE_NAME"):
        env.pop(name, None)
    env.update(
        DJANGO_SETTINGS_MODULE="tablesite.settings",
        DATABASE_URL=database_url,
        DEBUG="false",
        SECRET_KEY=SECRET_KEY,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="false",
        CONN_MAX_AGE=str(conn_max_age),
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    if redis_url:
        env["REDIS_URL"] = redis_url
    return env


@dataclass
class Server:
    """One daphne of the site (`tests.servers.Daphne`: the launcher the tests use too)
    and what it costs."""

    daphne: Daphne
    cpu_start: float = 0.0

    @property
    def port(self) -> int:
        return self.daphne.port

    @property
    def pid(self) -> int:
        assert self.daphne.process is not None, "not started"
        return self.daphne.process.pid

    @property
    def log_path(self) -> Path:
        return self.daphne.log_path

    def cpu_seconds(self) -> float:
        """User + system CPU seconds this process has used so far."""
        times = psutil.Process(self.pid).cpu_times()
        return float(times.user + times.system)

    def peak_rss(self) -> int:
        """The largest resident set this process has had, in bytes (VmHWM)."""
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
        return int(psutil.Process(self.pid).memory_info().rss)

    def log_tail(self, lines: int = 30) -> str:
        return tail(self.log_path, lines)


def redis_pid(url: str | None) -> int | None:
    """The redis-server process serving `url` on this machine (by its port), if found."""
    if not url:
        return None
    port = urlsplit(url).port or 6379
    for p in psutil.process_iter(["name", "cmdline"]):
        try:
            words = " ".join(p.info["cmdline"] or [])
            if "redis-server" in (p.info["name"] or "") + words and (
                f":{port}" in words or f"--port {port}" in words
            ):
                return int(p.pid)
        except (psutil.Error, OSError):
            continue
    return None


def cpu_of(pid: int) -> float:
    """User + system CPU seconds of a process so far (0 once it is gone)."""
    try:
        times = psutil.Process(pid).cpu_times()
    except (psutil.Error, OSError):
        return 0.0
    return float(times.user + times.system)


@dataclass
class Servers:
    """`count` daphne processes of the site, on ports of their own; with `proxy`, the
    computer worker and HAProxy in front of them as well."""

    env: dict[str, str]
    count: int = 1
    proxy: bool = False
    servers: list[Server] = field(default_factory=list)
    log_dir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="bench-load-")))
    worker: Computers | None = None
    front: Proxy | None = None
    #: process name -> CPU seconds at `mark`
    marks: dict[str, float] = field(default_factory=dict)

    def start(self, timeout: float = 60.0) -> None:
        for _ in range(self.count):
            server = Server(Daphne(self.env, log_dir=self.log_dir))
            self.servers.append(server)  # stopped by stop() even if it fails to answer
            server.daphne.start(timeout)
        if self.proxy:
            self.worker = Computers(self.env, log_dir=self.log_dir)
            self.worker.start(timeout)
            self.front = Proxy([s.daphne for s in self.servers], log_dir=self.log_dir)
            self.front.start(timeout)

    @property
    def ports(self) -> list[int]:
        return [s.port for s in self.servers]

    @property
    def entry_port(self) -> int | None:
        """The proxy's port, when there is one (every client connects there)."""
        return self.front.port if self.front is not None else None

    def pids(self) -> dict[str, int]:
        """Every process of the site this run measures, by name."""
        out = {f"daphne {i}": s.pid for i, s in enumerate(self.servers, start=1)}
        if self.worker is not None and self.worker.process is not None:
            out["run_computers"] = self.worker.process.pid
        if self.front is not None and self.front.process is not None:
            out["haproxy"] = self.front.process.pid
        redis = redis_pid(self.env.get("REDIS_URL"))
        if redis is not None:
            out["redis-server"] = redis
        return out

    def mark(self) -> None:
        """Start counting CPU time from now."""
        for s in self.servers:
            s.cpu_start = s.cpu_seconds()
        self.marks = {name: cpu_of(pid) for name, pid in self.pids().items()}

    def cpu_since_mark(self) -> float:
        """The daphnes' CPU seconds since `mark` (the "server CPU")."""
        return sum(s.cpu_seconds() - s.cpu_start for s in self.servers)

    def cpu_by_process(self) -> dict[str, float]:
        """CPU seconds since `mark` of each process of the site (`pids`)."""
        return {
            name: cpu_of(pid) - self.marks[name]
            for name, pid in self.pids().items()
            if name in self.marks
        }

    def peak_rss(self) -> list[int]:
        return [s.peak_rss() for s in self.servers]

    def alive(self) -> bool:
        others = [p for p in (self.worker, self.front) if p is not None]
        return all(s.daphne.running for s in self.servers) and all(p.running for p in others)

    def stop(self) -> None:
        """SIGTERM each process (its whole process group), SIGKILL one still there after 10 s."""
        for p in (self.front, self.worker):
            if p is not None:
                p.stop()
        for s in self.servers:
            s.daphne.stop()
