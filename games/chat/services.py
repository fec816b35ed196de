"""Table talk's writes and reads. Who may is games.permissions' `chat_may`;
what is refused is a `words.Refused` (nothing stored); each change is pushed after commit
through games.chat.push.

Events (what `push` carries, language-free; games.chat.live renders them per reader):

- ``{"kind": "message", "id", "room", "author", "name", "k", "code", "text", "at"}``
- ``{"kind": "hidden", "id"}``: staff hid a message;
- ``{"kind": "state", "on"}``: the creator turned the chat on or off;
- ``{"kind": "mute", "by", "user", "on"}``: an account (un)muted someone (its own connections apply it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from games import permissions
from games.chat import phrases, text
from games.chat.models import Action, Block, Message, Mute, Report, Room, TableChat
from games.chat.push import EVERYONE, push
from games.chat.words import (
    BLOCKED,
    CHAT_OFF,
    FLOOD,
    GUEST_TEXT,
    NO_MESSAGE,
    NO_ROOM,
    NOT_CREATOR,
    NOT_PLAYER,
    NOT_SIGNED_IN,
    OWN_MESSAGE,
    UNKNOWN_PHRASE,
    Refused,
)
from games.models import Match
from games.permissions import Talk
from games.reads.seats import match_seats, match_with_seats

#: the flood limit: at most `FLOOD_COUNT` messages per person in `FLOOD_WINDOW` (all tables)
FLOOD_COUNT = 5
FLOOD_WINDOW = timedelta(seconds=10)
#: how many lines of each room a connection gets on connect
HISTORY = 100
#: the first key of the advisory lock that makes one person's posts count one at a time
_LOCK_SPACE = 0x7A1C


def _match(match_id: int) -> Match:
    match = match_with_seats(match_id)
    if match is None:
        raise Refused(NO_ROOM)
    return match


def _uid(user: Any) -> int | None:
    return permissions.user_id(user)


def chat_on(match_id: int) -> bool:
    return not TableChat.objects.filter(match_id=match_id, on=False).exists()


def blocked(user: Any) -> bool:
    uid = _uid(user)
    return uid is not None and Block.objects.filter(user_id=uid).exists()


def muted_by(user: Any) -> set[int]:
    """The accounts `user` does not read."""
    uid = _uid(user)
    if uid is None:
        return set()
    return set(Mute.objects.filter(user_id=uid).values_list("muted_id", flat=True))


def mutes_of(user: Any) -> list[dict[str, Any]]:
    """The accounts `user` muted, for the chat's menu (to unmute): ``{"id", "name"}``."""
    uid = _uid(user)
    if uid is None:
        return []
    return [
        {"id": m.pk, "name": m.muted.get_username()}
        for m in Mute.objects.filter(user_id=uid).select_related("muted").order_by("created_at")
    ]


def event_of(message: Message) -> dict[str, Any]:
    return {
        "kind": "message",
        "id": message.pk,
        "room": message.room,
        "author": message.author_id,
        "name": message.name,
        "k": message.kind,
        "code": message.code,
        "text": message.text,
        "at": message.created_at.isoformat(),
    }


def say(
    *,
    match_id: int,
    user: Any,
    room: str,
    code: str | None = None,
    words: str | None = None,
    token: str = "",
) -> Message:
    """Say a phrase or reaction (`code`) or free text (`words`) in `room` of the match's table.

    Refused (nothing stored) when the sender may not write there (not signed in, not of that
    room, blocked, the chat off), free text from a guest, text the rules refuse
    (games.chat.text), an unknown phrase, or past the flood limit."""
    match = _match(match_id)
    seats = match_seats(match)
    uid = _uid(user)
    if uid is None:
        raise Refused(NOT_SIGNED_IN)
    on, barred = chat_on(match_id), blocked(user)
    if not permissions.chat_may(
        user, Talk.POST, match, room=room, token=token, seats=seats, chat_on=on, blocked=barred
    ):
        if not permissions.chat_may(user, Talk.READ, match, room=room, token=token, seats=seats):
            raise Refused(NO_ROOM)
        raise Refused(BLOCKED if barred else CHAT_OFF if not on else NO_ROOM)
    if words is not None:
        if not permissions.chat_may(user, Talk.FREE_TEXT, match):
            raise Refused(GUEST_TEXT)
        said = text.clean(words)
        kind, code = Message.Kind.TEXT, ""
    else:
        if code is None or not phrases.is_code(code):
            raise Refused(UNKNOWN_PHRASE)
        said = ""
        kind = Message.Kind.REACTION if code in phrases.REACTIONS else Message.Kind.PHRASE
    with transaction.atomic():
        # One person's posts are counted one at a time (two tabs, a script): the limit holds.
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_LOCK_SPACE, uid])
        since = timezone.now() - FLOOD_WINDOW
        if Message.objects.filter(author_id=uid, created_at__gte=since).count() >= FLOOD_COUNT:
            raise Refused(FLOOD, count=FLOOD_COUNT, seconds=int(FLOOD_WINDOW.total_seconds()))
        message = Message.objects.create(
            match=match,
            room=room,
            author_id=uid,
            name=user.get_username(),
            kind=kind,
            code=code,
            text=said,
        )
        event = event_of(message)
        transaction.on_commit(lambda: push(match_id, event, room))
    return message


