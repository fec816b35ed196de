"""The embedded PostgreSQL used when no DATABASE_URL is given."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from tablesite import devdb
from tests.conftest import REPO_ROOT


@pytest.fixture
def pg_dir() -> Iterator[Path]:
    """A data directory for an embedded server, outside pytest's own temporary folders: run as
    root, the server runs as its own user, which must pass through every folder above its data
    (devdb opens them to it), and each pytest process closes its folder of temporary folders
    to everyone else again when it first uses it, which another test process may do at any
    moment."""
    top = Path(tempfile.mkdtemp(prefix="mextrain-devdb-"))
    try:
        yield top / "pg"
    finally:
        shutil.rmtree(top, ignore_errors=True)


@pytest.mark.slow
def test_devdb_starts_keeps_data_and_stops(pg_dir: Path) -> None:
    db = devdb.DevDB(pg_dir)
    assert db.url() is None

    url = db.start()
    try:
        assert url.startswith("postgres://postgres@127.0.0.1:") and url.endswith("/mextrain")
        assert db.url() == url and db.start() == url  # idempotent
        with psycopg.connect(url, autocommit=True) as conn:
            assert conn.execute("SELECT current_database()").fetchone() == ("mextrain",)
            conn.execute("CREATE TABLE kept (n int)")
            conn.execute("INSERT INTO kept VALUES (42)")
            # Row locks are what the game relies on.
            conn.execute("BEGIN")
            assert conn.execute("SELECT n FROM kept FOR UPDATE").fetchone() == (42,)
            conn.execute("COMMIT")
    finally:
        assert db.stop() is True
    assert db.url() is None
    assert db.stop() is False

    url = db.start()
    try:
        with psycopg.connect(url) as conn:
            assert conn.execute("SELECT n FROM kept").fetchone() == (42,)
    finally:
        db.stop()


@pytest.mark.slow
def test_devdb_command_line(pg_dir: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "tablesite.devdb", *args, "--dir", str(pg_dir)],
            cwd=REPO_ROOT, capture_output=True, text=True, timeout=120,
        )  # fmt: skip

    assert run("url").returncode == 1
    started = run("start")
    assert started.returncode == 0, started.stderr
    try:
        url = started.stdout.strip()
        assert run("url").stdout.strip() == url
        assert "running" in run("status").stdout
    finally:
        assert run("stop").returncode == 0
    assert run("url").returncode == 1
    assert "stopped" in run("status").stdout


def test_running_url_is_none_without_a_server(tmp_path: Path) -> None:
    assert devdb.running_url(tmp_path / "nothing") is None
    (tmp_path / "stale").mkdir()
    # A postmaster.pid left behind by a dead server does not count.
    (tmp_path / "stale" / "postmaster.pid").write_text(
        "999999999\n/x\n0\n5999\n\n127.0.0.1\n0 0\nready\n"
    )
    assert devdb.running_url(tmp_path / "stale") is None
