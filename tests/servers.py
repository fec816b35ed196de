"""Real server processes for tests that need more than an in-process ASGI app.

- `Daphne`: the site (tablesite.asgi, HTTP + websockets + the computer worker) in a
  daphne subprocess on a loopback port (started as production starts it:
  tablesite/server.py), against the pytest-django test database.
  It can be killed with SIGKILL and started again on the same port (fault tests).
- `Redis`: a private ``redis-server`` on a free port, no persistence, restartable.
- `Proxy`: HAProxy in front of some `Daphne`s (deploy/haproxy.cfg.template, filled by
  tablesite/haproxy.py): a table's page and socket hashed on its match id to one of them.
- `Processes`: owns every process a test started and ends them all, however the
  test ends (the `procs` fixture of tests/conftest.py uses it).
- `TableSocket`: a websocket client of ``/ws/m/<id>/`` over a real socket (the
  ``websockets`` library) that keeps every raw frame, the acks and the boards.
- `choose_from_board(html)`: a legal move read from a board's HTML alone, the way
  the browser knows it (data-tile / data-targets / data-act / data-cmd).

Tests using these need ``@pytest.mark.django_db(transaction=True)`` (what they write
is committed, so the server sees it) and the same SECRET_KEY in the server as in
the test process (sessions made with `session_cookie` are then valid there).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

from tests import frames

REPO_ROOT = Path(__file__).resolve().parent.parent
REDIS_SERVER = "/usr/bin/redis-server"
HAPROXY = "/usr/sbin/haproxy"
START_TIMEOUT = 30.0


def free_port() -> int:
    """A loopback TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def free_ports_in_a_row(count: int) -> int:
    """The first of `count` consecutive loopback ports nobody uses now (`.ci/serve` puts its
    daphnes on PORT+1..PORT+N), below the system's range of ports for outgoing connections
    (32768 and up on Linux), which a browser's or a database client's socket could take
    between this choice and the servers' start."""
    rng = random.Random()
    for _ in range(200):
        first = rng.randrange(20000, 32000 - count)
        try:
            with contextlib.ExitStack() as held:
                for port in range(first, first + count):
                    s = held.enter_context(socket.socket())
                    s.bind(("127.0.0.1", port))
        except OSError:
            continue
        return first
    raise RuntimeError(f"no {count} free ports in a row")


