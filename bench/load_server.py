"""The load benchmark's own database and daphne processes, and what they cost.

`BenchDatabase` creates a fresh PostgreSQL database (dropped first if a previous
run left it) on the server that DATABASE_URL names (default 127.0.0.1:5432) and
drops it again at the end. `Servers` starts one or more daphne processes of the
site on free loopback ports against that database, waits until each answers,
measures their CPU time (user + system, from /proc through psutil) and peak
resident memory (VmHWM), and stops them: SIGTERM, then SIGKILL if one hangs.
Nothing is left running when the benchmark exits, however it exits.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psutil
import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432/postgres"
#: the secret shared by the benchmark (which writes the session rows) and its servers
SECRET_KEY = "load-benchmark-only-not-a-real-secret-0123456789abcdef"


def free_port() -> int:
    """A TCP port on the loopback nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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
    port: int
    process: subprocess.Popen[bytes]
    log_path: Path
    cpu_start: float = 0.0

    @property
    def pid(self) -> int:
        return self.process.pid

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
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


@dataclass
class Servers:
    """`count` daphne processes of the site, on ports of their own."""

    env: dict[str, str]
    count: int = 1
    servers: list[Server] = field(default_factory=list)
    log_dir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="bench-load-")))

    def start(self, timeout: float = 60.0) -> None:
        for i in range(self.count):
            port = free_port()
            log_path = self.log_dir / f"daphne-{i}.log"
            with open(log_path, "wb") as log:
                process = subprocess.Popen(
                    [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "tablesite.asgi:application"],
                    cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                )
            self.servers.append(Server(port=port, process=process, log_path=log_path))
        deadline = time.monotonic() + timeout
        for server in self.servers:
            while True:
                if server.process.poll() is not None:
                    raise RuntimeError(f"daphne on port {server.port} exited:\n{server.log_tail()}")
                try:
                    socket.create_connection(("127.0.0.1", server.port), timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"daphne on port {server.port} did not answer:\n{server.log_tail()}") from None
                    time.sleep(0.1)

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
        return all(s.process.poll() is None for s in self.servers)

    def stop(self) -> None:
        """SIGTERM each server (its whole process group), SIGKILL what is left after 10 s."""
        for s in self.servers:
            if s.process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(s.process.pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        for s in self.servers:
            try:
                s.process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(s.process.pid, signal.SIGKILL)
                s.process.wait(timeout=10)
