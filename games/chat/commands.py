"""Table talk's commands on the table's websocket (registered in games.table.protocol.COMMANDS).

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
from games.chat.words import Refused, notice_muted, notice_reported, notice_unmuted


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
