"""What the site answers at its edge, before Django: the health check and the body limit.

- `Health`: ``GET /healthz`` answers ``200 ok`` from the server's event loop itself (no
  database, no Django, no host check), for the proxy's health checks
  (deploy/haproxy.cfg.template): a process that answers it accepts connections and runs
  its loop; ``503 out of service: …`` while the process does not serve (a process of
  another channel layer runs on its database: games.processes.servers). `served_by` names the
  process (host and pid) in the ``X-Served-By`` header of that answer.
- `BodyLimit`: a request whose ``Content-Length`` is over
  `body_limit` bytes (settings.REQUEST_BODY_MAX, 2.5 MiB by default: Django's
  DATA_UPLOAD_MAX_MEMORY_SIZE, and more than a replay upload's 2 MB) is answered 413
  with `too_large_text` before the application reads a byte of it, and nothing is
  logged but the access line. The site's daphne (tablesite/server.py) enforces the same
  limit earlier still, while it reads the request, so a large body is never held in
  memory; this wrapper is the wall for other servers and for the in-process tests.
- `OneLineRefusals`: a logging filter turning the traceback Django attaches to a
  refusal (PermissionDenied: admin 403s; SuspiciousOperation: RequestDataTooBig,
  TooManyFieldsSent, DisallowedHost) into one line naming the exception.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Awaitable, Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.utils import translation

from games.words import sentence

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

HEALTH_PATH = "/healthz"
#: the default body limit in bytes (Django's own DATA_UPLOAD_MAX_MEMORY_SIZE default)
DEFAULT_BODY_LIMIT = 2_621_440


def body_limit() -> int:
    """Bytes a request body may hold (settings.REQUEST_BODY_MAX)."""
    return int(getattr(settings, "REQUEST_BODY_MAX", DEFAULT_BODY_LIMIT))


def served_by() -> str:
    """This process, as the proxy's routing test and an operator read it: host:pid."""
    return f"{socket.gethostname()}:{os.getpid()}"


def too_large_text() -> str:
    """The 413 answer, in every language of the site (no request's language is known
    before its body would be read)."""
    lines = []
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            lines.append(sentence("request_too_large", mb=body_limit() / 1_000_000))
    return "\n".join(dict.fromkeys(lines)) + "\n"


def content_length(scope: Scope) -> int | None:
    """The request's declared Content-Length, or None (absent or not a number)."""
    for name, value in scope.get("headers") or ():
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def answer(
    send: Send, status: int, text: str, extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    body = text.encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                *(extra or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class Health:
    """ASGI wrapper: ``GET /healthz`` answered here (see the module's docstring)."""

    def __init__(
        self, app: Any, *, out_of_service: Callable[[], str | None] = lambda: None
    ) -> None:
        self.app = app
        #: why this process does not serve now, or None (games.processes.servers.out_of_service)
        self.out_of_service = out_of_service

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> Any:
        if (
            scope["type"] == "http"
            and scope.get("path") == HEALTH_PATH
            and scope.get("method") in ("GET", "HEAD")
        ):
            headers = [(b"x-served-by", served_by().encode())]
            reason = self.out_of_service()
            if reason is not None:  # the proxy takes it out until it serves again
                await answer(send, 503, f"out of service: {reason}\n", headers)
            else:
                await answer(send, 200, "ok\n", headers)
            return None
        return await self.app(scope, receive, send)


class BodyLimit:
    """ASGI wrapper: 413 for a declared body over `body_limit`, before the body is read."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> Any:
        if scope["type"] == "http":
            length = content_length(scope)
            if length is not None and length > body_limit():
                await answer(send, 413, too_large_text(), [(b"connection", b"close")])
                return None
        return await self.app(scope, receive, send)


class OneLineRefusals(logging.Filter):
    """Keeps a refusal's record but drops its traceback (see the module's docstring)."""

    def filter(self, record: logging.LogRecord) -> bool:
        info = record.exc_info
        if info and isinstance(info[1], PermissionDenied | SuspiciousOperation):
            record.msg = f"{record.msg} ({type(info[1]).__name__})"
            record.exc_info = None
            record.exc_text = None
        return True
