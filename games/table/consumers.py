"""The table's websocket (``/ws/m/<id>/``): one connection per open table page.

Thin by design (design.md): authenticate (the session, through AuthMiddlewareStack,
behind the Origin check in tablesite/asgi.py), join the match's group, parse each
frame with `games.table.protocol` and run its command's handler from the protocol's
registry (`protocol.COMMANDS`: fields, handler, service call), map a `GameError` to
``{"type": "error", "code", "message", "request_id"}``, and send this connection
what changed on its board (`games.table.parts`: an update frame of the changed
parts, the whole board on connect, sync and a new round). The connection registers with its match's hub in
this process (games.table.hub), which is told of each version (once per process),
makes every connection's board of it in one database hop and sends each connection's
frames through its bounded outbox; each board is that connection's own seat's view
(R24). The consumer's own frames (acks, errors, hints) go through the same outbox, so
a connection's frames keep their order.

Who may connect is games.permissions' answer: a user with a seat (their player seat
and/or pass-and-play seats), the match's creator, staff with the named permission, or
anyone holding the watch token (``?watch=<token>``); the last three as spectators, with no hand. Anyone else is closed with 4403 (the
same for a match that does not exist, so strangers learn nothing).

Per connection: the relay seat last revealed on this device (R24: when the turn
passes to another of this user's pass-and-play seats, the board comes with the
relay cover and no hand until ``reveal``), and whether its rules/log panel pauses
the computer players (R26).

Hostile or unlucky endings (issue 13):

- every frame meets `protocol.check_frame`'s limits before it is decoded: over
  `protocol.MAX_FRAME` the connection is closed with `protocol.TOO_BIG` (the site's
  server closes it with 1009 before such a frame arrives: tablesite/server.py); nested too
  deep, or anything else malformed, gets an error frame and the connection stays;
  an unexpected failure while handling a frame gets a ``server_error`` frame, never
  a closed socket;
- `release` (leave the hub and the groups, end this connection's pause) runs on every way a
  connection ends: the client closes, the server closes it, a handler raises, the
  channel layer is lost; a pause this connection cannot end (its process killed)
  expires by itself (`selectors.PAUSE_TIMEOUT`), since the page renews it while
  the panel stays open (``panel`` ``open: true`` again every `PAUSE_RENEW` seconds);
- a signed-in user's connection joins `accounts.sessions.user_group` and re-checks
  its session before every command and whenever that group is told a session
  ended (logout, password change, deactivation): closed with `SESSION_ENDED`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from types import SimpleNamespace
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import InterfaceError, OperationalError, close_old_connections, connection
from django.db.models import Prefetch
from django.utils import translation

from accounts import sessions
from games import notify, permissions, presence, selectors, services, trace
from games.chat import live as chat
from games.errors import NOT_FOUND, GameError
from games.models import Match, Seat
from games.notify import LAYER_LOST, match_group
from games.permissions import Action as Can
from games.table import board, board_reads, budget, parts, protocol
from games.table import hub as hubs
from games.table import words as table_words
from games.table.threads import DATABASE_THREADS
from games.words import sentence

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

#: Seconds between a connection's renewals of its group membership. Channel layers
#: forget members after their `group_expiry` (a day by default in channels-redis), and
#: a table page may stay open for days without a move; renewing well inside that keeps
#: it told of every change.
GROUP_RENEW_SECONDS = 3600.0


class SessionEnded(Exception):
    """The session this connection was opened with no longer signs its user in."""


def scope_language(scope: dict[str, Any]) -> str:
    """The connection's language, chosen as LocaleMiddleware chose the page's (cookie, then Accept-Language)."""
    headers = dict(scope.get("headers") or [])
    request = SimpleNamespace(
        COOKIES=scope.get("cookies") or {},
        META={"HTTP_ACCEPT_LANGUAGE": headers.get(b"accept-language", b"").decode("latin-1")},
    )
    return translation.get_language_from_request(request)  # type: ignore[arg-type]  # reads COOKIES and META only


def load_match(match_id: int) -> Match | None:
    return (
        Match.objects.select_related("created_by")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .filter(pk=match_id)
        .first()
    )


def may_watch(match: Match | None, user: Any, token: str) -> bool:
    """Whether this user (or token holder) may see the match's table at all (games.permissions;
    a staff member's watch is logged)."""
    return match is not None and permissions.may(
        user, Can.WATCH, match, token=token, log_watch=True
    )


