"""The site's daphne: stock daphne with the table's frame limit enforced by the protocol server.

Start it as daphne itself is started, with the same options::

    python -m tablesite.server -b 127.0.0.1 -p 8000 tablesite.asgi:application

(`.ci/serve`, `tests.servers.Daphne` and the README's production command do.)

What stock daphne lacks (daphne 4.2): a websocket frame or message over its size
limits (``--websocket-max-frame-size``, ``--websocket-max-message-size``, 1 MiB each
by default) makes Autobahn fail the connection, and daphne's factory keeps Autobahn's
default ``failByDrop=True``: the TCP connection is dropped without a close frame, so
the client learns no reason (1006). Under those limits the frame reaches the
application, which may close with 1000 or 3000-4999 only (Autobahn refuses 1009
from an application), hence the table's own `games.table.protocol.TOO_BIG` (4009).

`SiteServer` configures daphne's ``WebSocketServerFactory`` once the reactor runs
(before any connection is accepted):

- ``setProtocolOptions(maxFramePayloadSize=MAX_FRAME)`` (`games.table.protocol.MAX_FRAME`
  bytes, the table's own limit, whatever the command line says: the table is the only
  websocket route): Autobahn reads a frame's length from its header and fails the
  connection there, before reading the payload, so a frame just over the limit and
  one of many megabytes end alike;
- its protocol is `TableWebSocketProtocol`, which fails a *message* over the same limit
  however it is split into frames (Autobahn's own ``maxMessagePayloadSize`` cannot be
  used: it caps the messages the server sends as well, and a board is tens of kB);
- ``failByDrop=False``: a connection Autobahn fails gets a close frame with its code
  first — 1009 ("message too big") for a frame or message over the limit,
  1002/1007 for a broken frame or invalid UTF-8 — then, once the client answers or
  Autobahn's close timeout passes, the connection ends and the application gets its
  ``websocket.disconnect`` (the table's clean-up: groups left, its pause ended).

The application's own check (`games.table.protocol.check_frame`, closing with
`TOO_BIG`) stays as the wall for servers without this limit (stock daphne, the
in-process tests).

Request bodies: stock daphne (through Twisted) reads a whole body,
however large, and hands it to the application in one go, so a 300 MB POST was held in
memory before Django refused it (with a ``RequestDataTooBig`` traceback). Every HTTP
request here is a `BodyLimitedRequest`: a body declared (``Content-Length``) or found
(chunked) to be over `tablesite.edge.body_limit` bytes is answered 413 at once, in one
log line, the connection stops being read and is closed, and no application instance
is made for it. (The proxy refuses a declared one first: deploy/haproxy.cfg.template.)
"""

from __future__ import annotations

import logging
from typing import Any

from daphne.cli import CommandLineInterface
from daphne.http_protocol import WebRequest
from daphne.server import Server
from daphne.ws_protocol import WebSocketProtocol
from twisted.internet import reactor  # daphne.server installed its asyncio reactor first
from twisted.internet.defer import Deferred

logger = logging.getLogger("tablesite.server")


def frame_limit() -> int:
    """The table's frame limit in bytes (the application is loaded, so Django is set up)."""
    from games.table.protocol import MAX_FRAME

    return MAX_FRAME


class TableWebSocketProtocol(WebSocketProtocol):
    """daphne's websocket protocol, failing a message received over `limit` bytes in all
    (however many frames it comes in) with 1009, as Autobahn fails a frame over its limit."""

    #: bytes a message received may hold (`SiteServer` sets it: `frame_limit`)
    limit = 0

    def onMessageFrameBegin(self, length: int) -> None:
        super().onMessageFrameBegin(length)  # Autobahn adds the frame to the message's length
        total = self.message_data_total_length
        if self.limit and not self.failedByMe and total > self.limit:
            # Autobahn's own hook for a message over its limit: fails the connection (1009)
            self._max_message_size_exceeded(
                total, self.limit, f"message of {total} bytes, over {self.limit}"
            )


