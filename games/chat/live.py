"""Table talk on the table's websocket: its own frames, never a board.

The chat's extension of every table connection (games/commands/extensions.py, registered
here when the chat's app starts): `opened` gives a starting connection its `Chat` (its watch
token; nothing read yet), and `deliver` is the handler of the ``chat.event``s `push` sends on
the match's group. The table's consumer runs both without naming the chat.

When the page asks (``chat_join``, on each (re)connect: `start`): the rooms this connection reads (games.permissions, `Talk.READ`), the
accounts its user muted, and a ``chat`` frame with ``event: "history"``: the rooms' last
lines, whether the chat is on, what this reader may do, the phrase menu, in the reader's
language. Then each event `push` delivers (`deliver`) is passed on only when its room is
one this connection reads and its author is not muted here, rendered for this reader: a
phrase in the reader's own language (a German and a Spanish player each read their own
words). Frames to the browser (all ``{"type": "chat", "event": …}``):

- ``history``: ``rooms`` {room: [line…]}, ``on``, ``may`` {free_text, post, switch,
  open_spectators}, ``menu``, ``mutes``, ``limit`` (the longest text);
- ``message``: ``line`` {id, room, name, text, label, free, mine, at};
- ``hidden``: ``id``; ``state``: ``on``; ``ack``: ``request_id``;
- ``notice``: ``message`` (a mute, unmute or report done) and ``mutes``;
- ``error``: ``code``, ``message``, ``request_id`` (nothing stored).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils import translation

from games import permissions
from games.chat import phrases, services, text
from games.chat.models import Room
from games.chat.push import EVERYONE
from games.chat.words import Refused, sentence
from games.commands import extensions
from games.permissions import Talk
from games.reads.seats import match_seats, match_with_seats


@dataclass
class Chat:
    """One connection's talk: who it is, what it reads."""

    token: str = ""
    #: the page asked for its chat (``chat_join``): only then are chat events passed on
    joined: bool = False
    rooms: set[str] = field(default_factory=set)
    muted: set[int] = field(default_factory=set)


def opened(t: Any, token: str) -> None:
    """A table connection starts: its talk, holding the watch token it came with; it reads
    nothing until the page asks (``chat_join``: `start`)."""
    t.chat = Chat(token=token)


def line(event: dict[str, Any], me: int | None) -> dict[str, Any]:
    """A stored message as one reader sees it, in the active language."""
    free = event["k"] == "text"
    return {
        "id": event["id"],
        "room": event["room"],
        "name": event["name"],
        "text": event["text"] if free else phrases.words(event["code"]),
        "label": "" if free else phrases.label(event["code"]),
        "free": free,
        "mine": me is not None and event["author"] == me,
        "at": event["at"],
    }


def _opening(match_id: int, user: Any, token: str, language: str) -> tuple[Chat, dict[str, Any]]:
    """(The connection's chat, its history frame), read in a database thread."""
    match = match_with_seats(match_id)
    chat = Chat(token=token, joined=True)
    if match is None:
        return chat, {}
    chat.rooms = services.rooms_of(match, user, token)
    chat.muted = services.muted_by(user)
    return chat, _history_frame(match, user, chat, language)


def _history_frame(match: Any, user: Any, chat: Chat, language: str) -> dict[str, Any]:
    me = permissions.user_id(user)
    on = services.chat_on(match.pk)
    barred = services.blocked(user)
    seats = match_seats(match)
    own = Room.PLAYERS.value if Room.PLAYERS.value in chat.rooms else Room.SPECTATORS.value
    with translation.override(language):
        return {
            "type": "chat",
            "event": "history",
            "rooms": {
                room: [line(e, me) for e in services.history(match.pk, room, muted=chat.muted)]
                for room in sorted(chat.rooms)
            },
            "own": own,
            "on": on,
            "may": {
                "post": permissions.chat_may(
                    user,
                    Talk.POST,
                    match,
                    room=own,
                    token=chat.token,
                    seats=seats,
                    chat_on=True,
                    blocked=barred,
                ),
                "free_text": me is not None and permissions.chat_may(user, Talk.FREE_TEXT, match),
                "switch": permissions.chat_may(user, Talk.SWITCH, match, seats=seats),
                "open_spectators": permissions.chat_may(
                    user, Talk.OPEN_SPECTATORS, match, seats=seats
                ),
                "report": me is not None,
            },
            "menu": phrases.menu(),
            "mutes": services.mutes_of(user),
            "limit": text.MAX_TEXT,
        }


async def start(t: Any) -> None:
    """The page's chat joins: this connection's rooms, mutes, and the history frame. Until
    then (and for a connection that never joins) `deliver` passes nothing on."""
    t.chat, frame = await t.call(
        _opening, match_id=t.match_id, user=t.user, token=t.chat.token, language=t.language
    )
    if frame:
        await t.send_json(frame)


async def deliver(t: Any, message: dict[str, Any]) -> None:
    """An event `push` sent to the table: passed on to this reader, or not."""
    chat: Chat | None = getattr(t, "chat", None)
    if chat is None or not chat.joined or t.ended:
        return
    event, audience = message.get("event") or {}, message.get("audience")
    if audience != EVERYONE and audience not in chat.rooms:
        return  # a room this connection does not read (a spectator never gets the players' room)
    kind = event.get("kind")
    me = permissions.user_id(t.user)
    if kind == "message":
        if event.get("author") in chat.muted:
            return
        with translation.override(t.language):
            await t.send_json({"type": "chat", "event": "message", "line": line(event, me)})
    elif kind == "hidden":
        await t.send_json({"type": "chat", "event": "hidden", "id": event.get("id")})
    elif kind == "state":
        await t.send_json({"type": "chat", "event": "state", "on": bool(event.get("on"))})
    elif kind == "mute" and me is not None and event.get("by") == me:
        (chat.muted.add if event.get("on") else chat.muted.discard)(event["user"])


async def refused(t: Any, e: Refused, request_id: str | None) -> None:
    await t.send_json(
        {
            "type": "chat",
            "event": "error",
            "code": e.code,
            "message": t.words(lambda: sentence(e)),
            "request_id": request_id,
        }
    )


async def open_spectators(t: Any, on: bool) -> None:
    """A participant opens (reads, with its history) or closes the spectators' room."""
    chat: Chat = t.chat
    room = Room.SPECTATORS.value
    if not on:
        if Room.PLAYERS.value in chat.rooms:  # a spectator's own room stays
            chat.rooms.discard(room)
        return
    await t.call(services.may_open_spectators, match_id=t.match_id, user=t.user)
    chat.rooms.add(room)
    me = permissions.user_id(t.user)

    def lines() -> list[dict[str, Any]]:
        return [line(e, me) for e in services.history(t.match_id, room, muted=chat.muted)]

    await t.send_json({"type": "chat", "event": "room", "room": room, "lines": await t.call(lines)})


extensions.register(extensions.Extension("chat", opened, {"chat.event": deliver}))
