"""Table talk's commands on the table's websocket, registered in the commands' registry
(games/commands/) when the chat's app starts: their `Spec`s (``commands``), the fields only
they take (``room``, ``say``, ``text``, with their words in games/chat/words.py) and their
handlers. The table's protocol parses them as any command; the table never names them.

Each runs its service in a database thread (``t.call``, which checks the session first)
and answers with ``chat`` frames only (games.chat.live): a refusal is a ``chat`` ``error``
frame, never a board, so talking never re-renders the board.

- ``chat_join``: nothing — the page's chat panel asks, on each (re)connect, for its
  history; from then on this connection gets its rooms' lines (a connection that never
  joins, a bot or a page without the panel, gets no chat frame at all)
- ``chat_say``: ``room``, ``say`` (a phrase's or reaction's code), ``request_id``
- ``chat_text``: ``room``, ``text`` (free text, signed-in accounts only), ``request_id``
- ``chat_open``: ``open`` (a participant opens or closes the spectators' room)
- ``chat_mute``: ``ref`` (a message whose author this reader mutes)
- ``chat_unmute``: ``ref`` (one of this reader's mutes)
- ``chat_switch``: ``on`` (the table's creator turns the chat on or off)
- ``chat_report``: ``ref`` (a message reported to staff)
"""

from __future__ import annotations

from typing import Any

from games.chat import live, services
from games.chat.models import Room
from games.chat.phrases import MAX_CODE
from games.chat.words import FIELD, Refused, notice_muted, notice_reported, notice_unmuted
from games.commands import Spec, register
from games.commands.fields import ON, OPEN, REF, REQUEST_ID, BadField, Field, one_of, short_text

#: which of the table's rooms: its players' or its spectators'
ROOM = one_of("room", Room.values, FIELD["room"])
#: a phrase's or reaction's code (games.chat.phrases)
SAY = short_text("say", MAX_CODE, FIELD["say"], "good_move")


def _text(value: object) -> Any:
    # its length and characters are games.chat.text's, with words for the writer
    if not isinstance(value, str):
        raise BadField(FIELD["text"])
    return value


#: free text, signed-in full accounts only
TEXT = Field("text", _text, "Hello", "string")


async def _guarded(t: Any, c: Any, run: Any) -> None:
    try:
        await run()
    except Refused as e:
        await live.refused(t, e, c.request_id)


async def chat_join(t: Any, c: Any) -> None:
    await live.start(t)


async def chat_say(t: Any, c: Any) -> None:
    async def run() -> None:
        await t.call(
            services.say,
            match_id=t.match_id,
            user=t.user,
            room=c.room,
            code=c.say,
            token=t.chat.token,
        )
        await t.send_json({"type": "chat", "event": "ack", "request_id": c.request_id})

    await _guarded(t, c, run)


async def chat_text(t: Any, c: Any) -> None:
    async def run() -> None:
        await t.call(
            services.say,
            match_id=t.match_id,
            user=t.user,
            room=c.room,
            words=c.text,
            token=t.chat.token,
        )
        await t.send_json({"type": "chat", "event": "ack", "request_id": c.request_id})

    await _guarded(t, c, run)


async def chat_open(t: Any, c: Any) -> None:
    await _guarded(t, c, lambda: live.open_spectators(t, bool(c.open)))


async def _notice(t: Any, message: str) -> None:
    mutes = await t.call(services.mutes_of, user=t.user)
    await t.send_json({"type": "chat", "event": "notice", "message": message, "mutes": mutes})


async def chat_mute(t: Any, c: Any) -> None:
    async def run() -> None:
        uid, name = await t.call(
            services.mute, match_id=t.match_id, user=t.user, message_id=c.ref, token=t.chat.token
        )
        t.chat.muted.add(uid)
        await _notice(t, t.words(lambda: notice_muted(name)))

    await _guarded(t, c, run)


async def chat_unmute(t: Any, c: Any) -> None:
    async def run() -> None:
        uid, name = await t.call(services.unmute, match_id=t.match_id, user=t.user, mute_id=c.ref)
        t.chat.muted.discard(uid)
        await _notice(t, t.words(lambda: notice_unmuted(name)))

    await _guarded(t, c, run)


async def chat_switch(t: Any, c: Any) -> None:
    await _guarded(
        t, c, lambda: t.call(services.switch, match_id=t.match_id, user=t.user, on=bool(c.on))
    )


async def chat_report(t: Any, c: Any) -> None:
    async def run() -> None:
        await t.call(
            services.report, match_id=t.match_id, user=t.user, message_id=c.ref, token=t.chat.token
        )
        await t.send_json({"type": "chat", "event": "notice", "message": t.words(notice_reported)})

    await _guarded(t, c, run)


commands = [
    Spec(
        "chat_join",
        (),
        chat_join,
        says="table talk: send my rooms' history, then their lines from now on (the page sends it on every (re)connect)",
    ),
    Spec(
        "chat_say",
        (ROOM, SAY, REQUEST_ID),
        chat_say,
        says="post a phrase: `say` is a phrase's or reaction's code",
    ),
    Spec(
        "chat_text",
        (ROOM, TEXT, REQUEST_ID),
        chat_text,
        says="post free text, 1–200 characters (signed-in full accounts only)",
    ),
    Spec(
        "chat_open", (OPEN,), chat_open, says="a participant opens or closes the spectators' room"
    ),
    Spec(
        "chat_mute",
        (REF,),
        chat_mute,
        says="mute a message's author for yourself (`ref`: the message's id)",
    ),
    Spec("chat_unmute", (REF,), chat_unmute, says="undo a mute (`ref`: the mute's id)"),
    Spec("chat_switch", (ON,), chat_switch, says="the table's creator turns its chat on or off"),
    Spec(
        "chat_report",
        (REF,),
        chat_report,
        says="report a message to staff (`ref`: the message's id)",
    ),
]
register(*commands)
