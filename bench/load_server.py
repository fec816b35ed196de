"""The load benchmark's own database and daphne processes, and what they cost.

`BenchDatabase` creates a fresh PostgreSQL database (dropped first if a previous
run left it) on the server that DATABASE_URL names (default 127.0.0.1:5432) and
drops it again at the end. `Servers` starts one or more daphne processes of the
site on free loopback ports against that database, waits until each answers,
measures their CPU time (user + system, from /proc through psutil) and peak
resident memory (VmHWM), and stops them: SIGTERM, then SIGKILL if one hangs
(the processes are `tests.servers.Daphne`, the launcher the tests use).
Nothing is left running when the benchmark exits, however it exits.
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

from tests.servers import Daphne, tail

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
        return psycopg.connect(with_database(self.server_url, "postgres"), autocommit=True, connect_timeout=10)

    def create(self) -> None:
        with self._admin() as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(self.name)))
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(self.name)))

    def drop(self) -> None:
        with contextlib.suppress(psycopg.Error), self._admin() as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(self.name)))

    def backend_pids(self) -> list[int]:
        """The PostgreSQL backends serving this database now (for their CPU time)."""
        with self._admin() as conn:
            rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", (self.name,)).fetchall()
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


@dataclass
class Servers:
    """`count` daphne processes of the site, on ports of their own."""

    env: dict[str, str]
    count: int = 1
    servers: list[Server] = field(default_factory=list)
    log_dir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="bench-load-")))

    def start(self, timeout: float = 60.0) -> None:
        for _ in range(self.count):
            server = Server(Daphne(self.env, log_dir=self.log_dir))
            self.servers.append(server)  # stopped by stop() even if it fails to answer
            server.daphne.start(timeout)

    @property
    def ports(self) -> list[int]:
        return [s.port for s in self.servers]

    def mark(self) -> None:
        """Start counting CPU time from now."""
        for s in self.servers:
            s.cpu_start = s.cpu_seconds()

    def cpu_since_mark(self) -> float:
        return sum(s.cpu_seconds() - s.cpu_start for s in self.servers)

    def peak_rss(self) -> list[int]:
        return [s.peak_rss() for s in self.servers]

    def alive(self) -> bool:
        return all(s.daphne.running for s in self.servers)

    def stop(self) -> None:
        """SIGTERM each server (its whole process group), SIGKILL one still there after 10 s."""
        for s in self.servers:
            s.daphne.stop()