def rooms_of(match: Match, user: Any, token: str = "") -> set[str]:
    """The rooms a connection reads from the start: the players' room for a participant,
    the spectators' room for everyone else who may watch."""
    seats = match_seats(match)
    if permissions.chat_may(user, Talk.READ, match, room=Room.PLAYERS, token=token, seats=seats):
        return {Room.PLAYERS.value}
    if permissions.chat_may(user, Talk.READ, match, room=Room.SPECTATORS, token=token, seats=seats):
        return {Room.SPECTATORS.value}
    return set()


def may_open_spectators(*, match_id: int, user: Any) -> None:
    """A participant opens the spectators' room (reads it too); refused for anyone else."""
    if not permissions.chat_may(user, Talk.OPEN_SPECTATORS, _match(match_id)):
        raise Refused(NOT_PLAYER)


def history(
    match_id: int, room: str, *, muted: Iterable[int] = (), limit: int = HISTORY
) -> list[dict[str, Any]]:
    """The last `limit` shown lines of a room (oldest first), without muted authors' lines."""
    rows = (
        Message.objects.filter(match_id=match_id, room=room, hidden=False)
        .exclude(author_id__in=list(muted))
        .order_by("-id")[:limit]
    )
    return [event_of(m) for m in reversed(rows)]


def _message(match_id: int, message_id: int) -> Message:
    message = Message.objects.filter(pk=message_id, match_id=match_id, hidden=False).first()
    if message is None:
        raise Refused(NO_MESSAGE)
    return message


def mute(*, match_id: int, user: Any, message_id: int, token: str = "") -> tuple[int, str]:
    """Mute the author of a message one reads at this table (for oneself, every table);
    returns (their id, their name)."""
    match = _match(match_id)
    if not permissions.chat_may(user, Talk.MUTE, match):
        raise Refused(NOT_SIGNED_IN)
    message = _message(match_id, message_id)
    if not permissions.chat_may(user, Talk.READ, match, room=message.room, token=token):
        raise Refused(NO_MESSAGE)
    if message.author_id is None:
        raise Refused(NO_MESSAGE)
    if message.author_id == user.pk:
        raise Refused(OWN_MESSAGE)
    with transaction.atomic():
        Mute.objects.get_or_create(user_id=user.pk, muted_id=message.author_id)
        Action.objects.create(
            kind=Action.Kind.MUTE,
            actor_id=user.pk,
            match_id=match_id,
            message=message,
            target_id=message.author_id,
        )
        event = {"kind": "mute", "by": user.pk, "user": message.author_id, "on": True}
        transaction.on_commit(lambda: push(match_id, event, EVERYONE))
    return message.author_id, message.name


def unmute(*, match_id: int, user: Any, mute_id: int) -> tuple[int, str]:
    """Read a muted account again (`mute_id`: one of `mutes_of(user)`)."""
    uid = _uid(user)
    row = (
        Mute.objects.filter(pk=mute_id, user_id=uid).select_related("muted").first()
        if uid
        else None
    )
    if row is None:
        raise Refused(NO_MESSAGE)
    with transaction.atomic():
        row.delete()
        Action.objects.create(
            kind=Action.Kind.UNMUTE, actor_id=uid, match_id=match_id, target_id=row.muted_id
        )
        event = {"kind": "mute", "by": uid, "user": row.muted_id, "on": False}
        transaction.on_commit(lambda: push(match_id, event, EVERYONE))
    return row.muted_id, row.muted.get_username()


