"""Request bodies are limited before they are read; refusals log one line.

On a real daphne (tablesite/server.py `BodyLimitedRequest`):
- a 300 MB body is answered 413 as soon as its headers arrive; the server stops reading
  it (the client's sending fails soon) and its memory does not grow;
- a body over 2.5 MB (declared, or chunked without a length) is answered 413 with the
  words in every language and no ``RequestDataTooBig`` traceback in the log; one just
  under the limit still reaches the site (a 403 from the CSRF check, not a 413);
- a staff member's admin 403 (PermissionDenied) is one log line, not a traceback.
In process (tablesite/edge.py `BodyLimit`, for servers other than the site's daphne):
the same 413 before the application runs.
"""

from __future__ import annotations

import socket
import time
from typing import Any

import psutil
import pytest
from asgiref.testing import ApplicationCommunicator
from django.contrib.auth import get_user_model

from tablesite.edge import body_limit
from tests.servers import Daphne, Processes, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

MB = 1_000_000


def rss(server: Daphne) -> int:
    assert server.process is not None
    return int(psutil.Process(server.process.pid).memory_info().rss)


def post_head(server: Daphne, path: str, length: int | None, *, extra: str = "") -> bytes:
    size = (
        f"Content-Length: {length}\r\n" if length is not None else "Transfer-Encoding: chunked\r\n"
    )
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        f"Content-Type: application/x-www-form-urlencoded\r\n{size}{extra}\r\n"
    ).encode()


def read_answer(sock: socket.socket, timeout: float = 10.0) -> bytes:
    """What the server answers until it closes (or sends a whole head and body)."""
    sock.settimeout(timeout)
    data = b""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            chunk = sock.recv(65536)
        except (ConnectionResetError, TimeoutError):
            break
        if not chunk:
            break
        data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:") and len(body) >= int(
                line.split(b":")[1]
            ):
                return data
    return data


def test_a_300_mb_body_is_refused_unread_and_the_server_does_not_grow(procs: Processes) -> None:
    server = procs.daphne()
    before = rss(server)
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(post_head(server, "/accounts/login/", 300 * MB))
        answer = read_answer(sock)
        assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
        # Keep sending the body: the server reads no more and has closed the connection.
        sent, chunk = 0, b"x" * MB
        with pytest.raises(OSError):  # noqa: PT012 - the sending is what fails
            while sent < 300 * MB:
                sock.sendall(chunk)
                sent += len(chunk)
        assert sent < 50 * MB, sent
    assert rss(server) - before < 20 * MB, (before, rss(server))
    assert "Traceback" not in server.log(), server.log()


def test_bodies_over_the_limit_get_413_in_every_language_without_a_traceback(
    procs: Processes,
) -> None:
    server = procs.daphne()
    limit = body_limit()
    assert limit == 2_621_440  # Django's DATA_UPLOAD_MAX_MEMORY_SIZE, above a replay upload's 2 MB
    # Declared over the limit (the whole body sent along), then chunked without a length.
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(post_head(server, "/accounts/login/", 3 * MB))
        answer = read_answer(sock)
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
    text = answer.partition(b"\r\n\r\n")[2].decode()
    assert "too large" in text and "demasiado grande" in text and "zu groß" in text, text
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(post_head(server, "/accounts/login/", None))
        piece = b"a" * 65536
        try:
            for _ in range(limit // len(piece) + 2):
                sock.sendall(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
        except OSError:
            pass  # refused and closed while sending
        answer = read_answer(sock)
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
    # Just under the limit: read and handed to the site (refused there by the CSRF check).
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(post_head(server, "/accounts/login/", limit - 10) + b"a" * (limit - 10))
        answer = read_answer(sock)
    assert answer.startswith(b"HTTP/1.1 403 "), answer[:200]
    log = server.log()
    assert "RequestDataTooBig" not in log and "Traceback" not in log, log
    assert log.count("413: POST /accounts/login/") == 2, log


def test_an_admin_403_is_one_log_line(procs: Processes) -> None:
    staff = get_user_model().objects.create_user("helper", is_staff=True)  # no permission at all
    server = procs.daphne()
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(
            (
                f"GET /admin/games/match/ HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                f"Cookie: sessionid={session_cookie(staff)}\r\nConnection: close\r\n\r\n"
            ).encode()
        )
        answer = read_answer(sock)
    assert answer.startswith(b"HTTP/1.1 403 "), answer[:200]
    deadline = time.monotonic() + 5
    while "Forbidden" not in server.log() and time.monotonic() < deadline:
        time.sleep(0.05)
    lines = [line for line in server.log().splitlines() if "Forbidden (Permission denied)" in line]
    assert len(lines) == 1 and "PermissionDenied" in lines[0], server.log()
    assert "Traceback" not in server.log(), server.log()


@pytest.mark.asyncio
async def test_the_asgi_wall_answers_413_before_the_application_reads() -> None:
    from tablesite.asgi import application

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/accounts/login/",
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1"), (b"content-length", str(body_limit() + 1).encode())],
        "scheme": "http",
        "server": ("127.0.0.1", 80),
        "client": ("127.0.0.1", 1),
        "asgi": {"version": "3.0"},
    }
    app = ApplicationCommunicator(
        application, scope
    )  # nothing is ever sent to it: it must not wait for a body
    start: Any = await app.receive_output(5)
    assert start["status"] == 413
    body = await app.receive_output(5)
    assert b"too large" in body["body"]
