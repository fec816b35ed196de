"""Table talk's commands (games.chat holds the rooms, phrases, words and rules):
``chat_join`` (the page's chat asks for its history and lines from now on), ``chat_say``
(``room``, ``say``: a phrase's code, ``request_id``), ``chat_text`` (``room``, ``text``: free
text, checked by games.chat.text, ``request_id``), ``chat_open`` (``open``: a player opens the
spectators' room), ``chat_mute`` / ``chat_unmute`` / ``chat_report`` (``ref``: a message or
mute id), ``chat_switch`` (``on``: the table's creator turns the chat on or off). Answered
with ``chat`` frames, never a board; who may is asked of games.permissions (``chat_may``)."""

from __future__ import annotations

from typing import Any

from games.chat import commands as chat
from games.chat.phrases import MAX_CODE
from games.table.commands import Spec
from games.table.commands.fields import (
    ON,
    OPEN,
    REF,
    REQUEST_ID,
    BadField,
    Field,
    one_of,
    short_text,
)
from games.table.words import FIELD

#: which of the table's rooms: its players' or its spectators' (games.chat.models.Room, whose
#: models cannot be imported while the registry itself loads)
ROOM = one_of("room", ("players", "spectators"), FIELD["room"])
#: a phrase's or reaction's code (games.chat.phrases)
SAY = short_text("say", MAX_CODE, FIELD["say"], "good_move")


def _text(value: object) -> Any:
    # its length and characters are games.chat.text's, with words for the writer
    if not isinstance(value, str):
        raise BadField(FIELD["text"])
    return value


#: free text, signed-in full accounts only
TEXT = Field("text", _text, "Hello", "string")

commands = [
    Spec(
        "chat_join",
        (),
        chat.chat_join,
        says="table talk: send my rooms' history, then their lines from now on (the page sends it on every (re)connect)",
    ),
    Spec(
        "chat_say",
        (ROOM, SAY, REQUEST_ID),
        chat.chat_say,
        says="post a phrase: `say` is a phrase's or reaction's code",
    ),
    Spec(
        "chat_text",
        (ROOM, TEXT, REQUEST_ID),
        chat.chat_text,
        says="post free text, 1–200 characters (signed-in full accounts only)",
    ),
    Spec(
        "chat_open",
        (OPEN,),
        chat.chat_open,
        says="a participant opens or closes the spectators' room",
    ),
    Spec(
        "chat_mute",
        (REF,),
        chat.chat_mute,
        says="mute a message's author for yourself (`ref`: the message's id)",
    ),
    Spec("chat_unmute", (REF,), chat.chat_unmute, says="undo a mute (`ref`: the mute's id)"),
    Spec(
        "chat_switch", (ON,), chat.chat_switch, says="the table's creator turns its chat on or off"
    ),
    Spec(
        "chat_report",
        (REF,),
        chat.chat_report,
        says="report a message to staff (`ref`: the message's id)",
    ),
]
