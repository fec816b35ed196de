"""`SERVERS=2 bash .ci/serve`: Redis, two daphnes, the computer worker
and HAProxy in front start together, a table's page is served through the proxy by one
daphne, and Ctrl-C (SIGINT to the script) stops every one of them."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

import psutil
import pytest
from django.db import connection

from tests.servers import (
    HAPROXY,
    REPO_ROOT,
    database_url,
    free_ports_in_a_row,
    proxy_up,
    require,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def command_line(process: psutil.Process) -> str:
    """A process's command line; "" for one that ended meanwhile (a helper the script ran
    exits between being listed and being asked)."""
    try:
        return " ".join(process.cmdline())
    except (psutil.NoSuchProcess, psutil.ZombieProcess):
        return ""


def get(url: str) -> tuple[int, str | None]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.headers.get("X-Served-By")
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("X-Served-By")


def both_up(stats_socket: Path) -> bool:
    """HAProxy's health checks have both daphnes up (its admin socket may not answer yet)."""
    try:
        return proxy_up(stats_socket) == {"d1": True, "d2": True}
    except OSError:
        return False


def test_servers_2_starts_the_proxy_two_daphnes_redis_and_the_worker_and_ctrl_c_stops_them(
    tmp_path: Any,
) -> None:
    require(HAPROXY, "haproxy")
    port = free_ports_in_a_row(3)  # the proxy's, then its two daphnes'
    env = {k: v for k, v in os.environ.items() if k not in ("TEST_DATABASE_NAME", "REDIS_URL")}
    env.update(
        SERVERS="2",
        PORT=str(port),
        HOST="127.0.0.1",
        REDIS_DB="14",
        DEBUG="true",
        DATABASE_URL=database_url(connection.settings_dict),
        LOG_LEVEL="WARNING",
    )
    log = tmp_path / "serve.log"
    # The script must hear Ctrl-C as it does in a terminal. A test run started in the
    # background of a shell without job control ignores SIGINT, and a child inherits that
    # (a shell cannot trap a signal ignored when it started): for the start, this process
    # handles it instead, which its child does not inherit.
    ignored = signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    if ignored:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with open(log, "wb") as out:
            serve = subprocess.Popen(
                ["bash", ".ci/serve"],
                cwd=REPO_ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
    finally:
        if ignored:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        deadline = time.monotonic() + 120
        while "Mexican Train is running at" not in log.read_text(errors="replace"):
            assert serve.poll() is None and time.monotonic() < deadline, log.read_text(
                errors="replace"
            )
            time.sleep(0.2)
        children = psutil.Process(serve.pid).children(recursive=True)
        names = " ".join(command_line(c) for c in children)
        assert (
            names.count("tablesite.server") == 2 and "run_computers" in names and "haproxy" in names
        ), names
        # Through the proxy, once its health checks have both daphnes up (until then a table
        # whose daphne is not up yet is served by the other): one daphne a table.
        stats = REPO_ROOT / ".data" / "haproxy.sock"
        while not both_up(stats):
            assert time.monotonic() < deadline, log.read_text(errors="replace")
            time.sleep(0.2)
        status, served = get(f"http://127.0.0.1:{port}/m/999999/")
        assert status == 404 and served in ("d1", "d2"), (status, served)
        assert {get(f"http://127.0.0.1:{port}/m/999999/")[1] for _ in range(5)} == {served}
        assert get(f"http://127.0.0.1:{port}/healthz")[0] == 200

        serve.send_signal(signal.SIGINT)  # what Ctrl-C sends the script
        gone, alive = psutil.wait_procs(children, timeout=60)
        still = [f"{p.pid} {' '.join(p.cmdline())}" for p in alive if p.is_running()]
        assert not still, (still, log.read_text(errors="replace")[-4000:])
        serve.wait(timeout=30)
    finally:
        if serve.poll() is None:
            os.killpg(serve.pid, signal.SIGKILL)
            serve.wait(timeout=10)
