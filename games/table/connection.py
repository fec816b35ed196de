"""A table connection as its commands and its hub use it: database calls, frames, answers.

`Connection` is the part of the table's websocket consumer
(games.table.consumers.TableConsumer: the socket's lifecycle and the dispatch of commands)
that a command's handler (games.commands: the table's and table talk's) and the table's hub
(games.table.hub) talk to:

- `call(fn, **kw)`: `fn` in a database thread (`DATABASE_THREADS`), in the connection's
  language, the session checked first when a command asked for it (raises `SessionEnded`);
  the changes it committed are told to this process's hubs once it returns;
- `send_json(message)`: a frame, through the hub's outbox once registered, so a connection's
  frames (acks, errors, hints, boards) keep their order;
- `ack(command, result)`: a change's answer, then its board;
- `send_board(…)`: this connection's board (made in the hub's next hop, in order with the
  table's other boards), `made_board(…)`: making it in a database thread (games.table.screen);
- `words(fn)`: `fn()` in the connection's language (a refusal's or a notice's words).
"""

from __future__ import annotations

import json
import logging
import time
from typing import TYPE_CHECKING, Any

from channels.db import database_sync_to_async
from django.db import InterfaceError, OperationalError, close_old_connections, connection
from django.utils import translation

from accounts import sessions
from accounts.sessions import SessionEnded
from games import notify, services
from games.processes import trace
from games.table import hub as hubs
from games.table import protocol
from games.table.outbox import Outbox
from games.table.screen import Screen
from games.table.threads import DATABASE_THREADS
from games.words import sentence

logger = logging.getLogger(__name__)


class Connection(Screen):
    """A table connection's calls and frames (mixed into the consumer, which sends them)."""

    #: this connection's match's hub in this process, and its outbox there, once let in
    hub: hubs.Hub | None = None
    outbox: Outbox | None = None
    #: its next board is the whole board (its outbox dropped updates: a resync)
    needs_whole = False
    #: a signed-in connection's session, checked before each command (None: not signed in)
    session: sessions.SessionCheck | None = None
    #: the next `call` checks the session first (set for each command)
    check_session = False
    #: set once this connection is ending: no frame is acted on after that
    ended = False
    #: R26: this connection's rules/log panel is open (it pauses the computers)
    pausing = False

    if TYPE_CHECKING:  # the consumer's (channels' AsyncWebsocketConsumer)
        channel_name: str

        async def send(
            self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
        ) -> None: ...

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
        changes_only: bool = False,
    ) -> dict[str, Any] | None:
        """In a database thread: this connection's board message (`send_board`'s arguments;
        `at_least`: the version the reads must be at; `changes_only`: not an update that
        changes nothing, games.table.screen), this connection's `sent` moved on; None when it
        has `version` already (the hub may have sent it since it was asked)."""
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
        message = self.in_database(
            self.board_message, at_least=at_least, whole=whole, changes_only=changes_only
        )
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

    def session_to_check(self) -> sessions.SessionCheck | None:
        """The session a command's service checks itself, in its first statement (an action's
        lock reads it with the match, games.services): the check `call` would make first
        otherwise, taken from it (None: none is due)."""
        session, self.check_session = (self.session if self.check_session else None), False
        return session

    async def call(self, fn: Any, /, **kwargs: Any) -> Any:
        """Run `fn` in a database thread, in this connection's language; when a command asked
        for it (`check_session`), the session is checked first in the same thread (raises
        `SessionEnded`, and `fn` is not run, when it no longer signs this user in)."""
        session, self.check_session = (self.session if self.check_session else None), False

        def run() -> Any:
            cpu = time.thread_time() if trace.COSTS else 0.0
            try:
                with notify.held() as told:
                    try:
                        return self.in_database(fn, session_first=session, **kwargs), told, None
                    except Exception as e:  # raised after telling what it committed, if it did
                        return None, told, e
            finally:
                # What database_sync_to_async does too, unless a test harness turned it off
                # (channels.testing does): these threads outlive the call, and a connection
                # left open past CONN_MAX_AGE would keep its database busy.
                close_old_connections()
                if trace.COSTS:
                    trace.cost(f"call {getattr(fn, '__name__', 'a function')}", cpu)

        result, told, error = await database_sync_to_async(
            run, thread_sensitive=False, executor=DATABASE_THREADS
        )()
        if told.hubs:
            # The changes this call committed, told to this process's hubs now: their boards
            # are made in their next hop, after whatever this connection answers first (its ack).
            hubs.deliver(told.hubs)
        notify.send_elsewhere(told.elsewhere)  # and to the other processes' hubs
        if error is not None:
            raise error
        return result

    def in_database(
        self, fn: Any, /, *, session_first: sessions.SessionCheck | None = None, **kwargs: Any
    ) -> Any:
        """`fn(**kwargs)`, in a database thread (`call`, or a hub's hop, games.table.hub), in this
        connection's language, after checking `session_first` if given."""
        language = self.language

        def attempt() -> Any:
            if session_first is not None and session_first.user_id() != self.user.pk:
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
        """`fn()` in this connection's language (words for a frame)."""
        with translation.override(self.language):
            return fn()