def database_url(settings_dict: dict[str, Any]) -> str:
    """A postgres:// URL for the database Django is connected to (in tests: the test database)."""
    user = quote(settings_dict.get("USER") or "", safe="")
    password = quote(settings_dict.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = f":{settings_dict['PORT']}" if settings_dict.get("PORT") else ""
    return f"postgres://{auth}{host}{port}/{quote(settings_dict['NAME'], safe='')}"


def server_env(
    *, redis_url: str | None = None, computer_delay: float = 0.02, **extra: str
) -> dict[str, str]:
    """The environment of a test server: this test run's database and secret, DEBUG on
    (static files from static/), loopback hosts, the computer worker on."""
    from django.conf import settings
    from django.db import connection

    env = {k: v for k, v in os.environ.items() if k not in ("TEST_DATABASE_NAME", "REDIS_URL")}
    env.update(
        DJANGO_SETTINGS_MODULE="tablesite.settings",
        DATABASE_URL=database_url(connection.settings_dict),
        SECRET_KEY=settings.SECRET_KEY,
        DEBUG="true",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        COMPUTER_DELAY=str(computer_delay),
        COMPUTER_WORKER="on",
        # a second server of a test asks a held lock once more, not for 10 s; one killed a
        # moment ago has let go of it well within this
        COMPUTER_LOCK_WAIT="2",
        CONN_MAX_AGE="0",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    if redis_url:
        env["REDIS_URL"] = redis_url
    env.update(extra)
    return env


def _wait_for_port(
    port: int, process: subprocess.Popen[bytes], what: str, log: Path, timeout: float
) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited with {process.returncode}:\n{tail(log)}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"{what} did not answer within {timeout}s:\n{tail(log)}"
                ) from None
            time.sleep(0.05)


def tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


class _Process:
    """A subprocess in its own process group, on a fixed port, that can be killed and started again."""

    name = "process"
    #: the folder it runs in (bench/page.py runs another commit's files elsewhere)
    cwd: Path = REPO_ROOT

    def __init__(self, port: int | None = None, log_dir: Path | None = None) -> None:
        self.port = port or free_port()
        self.log_dir = log_dir or Path(tempfile.mkdtemp(prefix="mextrain-servers-"))
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        #: it had to be killed: SIGTERM did not end it within 10 s (`stop`)
        self.stubborn = False

    def command(self) -> list[str]:
        raise NotImplementedError

    def environment(self) -> dict[str, str] | None:
        return None

    @property
    def log_path(self) -> Path:
        return self.log_dir / f"{self.name}-{self.port}.log"

    def start(self, timeout: float = START_TIMEOUT) -> None:
        assert not self.running, f"{self.name} on {self.port} is already running"
        self.starts += 1
        with open(self.log_path, "ab") as log:
            log.write(f"\n---- start {self.starts}\n".encode())
            log.flush()
            self.process = subprocess.Popen(
                self.command(),
                cwd=self.cwd,
                env=self.environment(),
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        _wait_for_port(
            self.port, self.process, f"{self.name} on port {self.port}", self.log_path, timeout
        )

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def _signal(self, sig: int) -> None:
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, sig)

    def kill(self) -> None:
        """SIGKILL, as a crash or the OOM killer would: no cleanup of any kind."""
        self._signal(signal.SIGKILL)
        if self.process is not None:
            self.process.wait(timeout=10)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after 10 s (`stubborn` then says so: a deployment's restart
        sends SIGTERM and waits, so a process must end by itself)."""
        self._signal(signal.SIGTERM)
        if self.process is not None:
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.stubborn = True
                self.kill()

    def restart(self, *, hard: bool = True) -> None:
        (self.kill if hard else self.stop)()
        self.start()

    def log(self) -> str:
        return tail(self.log_path, 200)


class Daphne(_Process):
    """The site in a daphne process (see `server_env`)."""

    name = "daphne"

    def __init__(
        self, env: dict[str, str], port: int | None = None, log_dir: Path | None = None
    ) -> None:
        super().__init__(port, log_dir)
        self.env = env

    def command(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "tablesite.server",  # daphne with the table's frame limit (closes with 1009)
            "-b",
            "127.0.0.1",
            "-p",
            str(self.port),
            "tablesite.asgi:application",
        ]

    def environment(self) -> dict[str, str]:
        return self.env

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


class Computers(_Process):
    """``manage.py run_computers`` (the computer players in a process of their own, beside
    daphne when ``REDIS_URL`` is set). Listens on no port: started once its log says so."""

    name = "computers"

    def __init__(self, env: dict[str, str], log_dir: Path | None = None) -> None:
        super().__init__(None, log_dir)
        self.env = env

    def command(self) -> list[str]:
        return [sys.executable, "manage.py", "run_computers"]

    def environment(self) -> dict[str, str]:
        return self.env

    def start(self, timeout: float = START_TIMEOUT) -> None:
        assert not self.running, "run_computers is already running"
        self.starts += 1
        marker = f"---- start {self.starts}"
        with open(self.log_path, "ab") as log:
            log.write(f"\n{marker}\n".encode())
            log.flush()
            self.process = subprocess.Popen(
                self.command(),
                cwd=REPO_ROOT,
                env=self.environment(),
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while (
            "waiting for turns"
            not in self.log_path.read_text(errors="replace").rsplit(marker, 1)[-1]
        ):
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"run_computers exited with {self.process.returncode}:\n{tail(self.log_path)}"
                )
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"run_computers did not start within {timeout}s:\n{tail(self.log_path)}"
                )
            time.sleep(0.05)


class Redis(_Process):
    """A private redis-server: loopback only, nothing saved, so a restart starts it empty."""

    name = "redis"

    def command(self) -> list[str]:
        return [
            REDIS_SERVER,
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--daemonize",
            "no",
            "--protected-mode",
            "yes",
            "--loglevel",
            "warning",
        ]

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"


class Proxy(_Process):
    """HAProxy in front of `servers` (their ports taken when it starts), logging every request.
    `url`/`ws_url` as a `Daphne`'s, so a `TableSocket` connects through it."""

    name = "haproxy"

    def __init__(
        self, servers: list[Daphne], port: int | None = None, log_dir: Path | None = None
    ) -> None:
        super().__init__(port, log_dir)
        self.servers = servers

    @property
    def config_path(self) -> Path:
        return self.log_dir / f"haproxy-{self.port}.cfg"

    @property
    def stats_socket(self) -> Path:
        return self.log_dir / f"haproxy-{self.port}.sock"

    def command(self) -> list[str]:
        return [HAPROXY, "-f", str(self.config_path), "-db"]

    def start(self, timeout: float = START_TIMEOUT) -> None:
        from tablesite.haproxy import render

        self.config_path.write_text(
            render(
                bind=f"127.0.0.1:{self.port}",
                servers=[f"127.0.0.1:{s.port}" for s in self.servers],
                stats_socket=str(self.stats_socket),
                log_level="info",
            )
        )
        super().start(timeout)

    def server_named(self, name: str) -> Daphne:
        """The daphne the proxy calls `name` (``X-Served-By``: d1, d2, ...)."""
        return self.servers[int(name.removeprefix("d")) - 1]

    def up(self) -> dict[str, bool]:
        """Each server's state as the proxy's health checks have it (its admin socket)."""
        return proxy_up(self.stats_socket)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


def proxy_up(stats_socket: Path) -> dict[str, bool]:
    """Each daphne's state as HAProxy's health checks have it (``show stat`` on its admin
    socket): name (d1, d2, ...) -> whether it is UP."""
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(str(stats_socket))
        s.sendall(b"show stat\n")
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    out = {}
    for line in data.decode().splitlines():
        fields = line.split(",")
        if len(fields) > 17 and fields[0] == "daphnes" and fields[1] not in ("BACKEND", "FRONTEND"):
            out[fields[1]] = fields[17].startswith("UP")
    return out


def require(binary: str, package: str) -> None:
    """Skip (fail under CI=true) when a Debian binary a test needs is missing."""
    if not os.access(binary, os.X_OK):
        import pytest

        from tests.conftest import in_ci

        message = f"{binary} is missing (Debian: apt-get install {package}; `bash .ci/test` does it as root)"
        if in_ci():
            pytest.fail(message + " [CI=true: the test must run]")
        pytest.skip(message)


class Processes:
    """Every process a test started; `close()` ends them all (the fixtures' finalizer)."""

    def __init__(self) -> None:
        self.log_dir = Path(tempfile.mkdtemp(prefix="mextrain-servers-"))
        self.started: list[_Process] = []

    def daphne(self, *, port: int | None = None, start: bool = True, **env: Any) -> Daphne:
        server = Daphne(server_env(**env), port=port, log_dir=self.log_dir)
        self.started.append(server)
        if start:
            server.start()
        return server

    def computers(self, *, start: bool = True, **env: Any) -> Computers:
        """A ``manage.py run_computers`` process (`server_env`'s environment)."""
        worker = Computers(server_env(**env), log_dir=self.log_dir)
        self.started.append(worker)
        if start:
            worker.start()
        return worker

    def redis(self, *, start: bool = True) -> Redis:
        if not os.access(REDIS_SERVER, os.X_OK):
            import pytest

            from tests.conftest import in_ci

            message = f"{REDIS_SERVER} is missing (Debian: apt-get install redis-server; `bash .ci/test` does it as root)"
            if in_ci():
                pytest.fail(message + " [CI=true: the Redis fault test must run]")
            pytest.skip(message)
        server = Redis(log_dir=self.log_dir)
        self.started.append(server)
        if start:
            server.start()
        return server

    def proxy(self, servers: list[Daphne], *, start: bool = True) -> Proxy:
        """HAProxy in front of `servers` (see `Proxy`)."""
        require(HAPROXY, "haproxy")
        proxy = Proxy(servers, log_dir=self.log_dir)
        self.started.append(proxy)
        if start:
            proxy.start()
        return proxy

    def logs(self) -> str:
        return "\n".join(f"==== {p.name} {p.port}\n{p.log()}" for p in self.started)

    def close(self) -> list[str]:
        """Stop every process; returns those that did not end by themselves on SIGTERM."""
        for p in reversed(self.started):
            with contextlib.suppress(Exception):
                p.stop()
        return [f"{p.name} on {p.port}" for p in self.started if p.stubborn]


@contextlib.contextmanager
def processes() -> Iterator[Processes]:
    """A `Processes` pool for a block; at its end every process is stopped, and one that had
    to be killed (SIGTERM did not end it) fails the block."""
    pool = Processes()
    try:
        yield pool
    finally:
        stubborn = pool.close()
    assert not stubborn, f"did not end on SIGTERM within 10 s: {stubborn}"


def session_cookie(user: Any) -> str:
    """A session for `user` in the (test) database, as the `sessionid` cookie's value."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


# ---------------------------------------------------------------- a websocket client


def rid() -> str:
    return uuid.uuid4().hex


class TableSocket:
    """One table connection over a real socket. Every raw frame received is kept in
    `frames` (for the secrecy checks), acks by request id in `acks`."""

    def __init__(
        self,
        server: Daphne | Proxy,
        match_id: int,
        *,
        cookie: str | None = None,
        watch: str | None = None,
        origin: str | None = None,
        name: str = "",
    ) -> None:
        self.server = server
        self.match_id = match_id
        self.cookie = cookie
        self.watch = watch
        self.origin = origin if origin is not None else server.url
        self.name = name
        self.ws: Any = None
        self.frames: list[str] = []
        self.acks: dict[str, int] = {}
        self.errors: list[dict[str, Any]] = []
        self.last_board: dict[str, Any] | None = None
        self.connects = 0
        #: the process that answered each handshake (``X-Served-By``, through a `Proxy`)
        self.served_by: list[str | None] = []

    @property
    def url(self) -> str:
        return f"{self.server.ws_url}/ws/m/{self.match_id}/" + (
            f"?watch={self.watch}" if self.watch else ""
        )

    async def open(self, timeout: float = 10.0) -> None:
        from websockets.asyncio.client import connect
        from websockets.typing import Origin

        headers = {"Cookie": f"sessionid={self.cookie}"} if self.cookie else {}
        self.ws = await asyncio.wait_for(
            connect(
                self.url,
                origin=Origin(self.origin),
                additional_headers=headers,
                open_timeout=timeout,
                max_size=2**23,
                ping_interval=None,
            ),
            timeout,
        )
        self.connects += 1
        self.served_by.append(self.ws.response.headers.get("X-Served-By"))

    async def open_until(self, deadline: float) -> None:
        """Connect, retrying (a restarting server refuses for a moment) until `deadline` (monotonic)."""
        delay = 0.05
        while True:
            try:
                await self.open(timeout=max(0.5, min(5.0, deadline - time.monotonic())))
                return
            # refused, reset, a failed handshake (OSError, InvalidStatus), a timeout
            except Exception as e:
                if time.monotonic() + delay > deadline:
                    raise TimeoutError(f"{self.name}: could not reconnect: {e!r}") from e
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.5)

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        text = raw if isinstance(raw, str) else raw.decode()
        self.frames.append(text)
        message: dict[str, Any] = json.loads(text)
        if message.get("type") == "update":
            # The page applies the changed parts to its board (games/board/parts.py): so do we.
            message = frames.as_board(self.last_board, message)
        kind = message.get("type")
        if kind == "board":
            self.last_board = message
        elif kind == "ack":
            self.acks[message["request_id"]] = message["version"]
        elif kind == "error":
            self.errors.append(message)
        return message

    async def expect(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        message = await self.recv(timeout)
        assert message["type"] == kind, (self.name, message)
        return message

    async def board(self, at_least: int = 0, timeout: float = 10.0) -> dict[str, Any]:
        """Boards until one at `at_least` or later (other messages are recorded on the way)."""
        end = time.monotonic() + timeout
        while True:
            if self.last_board is not None and self.last_board["version"] >= at_least:
                return self.last_board
            await self.recv(max(0.01, end - time.monotonic()))

    async def send(self, **message: Any) -> None:
        await self.ws.send(json.dumps(message))

    async def send_raw(self, data: str | bytes) -> None:
        await self.ws.send(data)

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)

    @property
    def version(self) -> int:
        assert self.last_board is not None, f"{self.name} has no board yet"
        return int(self.last_board["version"])


_HAND_TILE = re.compile(r'data-tile="(\d+-\d+)" data-targets="([^"]*)"')
_ACT = re.compile(r'data-act="(engine|draw|pass|end)" data-seat="(\d+)"')
_CMD = re.compile(r'data-cmd="([a-z_]+)"')


def choose_from_board(html: str) -> dict[str, Any] | None:
    """The command a simple player sends for this board, or None when it is not theirs to act.

    Read from the HTML alone (what the server offers): the engine first, then the first
    tile that fits (on its first target), then draw, pass, end; Next round once a round
    is over. Returns a message without version and request id."""
    acts = {act: int(seat) for act, seat in _ACT.findall(html)}
    if "engine" in acts:
        return {"type": "act", "seat": acts["engine"], "action": {"act": "engine"}}
    for tile, targets in _HAND_TILE.findall(html):
        if targets.split():
            target = targets.split()[0]
            seat = re.search(r'<section class="hand[^"]*"[^>]*data-seat="(\d+)"', html)
            assert seat is not None, "a playable tile outside a hand"
            train: int | str = int(target) if target.isdigit() else target
            return {
                "type": "act",
                "seat": int(seat.group(1)),
                "action": {"act": "play", "tile": tile, "train": train},
            }
    for act in ("draw", "pass", "end"):
        if act in acts:
            return {"type": "act", "seat": acts[act], "action": {"act": act}}
    if "next_round" in _CMD.findall(html):
        return {"type": "next_round"}
    return None
