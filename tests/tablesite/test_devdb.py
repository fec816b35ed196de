"""The embedded PostgreSQL used when no DATABASE_URL is given."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from tablesite import devdb
from tests.conftest import REPO_ROOT


@pytest.mark.slow
def test_devdb_starts_keeps_data_and_stops(tmp_path: Path) -> None:
    db = devdb.DevDB(tmp_path / "pg")
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
def test_devdb_command_line(tmp_path: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "tablesite.devdb", *args, "--dir", str(tmp_path / "pg")],
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
