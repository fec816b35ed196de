"""The table's websocket (``/ws/m/<id>/``): one connection per open table page.

Thin by design (design.md): the connection's lifecycle and the dispatch of its commands.

- **Lifecycle**: let in or closed with `REFUSED` (the session, through AuthMiddlewareStack
  behind the Origin check in tablesite/asgi.py; who may watch: games.table.access, the
  same answer for a match that does not exist, so strangers learn nothing); registered
  with the match's hub in this process (games.table.hub: told of each version once per
  process, it makes every connection's board in one database hop and sends each
  connection's frames through its bounded outbox); the presence heartbeat
  (games.attendance.presence); the user's sessions group; `release` on every way it ends.
- **Dispatch**: each frame is checked and parsed (games.table.protocol) and its command's
  handler run from the registry (games.commands: the table's commands, one module each in
  games/table/commands/, and the other wings'); a `GameError` becomes
  ``{"type": "error", "code", "message", "request_id"}`` followed by the board as it is. An
  event on the match's group that the hub does not handle goes to this consumer's handler of
  its type, else to the wing's extension that registered it (games.commands.extensions).

What handlers and the hub use of a connection (its database calls, frames, acks and
boards) is its `Connection` (games.table.connection); its board, made for its own viewer
(R24: a spectator sees no hand, a relay device a hand only once revealed), its `Screen`
(games.table.screen).

Hostile or unlucky endings:

- every frame meets `protocol.check_frame`'s limits before it is decoded: over
  `protocol.MAX_FRAME` the connection is closed with `protocol.TOO_BIG` (the site's server
  closes it with 1009 before such a frame arrives: tablesite/server.py); nested too deep,
  or anything else malformed, gets an error frame and the connection stays; an unexpected
  failure while handling a frame gets a ``server_error`` frame, never a closed socket;
- `release` (leave the hub and the groups, end this connection's pause, R26) runs on every
  way a connection ends: the client closes, the server closes it, a handler raises, the
  channel layer is lost; a pause this connection cannot end (its process killed) expires
  by itself (`selectors.PAUSE_TIMEOUT`), since the page renews it while the panel stays
  open (``panel`` ``open: true`` again every `PAUSE_RENEW` seconds);
- a signed-in user's connection joins `accounts.sessions.user_group` and re-checks its
  session before every command (an action's in the statement that locks the match,
  games.services; not ``check``, which gets only what the hub would push: its Spec's
  ``session_checked``) and whenever that group is told a session ended (logout,
  password change, deactivation): closed with `SESSION_ENDED`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer

from accounts import sessions
from games import notify, services
from games.attendance import presence
from games.commands import COMMANDS, extensions
from games.errors import GameError
from games.notify import LAYER_LOST, match_group
from games.processes import servers
from games.reads.seats import match_with_seats
from games.table import budget, protocol
from games.table import hub as hubs
from games.table.access import may_watch, scope_language
from games.table.connection import Connection, SessionEnded

logger = logging.getLogger(__name__)

#: close code for a connection that may not watch this match (the client stops reconnecting)
REFUSED = 4403
#: close code when the channel layer is lost (Redis restarted): the browser reconnects and
#: gets the current board, which the database still holds. In the application range
#: (daphne's Autobahn sends only 1000 and 3000–4999), after HTTP's 503 "unavailable".
LAYER_RESTART = 4503
#: close code when the session this connection was opened with has ended (logout,
#: password change, account deactivated): after HTTP's 401. The page reconnects and,
#: signed out, is refused like any stranger (unless it holds the watch token).
SESSION_ENDED = 4401

#: close code for a connection whose socket stopped taking frames (its outbox overflowed
#: with more than board updates): the page reconnects and starts from the current board
SLOW_CLOSE = LAYER_RESTART


class TableConsumer(Connection, AsyncWebsocketConsumer):
    """One table page's socket: its lifecycle and its commands' dispatch (the module's docstring);
    what its commands and its hub use of it is its `Connection` (games.table.connection)."""

    SLOW_CLOSE = SLOW_CLOSE
    group: str | None = None
    user_group: str | None = None
    renewing: asyncio.Task[None] | None = None
    beating: asyncio.Task[None] | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Channels' dispatch loop, except that losing the channel layer (Redis restarted)
        closes this connection quietly (`LAYER_RESTART`) instead of failing it with a traceback
        (1011): its group membership is gone with Redis, and the reconnecting browser gets
        the current board. Nothing confirmed is lost: actions are in the database."""
        # Frames are counted against this connection's budget as they arrive (games.table.budget).
        metered = budget.Metered(receive, budget.for_connection())
        try:
            await super().__call__(scope, metered.receive, send)
        except LAYER_LOST as e:
            logger.warning(
                "table %s: channel layer lost (%s); closing with %s so the browser reconnects",
                scope.get("url_route", {}).get("kwargs", {}).get("match_id"),
                e,
                LAYER_RESTART,
            )
            try:
                await send({"type": "websocket.close", "code": LAYER_RESTART})
            except Exception:  # the client may be gone already
                logger.warning("table: close after a lost channel layer failed", exc_info=True)
        finally:
            await metered.stop()
            # However the connection ended (a close from either side, a handler that raised,
            # the layer lost, the server cancelling it): no group membership, no pause left.
            await self.release()

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch (the handler named by the message's type) without the
        ``aclose_old_connections()`` it awaits first: that is a hop to the process's one
        sync thread for every message (each frame, each notice to each connection), and
        this consumer never uses the database there: its calls run in `DATABASE_THREADS`
        (`call`, games.table.hub), which close their own old connections after each."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    def start(self, match_id: int, user: Any, language: str, token: str = "") -> None:
        """This connection's own state as it opens, before it is let in (`connect`): nothing
        sent yet; `token`: the watch token its page came with. (bench.consumers makes
        connections without a socket with it.)"""
        super().start(match_id, user, language)
        self.pausing = False
        # what the wings keep on it beyond the board (table talk: the rooms it reads, its mutes)
        extensions.opened(self, token)

    async def connect(self) -> None:
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        token = query.get("watch", [""])[0]
        self.start(
            self.scope["url_route"]["kwargs"]["match_id"],
            self.scope.get("user"),
            scope_language(self.scope),
            token,
        )
        if not servers.serving():  # another channel layer's process runs: its pages go elsewhere
            await self.accept()
            await self.close(code=LAYER_RESTART)
            return
        try:
            allowed = await self.call(
                lambda: may_watch(match_with_seats(self.match_id), self.user, token)
            )
        except Exception:  # the database is unreachable for a moment: the page tries again
            logger.exception("table %s: could not check a new connection", self.match_id)
            await self.accept()
            await self.close(code=LAYER_RESTART)
            return
        await self.accept()
        if not allowed:
            await self.close(code=REFUSED)
            return
        self.autodraw = await self.call(services.autodraw_of, user=self.user)
        self.group = match_group(self.match_id)
        # games.attendance.presence: no turn e-mail while here, no computer standing in (renewed by `heartbeat`)
        back = await self.call(presence.came_back, match_id=self.match_id, user=self.user)
        if await self.call(
            presence.opened, match_id=self.match_id, user=self.user, channel=self.channel_name
        ):
            self.beating = asyncio.create_task(self.heartbeat())
        # One membership of the match's group per process: the hub's (games.table.hub).
        self.hub = await hubs.station().join(self)
        if getattr(self.user, "is_authenticated", False):
            # Told when a session of this user ends (logout, password change, deactivation).
            self.session = sessions.SessionCheck(
                getattr(self.scope.get("session"), "session_key", None) or ""
            )
            self.user_group = sessions.user_group(self.user.pk)
            await self.channel_layer.group_add(self.user_group, self.channel_name)
            self.renewing = asyncio.create_task(self.renew_group(self.user_group))
        # a (re)connecting client always starts from the current board
        await self.send_board(whole=True)
        if back:  # the others see this person here again at once, not with the next move
            await self.tell_presence()

    async def disconnect(self, code: int) -> None:
        await self.release()

    async def release(self) -> None:
        """Leave the groups and end this connection's pause (R26). Safe to call more than
        once, and from any ending; each step is tried even if another fails."""
        self.ended = True
        for task in (self.renewing, self.beating):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self.renewing = self.beating = None
        if self.hub is not None:
            self.hub = self.outbox = None
            try:
                await hubs.station().leave(self)
            except Exception:
                logger.warning("table %s: could not leave the hub", self.match_id, exc_info=True)
        if self.group is not None:
            try:
                if await self.call(
                    presence.closed, match_id=self.match_id, channel=self.channel_name
                ) and not await self.call(presence.here, match_id=self.match_id, user=self.user):
                    await self.tell_presence()
            except Exception:
                logger.warning("table %s: could not record leaving", self.match_id, exc_info=True)
        self.group, group, self.user_group = None, self.user_group, None
        if group is not None:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception as e:  # the layer is gone: so is the membership
                logger.warning("table %s: could not leave %s (%s)", self.match_id, group, e)
        if self.pausing:
            self.pausing = False
            try:
                await self.call(
                    services.pause_close, match_id=self.match_id, channel=self.channel_name
                )
            except Exception:  # the pause expires by itself (selectors.PAUSE_TIMEOUT)
                logger.warning("table %s: could not end a pause", self.match_id, exc_info=True)

    async def renew_group(self, group: str) -> None:
        """Join `group` again every `hub.GROUP_RENEW_SECONDS`, so it never expires (channel
        layers forget members after their group expiry; a page may stay open for days)."""
        while True:
            await asyncio.sleep(hubs.GROUP_RENEW_SECONDS)
            try:
                await self.channel_layer.group_add(group, self.channel_name)
            except LAYER_LOST as e:  # Redis is down: the next renewal (or a reconnect) joins again
                logger.warning("table %s: could not renew %s (%s)", self.match_id, group, e)

    async def heartbeat(self) -> None:
        """Renew this connection's presence every `presence.RENEW` while it is open: a server
        killed with it open renews it no more, and it expires (games.attendance.presence)."""
        while True:
            await asyncio.sleep(presence.RENEW.total_seconds())
            try:
                await self.call(presence.renew, match_id=self.match_id, channel=self.channel_name)
            except Exception:  # the database is away for a moment: the next beat renews it
                logger.warning(
                    "table %s: could not renew the presence", self.match_id, exc_info=True
                )

    # ------------------------------------------------------------ frames from the browser

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.ended:
            return
        try:
            command = protocol.parse(text_data if bytes_data is None else bytes_data)
        except protocol.FrameTooBig:
            await self.close(code=protocol.TOO_BIG)
            return
        except protocol.ProtocolError as e:
            await self.send_json(self.words(e.to_json))
            return
        except Exception:  # a bug in the checks must not end the connection (nor skip its clean-up)
            logger.exception("table %s: a frame could not be read", self.match_id)
            await self.send_server_error(None)
            return
        try:
            if self.ended:
                return
            # The session is checked in the command's first database call (one thread hop,
            # one query: `call`), or here when the command makes none.
            spec = COMMANDS[command.type]
            self.check_session = self.session is not None and spec.session_checked
            self.received_at = time.perf_counter()
            await spec.handler(self, command)
            if self.check_session and not await self.session_holds():
                return
        except SessionEnded:
            await self.end_session()
        except GameError as e:
            await self.send_json({**self.words(e.to_json), "request_id": command.request_id})
            # whatever the client believed, here is the table as it is
            await self.told(self.send_board())
        except LAYER_LOST:
            raise  # __call__ closes with LAYER_RESTART
        except Exception:
            logger.exception("table %s: %s failed", self.match_id, command.type)
            await self.send_server_error(command.request_id)

    async def table_over_budget(self, event: dict[str, Any]) -> None:
        """A frame past this connection's budget, dropped unread: answered (or the connection
        closed) as games.table.budget says."""
        if not self.ended:
            await budget.answer(self, event)

    async def session_holds(self) -> bool:
        """A signed-in user's connection acts only while the session it was opened with
        still signs that user in (`accounts.sessions.session_user_id`); else it closes
        with `SESSION_ENDED`. Spectators by watch token have no session to lose."""
        if self.ended:
            return False
        if self.session is None:
            return True  # not signed in when it connected
        try:
            self.check_session = True
            await self.call(lambda: None)
        except SessionEnded:
            await self.end_session()
            return False
        return True

    async def end_session(self) -> None:
        logger.info("table %s: the session of user %s ended; closing", self.match_id, self.user.pk)
        await self.close(code=SESSION_ENDED)
        await self.release()

    # ------------------------------------------------------------ events from the groups

    async def handle_event(self, event: dict[str, Any]) -> None:
        """An event on the match group the hub does not handle itself (its notices, ``match.*``,
        make boards there, games.table.hub): this consumer's handler of its type (Channels'
        naming), else the handler a wing's extension registered for it (table talk's
        ``chat.event``: games/commands/extensions.py)."""
        if self.ended:
            return
        own = getattr(self, get_handler_name(event), None)
        wings = extensions.EVENTS.get(event.get("type", ""))
        if own is not None:
            await self.told(own(event))
        elif wings is not None:
            await self.told(wings(self, event))
        else:
            logger.warning("table %s: no handler for %s", self.match_id, event.get("type"))

    async def tell_presence(self) -> None:
        """A seated person's last connection to this table closed, or their first opened: the
        others' boards show them away or here (the dot by each name) at once, read
        afresh by every hub as when a seat's away limit passes (`notify.match_seats`). Other
        connections (a second tab, a spectator) change no dot and tell nobody."""
        await self.call(notify.match_seats, match_id=self.match_id)

    async def told(self, answer: Any) -> None:
        """Answer a notice; a failure (the database dropped the connection) costs this board
        only: the page's next ``check`` brings it. The socket stays open."""
        if self.ended:
            answer.close()
            return
        try:
            await answer
        except LAYER_LOST:
            raise
        except Exception:
            logger.exception("table %s: a notice could not be answered", self.match_id)

    async def session_ended(self, event: dict[str, Any]) -> None:
        """One of this user's sessions ended: close if it was this connection's (logout
        names it; a password change or deactivation ends them all, which the check sees)."""
        if self.session is None or self.ended:
            return
        if event.get("session_key") and event["session_key"] == self.session.session_key:
            await self.close(code=SESSION_ENDED)
            await self.release()
            return
        try:
            await self.session_holds()
        except Exception:  # could not read the session: the check before the next command will
            logger.exception("table %s: could not re-check a session", self.match_id)