class BodyLimitedRequest(WebRequest):
    """daphne's HTTP request, refusing a body over `limit` bytes before it is read (see above)."""

    #: bytes a request body may hold (`SiteServer` sets it: `tablesite.edge.body_limit`)
    limit = 0
    #: the whole 413 answer, status line to body (`SiteServer` sets it)
    refusal = b""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.refused = False
        self.received = 0

    def gotLength(self, length: int | None) -> None:
        if self.limit and length is not None and length > self.limit:
            self.refuse(length)
            return
        super().gotLength(length)

    def handleContentChunk(self, data: bytes) -> None:
        if self.refused:
            return
        self.received += len(data)
        if self.limit and self.received > self.limit:  # a chunked body without a declared length
            self.refuse(None)
            return
        super().handleContentChunk(data)

    def refuse(self, length: int | None) -> None:
        """Answer 413 now, read no more, close (no application instance is made)."""
        self.refused = True
        size = (
            f"{length} bytes" if length is not None else f"more than {self.limit} bytes (chunked)"
        )
        # The request line is the channel's until the body is read (Request.requestReceived).
        method = getattr(self.channel, "_command", b"") or b"?"
        path = getattr(self.channel, "_path", b"") or b"?"
        logger.warning(
            "413: %s %s with a body of %s, over the limit of %s",
            method.decode("latin-1"),
            path.decode("latin-1")[:200],
            size,
            self.limit,
        )
        self.channel.transport.write(self.refusal)
        self.channel.loseConnection()  # stops reading; closes once the answer is written

    def requestReceived(self, command: bytes, path: bytes, version: bytes) -> None:
        if self.refused:
            return  # never processed (no application instance): the answer is already sent
        super().requestReceived(command, path, version)


def refusal_bytes() -> bytes:
    """The raw 413 answer of `BodyLimitedRequest` (the application is loaded: Django is set up)."""
    from tablesite.edge import too_large_text

    body = too_large_text().encode()
    head = (
        "HTTP/1.1 413 Content Too Large\r\nContent-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n"
    )
    return head.encode() + body


class SiteServer(Server):
    """daphne's `Server` with the table's frame limit and close frames on failure (see above)."""

    def run(self) -> None:
        # daphne's run() makes its factory and then runs the reactor; no connection is
        # accepted before the reactor runs, so every one is made with these options.
        reactor.callWhenRunning(self.configure_websockets)
        # At SIGTERM or Ctrl-C, before the loop stops: the tables' database calls under way
        # (and those of the connections the shutdown ends) finish (games.table.threads.drain).
        reactor.addSystemEventTrigger("before", "shutdown", self.drain_tables)  # type: ignore[arg-type]  # a zope.interface method: no self
        super().run()

    def drain_tables(self) -> Deferred[None]:
        import asyncio

        from games.table.threads import drain

        return Deferred.fromFuture(asyncio.ensure_future(drain()))

    def log_action(self, protocol: str, action: str, details: dict[str, Any]) -> None:
        """daphne's access log, without the proxy's health checks (one a second per server)."""
        from tablesite.edge import HEALTH_PATH

        if (
            protocol == "http"
            and details.get("path") == HEALTH_PATH
            and details.get("status") == 200
        ):
            return
        super().log_action(protocol, action, details)

    def configure_websockets(self) -> None:
        from tablesite.edge import body_limit

        BodyLimitedRequest.limit = body_limit()
        BodyLimitedRequest.refusal = refusal_bytes()
        factory = self.http_factory
        build = factory.buildProtocol

        def build_protocol(addr: Any) -> Any:
            protocol = build(addr)  # daphne's: sets its WebRequest as the request factory
            if protocol is not None:
                protocol.requestFactory = BodyLimitedRequest
            return protocol

        factory.buildProtocol = build_protocol

        limit = frame_limit()
        TableWebSocketProtocol.limit = limit
        self.ws_factory.protocol = TableWebSocketProtocol
        # allowNullOrigin: Autobahn's setProtocolOptions resets it to False unless given, and
        # daphne sets True, leaving origins to the application (tablesite/origins.py: 403).
        self.ws_factory.setProtocolOptions(
            maxFramePayloadSize=limit, failByDrop=False, allowNullOrigin=True
        )


class SiteCommandLine(CommandLineInterface):
    server_class = SiteServer


def main() -> None:
    SiteCommandLine.entrypoint()  # the arguments from sys.argv, as ``daphne`` reads them


if __name__ == "__main__":
    main()
