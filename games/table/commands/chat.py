"""Table talk's commands (games.chat holds the rooms, phrases, words and rules):
``chat_join`` (the page's chat asks for its history and lines from now on), ``chat_say``
(``room``, ``say``: a phrase's code, ``request_id``), ``chat_text`` (``room``, ``text``: free
text, checked by games.chat.text, ``request_id``), ``chat_open`` (``open``: a player opens the
spectators' room), ``chat_mute`` / ``chat_unmute`` / ``chat_report`` (``ref``: a message or
mute id), ``chat_switch`` (``on``: the table's creator turns the chat on or off). Answered
with ``chat`` frames, never a board; who may is asked of games.permissions (``chat_may``)."""

from __future__ import annotations

from games.chat import commands as chat
from games.table.commands import Spec

commands = [
    Spec("chat_join", frozenset(), chat.chat_join),
    Spec("chat_say", frozenset({"room", "say", "request_id"}), chat.chat_say),
    Spec("chat_text", frozenset({"room", "text", "request_id"}), chat.chat_text),
    Spec("chat_open", frozenset({"open"}), chat.chat_open),
    Spec("chat_mute", frozenset({"ref"}), chat.chat_mute),
    Spec("chat_unmute", frozenset({"ref"}), chat.chat_unmute),
    Spec("chat_switch", frozenset({"on"}), chat.chat_switch),
    Spec("chat_report", frozenset({"ref"}), chat.chat_report),
]