class TableConsumer(AsyncWebsocketConsumer):
    SLOW_CLOSE = SLOW_CLOSE
    group: str | None = None
    #: this connection's match's hub in this process, and its outbox there, once let in
    hub: hubs.Hub | None = None
    outbox: hubs.Outbox | None = None
    #: its next board is the whole board (its outbox dropped updates: a resync)
    needs_whole = False
    #: it shows a seat of the user's (for `Hub.broadcast`'s audiences)
    seated = False
    user_group: str | None = None
    #: a signed-in connection's session, checked before each command (None: not signed in)
    session: sessions.SessionCheck | None = None
    #: the next `call` checks the session first (set for each command)
    check_session = False
    pausing = False
    #: set once this connection is ending: no frame is acted on after that
    ended = False
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

    def start(self, match_id: int, user: Any, language: str) -> None:
        """This connection's own state as it opens, before it is let in (`connect`): nothing
        sent yet. (bench.consumers makes connections without a socket with it.)"""
        self.match_id: int = match_id
        self.user = user
        self.language = language
        self.revealed: int | None = None  # R24: the relay seat shown on this device
        self.pausing = False  # R26: this connection's rules/log panel is open
        self.autodraw = (
            False  # the user's "draw and pass for me" (read once allowed in, then kept here)
        )
        self.sent_version = -1
        self.sent = parts.Sent()  # what this connection was last sent, part by part
        self.chat = (
            chat.Chat()
        )  # table talk: the rooms this connection reads, its mutes (games.chat.live)

    async def connect(self) -> None:
        self.start(
            self.scope["url_route"]["kwargs"]["match_id"],
            self.scope.get("user"),
            scope_language(self.scope),
        )
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        token = query.get("watch", [""])[0]
        try:
            allowed = await self.call(
                lambda: may_watch(load_match(self.match_id), self.user, token)
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
        # games.presence: no turn e-mail while here, no computer standing in (renewed by `heartbeat`)
        back = await self.call(presence.came_back, match_id=self.match_id, user=self.user)
        if await self.call(
            presence.opened, match_id=self.match_id, user=self.user, channel=self.channel_name
        ):
            self.beating = asyncio.create_task(self.heartbeat())
        # One membership of the match's group per process: the hub's (games.table.hub).
        self.hub = await hubs.station().join(self)
        groups: list[str] = []
        if getattr(self.user, "is_authenticated", False):
            # Told when a session of this user ends (logout, password change, deactivation).
            self.session = sessions.SessionCheck(
                getattr(self.scope.get("session"), "session_key", None) or ""
            )
            self.user_group = sessions.user_group(self.user.pk)
            await self.channel_layer.group_add(self.user_group, self.channel_name)
            groups.append(self.user_group)
        if groups:
            self.renewing = asyncio.create_task(self.renew_groups(groups))
        self.chat.token = (
            token  # table talk, once the page asks for it (``chat_join``, games.chat.live)
        )
        await self.send_board(
            whole=True
        )  # a (re)connecting client always starts from the current board
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
        self.group = None
        for name in ("user_group",):
            group = getattr(self, name)
            setattr(self, name, None)
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

    async def renew_groups(self, groups: list[str]) -> None:
        """Join the groups again every `GROUP_RENEW_SECONDS`, so they never expire."""
        while True:
            await asyncio.sleep(GROUP_RENEW_SECONDS)
            for group in groups:
                try:
                    await self.channel_layer.group_add(group, self.channel_name)
                except (
                    LAYER_LOST
                ) as e:  # Redis is down: the next renewal (or a reconnect) joins again
                    logger.warning(
                        "table %s: could not renew the group membership (%s)", self.match_id, e
                    )

    async def heartbeat(self) -> None:
        """Renew this connection's presence every `presence.RENEW` while it is open: a server
        killed with it open renews it no more, and it expires (games.presence)."""
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
            self.check_session = self.session is not None
            self.received_at = time.perf_counter()
            await protocol.COMMANDS[command.type].handler(self, command)
            if self.check_session and not await self.session_holds():
                return
        except SessionEnded:
            await self.end_session()
        except GameError as e:
            await self.send_json({**self.words(e.to_json), "request_id": command.request_id})
            await self.told(
                self.send_board()
            )  # whatever the client believed, here is the table as it is
        except LAYER_LOST:
            raise  # __call__ closes with LAYER_RESTART
        except Exception:
            logger.exception("table %s: %s failed", self.match_id, command.type)
            await self.send_server_error(command.request_id)

    async def table_over_budget(self, event: dict[str, Any]) -> None:
        """A frame past this connection's budget (games.table.budget.Metered dropped it unread):
        the first of a run is answered with one error, and a connection that goes on is closed."""
        if self.ended:
            return
        verdict = budget.Verdict(event["verdict"])
        if verdict is budget.Verdict.WARN:
            await self.send_json(
                {
                    "type": "error",
                    "code": budget.TOO_MANY,
                    "message": self.words(table_words.too_many_frames),
                    "request_id": None,
                }
            )
        elif verdict is budget.Verdict.CLOSE:
            logger.warning(
                "table %s: closing a connection that kept sending past its budget", self.match_id
            )
            self.ended = True  # the frames still queued behind this one are not acted on
            await self.close(code=budget.CLOSE_CODE)

    async def send_server_error(self, request_id: str | None) -> None:
        message = self.words(lambda: sentence("server_error"))
        await self.send_json(
            {
                "type": "error",
                "code": protocol.SERVER_ERROR,
                "message": message,
                "request_id": request_id,
            }
        )

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

    # ------------------------------------------------------------ notices from the group

    # The match's notices (``match.changed``, ``match.paused``, ``match.seats``) go to its
    # hub, not to each connection (games.table.hub). Other wings' events on the match
    # group reach the consumer's handler of their type through the hub (`handle_event`).

    async def handle_event(self, event: dict[str, Any]) -> None:
        """An event on the match group the hub does not handle itself: this consumer's
        handler of its type (Channels' naming), if it has one."""
        if self.ended:
            return
        handler = getattr(self, get_handler_name(event), None)
        if handler is None:
            logger.warning("table %s: no handler for %s", self.match_id, event.get("type"))
            return
        await self.told(handler(event))

    async def tell_presence(self) -> None:
        """A seated person's last connection to this table closed, or their first opened: the
        others' boards show them away or here (issue 19: the dot by each name) at once, read
        afresh by every hub as when a seat's away limit passes (`notify.match_seats`). Other
        connections (a second tab, a spectator) change no dot and tell nobody."""
        await self.call(notify.match_seats, match_id=self.match_id)

    async def chat_event(self, event: dict[str, Any]) -> None:
        """Table talk (games.chat.push): this reader's rooms and mutes decide; never a board."""
        await chat.deliver(self, event)

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

    # ------------------------------------------------------------ helpers

    async def ack(self, c: protocol.Command, result: services.Result) -> None:
        await self.send_json(
            {
                "type": "ack",
                "request_id": c.request_id,
                "version": result.version,
                "duplicate": result.duplicate,
                "asked": result.asked,
                **({"request": result.request} if result.request else {}),
            }
        )
        key = trace.key(self.match_id, result.version)
        if key is not None and not result.duplicate:
            trace.span(key, "receive+service", getattr(self, "received_at", time.perf_counter()))
        # The hub was told of this version by the service's notice (games.notify.hub_sink) and makes
        # every board of it, this one's included; asked here too in case that notice was lost.
        await self.send_board(newer_than=self.sent_version, version=result.version)

    async def send_board(
        self, *, newer_than: int | None = None, version: int | None = None, whole: bool = False
    ) -> None:
        """Send this connection's board as an update of what it was sent last (`whole`: the
        whole board); skipped when it already has `version` or later."""
        if newer_than is not None and isinstance(version, int) and version <= newer_than:
            return
        if self.check_session:
            await self.call(lambda: None)  # the command's session check (raises SessionEnded)
        if self.hub is None or self.ended:
            message = await self.call(
                self.made_board, newer_than=newer_than, version=version, whole=whole
            )
            if message is not None:
                await self.send_json(message)
            return
        # Made in the hub's next database hop, in order with the table's other boards.
        await self.hub.board(self, newer_than=newer_than, version=version, whole=whole)

    def made_board(
        self,
        *,
        newer_than: int | None = None,
        version: int | None = None,
        at_least: int | None = None,
        whole: bool = False,
    ) -> dict[str, Any] | None:
        """In a database thread: this connection's board message (`send_board`'s arguments;
        `at_least`: the version the reads must be at), this connection's `sent` moved on;
        None when it has `version` already (the hub may have sent it since it was asked)."""
        if (
            newer_than is not None
            and isinstance(version, int)
            and version <= max(newer_than, self.sent_version)
        ):
            return None
        if at_least is None and newer_than is not None and isinstance(version, int):
            # Told of a version (a notice, an ack): the reads of that version another connection
            # at this table made may serve; otherwise (connect, sync, a refusal, a pause) read afresh.
            at_least = version
        message = self.in_database(self.board_message, at_least=at_least, whole=whole)
        if message is not None:
            self.sent_version = max(self.sent_version, self.sent.version)
        return message

    async def send_json(self, message: dict[str, Any]) -> None:
        """Send a frame, through the hub's outbox once registered (in order with the boards)."""
        text = json.dumps(message)
        if self.outbox is not None:
            self.outbox.put(text)
        else:
            await self.send(text_data=text)

    async def call(self, fn: Any, /, **kwargs: Any) -> Any:
        """Run `fn` in a database thread, in this connection's language; when a command asked
        for it (`check_session`), the session is checked first in the same thread (raises
        `SessionEnded`, and `fn` is not run, when it no longer signs this user in)."""
        session, self.check_session = (self.session if self.check_session else None), False

        def run() -> Any:
            try:
                with notify.held() as told:
                    return self.in_database(fn, session=session, **kwargs), told
            finally:
                # What database_sync_to_async does too, unless a test harness turned it off
                # (channels.testing does): these threads outlive the call, and a connection
                # left open past CONN_MAX_AGE would keep its database busy.
                close_old_connections()

        result, told = await database_sync_to_async(
            run, thread_sensitive=False, executor=DATABASE_THREADS
        )()
        if told:
            # The changes this call committed, told to this process's hubs now: their boards
            # are made in their next hop, after whatever this connection answers first (its ack).
            hubs.deliver(told)
        return result

    def in_database(
        self, fn: Any, /, *, session: sessions.SessionCheck | None = None, **kwargs: Any
    ) -> Any:
        """`fn(**kwargs)`, in a database thread (`call`, or a hub's hop, games.table.hub), in this
        connection's language, after checking `session` if given."""
        language = self.language

        def attempt() -> Any:
            if session is not None and session.user_id() != self.user.pk:
                raise SessionEnded
            with translation.override(language):
                return fn(**kwargs)

        try:
            return attempt()
        except (OperationalError, InterfaceError):
            # The database dropped this thread's connection (restarted, or a persistent
            # connection cut; psycopg learns it on the next query), or broke a deadlock:
            # once more, on a new connection if need be. Safe: the changes are idempotent
            # by request id (R29) and the rest are reads or set a state (pause, reveal).
            logger.warning(
                "table %s: a database error; trying once more", self.match_id, exc_info=True
            )
            if not connection.is_usable():
                connection.close()
            return attempt()

    def words(self, fn: Any) -> Any:
        with translation.override(self.language):
            return fn()

    # The sync parts (run through `call`).

    def viewer(self, match: Match) -> board.Viewer:
        user = self.user if getattr(self.user, "is_authenticated", False) else None
        controlled = tuple(permissions.seats_controlled(match, user))
        return board.Viewer(
            user=user, controlled=controlled, revealed=self.revealed, autodraw=self.autodraw
        )

    def board_message(
        self, *, at_least: int | None = None, whole: bool = False
    ) -> dict[str, Any] | None:
        """An update frame carrying what changed since this connection's last board, or the
        whole board (`whole`, nothing sent yet, a new round); games/table/parts.py."""
        reads = board_reads.current(self.match_id, at_least=at_least)
        if reads is None or reads.match.state is None:
            return None  # still waiting for players: the first board comes when it starts
        viewer = self.viewer(reads.match)
        self.seated = bool(viewer.controlled)
        if not viewer.controlled:
            return self.watched(reads, viewer, whole=whole)
        return self.made(reads, viewer, whole=whole)[0]

    def made(
        self, reads: board_reads.BoardReads, viewer: board.Viewer, *, whole: bool
    ) -> tuple[dict[str, Any] | None, parts.Page, tuple[str, ...] | None]:
        """This connection's frame of `reads` (None: it has a newer board), the page it shows
        and the parts the frame carries (None: the whole board); `sent` moved on."""
        page = board.match_page(match=reads.match, viewer=viewer, reads=reads, kept=self.sent.kept)
        if not whole and not self.sent.whole():
            if page.version < self.sent.version:
                return None, page, ()  # overtaken: this connection has a newer board already
            frame = parts.update_frame(
                page, self.sent, board.events_since(reads, self.sent.version)
            )
            if frame is not None:
                return frame, page, (*frame["parts"], *frame.get("edits", ()))
        self.sent = parts.Sent(kept=self.sent.kept)
        self.sent.took(page)
        return page.message(), page, None

    def watched(
        self, reads: board_reads.BoardReads, viewer: board.Viewer, *, whole: bool
    ) -> dict[str, Any] | None:
        """A spectator's frame (issue 18: a spectator costs its send): made once per version for
        every spectator in this language (and, signed in, this user: the creator may restart)
        that holds the same board, and given to the others as it is (R24: a spectator's board
        shows no hand, so it is the same for all of them)."""
        sent = self.sent
        held = None if whole or sent.whole() else (sent.version, sent.round, sent.trains)
        key = ("watch", translation.get_language(), getattr(self.user, "pk", None), held)
        made = reads.shared.get(key)
        if made is None:
            made = reads.shared[key] = self.made(reads, viewer, whole=whole)
            return made[0]
        frame, page, names = made
        if frame is None:
            return None
        if names is None:
            self.sent = parts.Sent(kept=sent.kept)
            self.sent.took(page)
        else:
            sent.took(page, names)
        return frame

    def hint(self, *, seat: int) -> dict[str, Any]:
        """R23, R25: a suggested play for the seat whose hand this connection shows."""
        match = self.started_match()
        viewer = self.viewer(match)
        public = selectors.seat_view(match, None)
        permissions.require_look(
            viewer.controlled,
            viewer.shown_seat(public.turn, public.phase in ("round_over", "match_over")),
            seat,
        )
        return board.hint_message(selectors.seat_view(match, seat))

    def check_reveal(self, *, seat: int) -> None:
        """R24: "Show my tiles" only for this user's seat that the relay cover is up for."""
        match = self.started_match()
        viewer = self.viewer(match)
        public = selectors.seat_view(match, None)
        permissions.require_look(
            viewer.controlled,
            viewer.cover_seat(public.turn, public.phase in ("round_over", "match_over")),
            seat,
            reveal=True,
        )

    def pause_open(self) -> bool:
        match = self.started_match()
        if not permissions.may(self.user, Can.PAUSE, match):
            return False
        services.pause_open(match_id=self.match_id, user=self.user, channel=self.channel_name)
        return True

    def started_match(self) -> Match:
        match = load_match(self.match_id)
        if match is None:
            raise GameError(NOT_FOUND, sentence("no_such_match"))
        selectors.match_state(match)  # raises not_started while waiting for players
        return match
