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

`SiteServer` sets Autobahn's protocol options on daphne's ``WebSocketServerFactory``
(``setProtocolOptions``):

- ``maxFramePayloadSize`` = `games.table.protocol.MAX_FRAME` (bytes), the table's
  own limit, whatever the command line says (the table is the only websocket route);
  Autobahn reads a frame's length from its header and fails the connection there,
  before reading the payload, so a frame just over the limit and one of many
  megabytes end alike;
- ``failByDrop=False``: a connection Autobahn fails gets a close frame with its code
  first — 1009 ("message too big", issue 13) for a frame over the limit, 1002/1007
  for a broken frame or invalid UTF-8 — then, once the client answers or Autobahn's
  close timeout passes, the connection ends and the application gets its
  ``websocket.disconnect`` (the table's clean-up: groups left, its pause ended).

``maxMessagePayloadSize`` stays daphne's (1 MiB unless given): Autobahn applies it to
the messages the server *sends* as well (a board is tens of kilobytes), so it cannot be
the table's 4 kB. A browser sends each command as one frame; only a hand-made client
splits a message into small frames, and such a message over `MAX_FRAME` in all reaches
the application's own check (`games.table.protocol.check_frame`: closed with
`TOO_BIG`), or, over daphne's message limit, gets 1009 here too. That check also stays
the wall for servers without this limit (stock daphne, the in-process tests).
"""

from __future__ import annotations

from typing import Any

from daphne.cli import CommandLineInterface
from daphne.server import Server
from twisted.internet import reactor  # daphne.server installed its asyncio reactor first


def frame_limit() -> int:
    """The table's frame limit in bytes (the application is loaded, so Django is set up)."""
    from games.table.protocol import MAX_FRAME

    return MAX_FRAME


class SiteServer(Server):
    """daphne's `Server` with the table's frame limit and close frames on failure (see above)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["websocket_max_frame_size"] = frame_limit()
        super().__init__(*args, **kwargs)

    def run(self) -> None:
        # daphne's run() makes its factory (with the limits above) and then runs the reactor;
        # no connection is accepted before the reactor runs, so every one gets this option.
        reactor.callWhenRunning(self.close_on_failure)
        super().run()

    def close_on_failure(self) -> None:
        """Autobahn fails a connection with a close frame carrying its code, not by dropping it."""
        # allowNullOrigin: Autobahn's setProtocolOptions resets it to False unless given, and
        # daphne sets True, leaving origins to the application (tablesite/origins.py: 403).
        self.ws_factory.setProtocolOptions(failByDrop=False, allowNullOrigin=True)


class SiteCommandLine(CommandLineInterface):
    server_class = SiteServer


def main() -> None:
    SiteCommandLine.entrypoint()  # the arguments from sys.argv, as ``daphne`` reads them


if __name__ == "__main__":
    main()