def switch(*, match_id: int, user: Any, on: bool) -> bool:
    """The table's creator turns its chat on or off (both rooms)."""
    match = _match(match_id)
    if not permissions.chat_may(user, Talk.SWITCH, match):
        raise Refused(NOT_CREATOR)
    with transaction.atomic():
        TableChat.objects.update_or_create(match_id=match_id, defaults={"on": on})
        Action.objects.create(
            kind=Action.Kind.CHAT_ON if on else Action.Kind.CHAT_OFF,
            actor_id=user.pk,
            match_id=match_id,
        )
        transaction.on_commit(lambda: push(match_id, {"kind": "state", "on": on}, EVERYONE))
    return on


def report(*, match_id: int, user: Any, message_id: int, token: str = "") -> Report:
    """Report a message one reads to staff (once per reader and message)."""
    match = _match(match_id)
    message = _message(match_id, message_id)
    if not permissions.chat_may(user, Talk.REPORT, match, room=message.room, token=token):
        raise Refused(NO_MESSAGE if _uid(user) else NOT_SIGNED_IN)
    if message.author_id == user.pk:
        raise Refused(OWN_MESSAGE)
    with transaction.atomic():
        row, _created = Report.objects.get_or_create(message=message, reporter_id=user.pk)
        Action.objects.create(
            kind=Action.Kind.REPORT,
            actor_id=user.pk,
            match_id=match_id,
            message=message,
            target_id=message.author_id,
        )
    return row


def hide(messages: Iterable[Message], *, by: Any) -> int:
    """Staff hide messages (the admin): nobody sees them again; their reports are handled."""
    count = 0
    with transaction.atomic():
        for message in messages:
            if message.hidden:
                continue
            Message.objects.filter(pk=message.pk).update(hidden=True)
            Report.objects.filter(message_id=message.pk).update(handled=True)
            Action.objects.create(
                kind=Action.Kind.HIDE,
                actor_id=by.pk,
                match_id=message.match_id,
                message_id=message.pk,
                target_id=message.author_id,
            )
            event, match_id = {"kind": "hidden", "id": message.pk}, message.match_id
            transaction.on_commit(partial(push, match_id, event, EVERYONE))
            count += 1
    return count


def block(user_ids: Iterable[int], *, by: Any) -> int:
    """Staff bar accounts from writing in any table chat (they still read)."""
    count = 0
    with transaction.atomic():
        for uid in set(user_ids):
            _row, created = Block.objects.get_or_create(user_id=uid, defaults={"by_id": by.pk})
            if created:
                Action.objects.create(kind=Action.Kind.BLOCK, actor_id=by.pk, target_id=uid)
                Report.objects.filter(message__author_id=uid).update(handled=True)
                count += 1
    return count


def unblock(user_ids: Iterable[int], *, by: Any) -> int:
    with transaction.atomic():
        ids = list(
            Block.objects.filter(user_id__in=set(user_ids)).values_list("user_id", flat=True)
        )
        Block.objects.filter(user_id__in=ids).delete()
        Action.objects.bulk_create(
            [Action(kind=Action.Kind.UNBLOCK, actor_id=by.pk, target_id=uid) for uid in ids]
        )
    return len(ids)


@dataclass(frozen=True)
class Line:
    """One line of a match's chat as the history page shows it (in the reader's language)."""

    room: str
    name: str
    words: str
    label: str
    free: bool
    at: Any


def look_back(match: Match, user: Any) -> list[Line] | None:
    """The match's chat (both rooms, oldest first) for its history and replay: None for
    anyone but its participants (games.permissions, Talk.LOOK_BACK). Muted authors and
    hidden lines are left out."""
    if not permissions.chat_may(user, Talk.LOOK_BACK, match):
        return None
    rows = (
        Message.objects.filter(match=match, hidden=False)
        .exclude(author_id__in=list(muted_by(user)))
        .order_by("id")
    )
    return [
        Line(
            room=m.room,
            name=m.name,
            words=m.text if m.kind == Message.Kind.TEXT else phrases.words(m.code),
            label="" if m.kind == Message.Kind.TEXT else phrases.label(m.code),
            free=m.kind == Message.Kind.TEXT,
            at=m.created_at,
        )
        for m in rows
    ]
