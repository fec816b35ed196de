"""The table's websocket protocol: a closed set of client commands, strictly checked.

Every frame a browser sends to ``/ws/m/<id>/`` is parsed here before anything else
sees it (design.md: "a closed set of commands, parsed and validated"). A frame is
refused with a `ProtocolError` — the consumer answers
``{"type": "error", "code": "bad_request", ...}`` and keeps the connection — when it
is binary or not a JSON object, nests deeper than `MAX_DEPTH`, names an unknown type,
lacks a field, carries a field the command does not take, or a field of the wrong
type or size. What is left is a `Command` the consumer hands to a service; whether
the move is legal is the engine's business (R7–R22), whether the seat is the
sender's is the services' (R24).

Limits come before parsing. The site's server (tablesite/server.py) refuses a message
over `MAX_FRAME` bytes itself, in one frame or many, and closes the connection with 1009
("message too big") before it reaches the application; `check_frame` (the first thing
`parse` does) is the second wall, for servers without that limit: a message over
`MAX_FRAME` raises
`FrameTooBig` and the consumer closes the connection with `TOO_BIG` (no real command
comes near it; whoever sends one is not a table page); a
frame nesting brackets deeper than `MAX_DEPTH` is refused by a linear scan before
``json.loads`` ever sees it, since the decoder recurses once per level and a few
kilobytes of ``[`` exhaust Python's stack (``RecursionError``).

Commands: one registry, `COMMANDS` (games.table.commands: one module per command): each
entry is a command's fields (what `parse` checks), its handler — who may ask it, which
service it calls, what it answers — run by the consumer (games.table.consumers) with the
connection as its first argument, and, for a command the board offers in its menu, when
it is offered. A new table command is its module (and its template when it is offered).
See games/table/commands/__init__.py and games/table/board.py's docstring.

- ``act``: ``seat``, ``action`` (a replay-format action object), ``version``, ``request_id``
- ``undo`` ``redo`` (R27), ``restart`` (R28), ``next_round``: ``version``, ``request_id``
- ``play_again`` ``leave_table`` (R29, once the match is over: a new match at the same
  table, or not): ``version`` (not checked), ``request_id``; ``again_seat`` (the creator:
  what the seat of someone who left becomes): ``seat``, ``become``, ``request_id``
- ``hint`` (R23, R25), ``reveal`` (the relay's "Show my tiles", R24): ``seat``
- ``panel`` (rules or log opened/closed, R26): ``open``
- ``pace`` (the computers' speed, a seated person only): ``pace``, ``request_id``
- ``skip`` ("skip to my turn": the computers play without waiting until a person is
  to act): ``request_id``
- ``autodraw`` ("draw and pass for me when I have no play", a player's own preference,
  kept on their account): ``on``
- ``accept`` ``decline``: ``ask`` (the id of the open request the board showed, a
  games.consent kind), ``request_id`` — the answer of another person at a shared table
- ``stand_in`` (let a computer play another person's seat while they are away) and
  ``take_back`` (its owner takes it back): ``seat``, ``request_id`` (games.standin)
- ``away_limit`` (how long a seat may stay away before that, a seated person only):
  ``limit``, ``request_id``
- ``chat_join`` (the page's chat asks for its history and lines from now on), ``chat_say``
  ``chat_text`` ``chat_open`` ``chat_mute`` ``chat_unmute`` ``chat_switch``
  ``chat_report``: table talk (games.chat.commands): ``room``, ``say`` (a
  phrase's code), ``text`` (free text, checked by games.chat.text), ``ref`` (a message or
  mute id); answered with ``chat`` frames, never a board
- ``last_round`` (R32, "End the match after this round"; asked of the others at a shared
  table): ``version``, ``request_id``
- ``sync``: nothing — "send me a fresh board"
- ``check``: nothing — "send me a board only if the match moved past the last one you
  sent me" (a page asks now and then, so a notice lost on the channel layer under
  overload leaves it behind for seconds, not for good; costs one indexed read)
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.chat.phrases import MAX_CODE
from games.table import commands as _registry
from games.table.commands import Handler, Spec  # noqa: F401  (what callers know by this module's name)

#: the largest frame accepted, in bytes of UTF-8 (a real command is well under 300); the
#: site's server enforces the same limit (tablesite/server.py)
MAX_FRAME = 4096
#: the deepest nesting of arrays and objects accepted (a real command has 2: the command, its action)
MAX_DEPTH = 8
#: the application's close code for a frame over `MAX_FRAME` (when the server let it through):
#: 1009 ("message too big") in the application's range — daphne's Autobahn sends only 1000
#: and 3000–4999 for an application (see consumers.LAYER_RESTART); the site's server itself
#: closes with 1009 (tablesite/server.py)
TOO_BIG = 4009
#: the error code of every refused frame (the services' codes are in games.errors)
BAD_REQUEST = "bad_request"
#: sent when the server failed unexpectedly; nothing was changed
SERVER_ERROR = "server_error"

MAX_SEAT = 9  # R2: at most ten seats
MAX_VERSION = 2**31 - 1
#: request ids (`games.models.ChangeRequest`, a bigint)
MAX_ASK = 2**63 - 1
#: client request ids: uuids and the like (services store at most 64 characters)
REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
#: the fields a replay-format action may carry (engine.replay.parse_action)
ACTION_FIELDS = frozenset({"act", "seat", "tile", "train"})
MAX_ACTION_TEXT = 16

#: the longest pace name a frame may carry (games.models.Match.Pace; the service checks the name)
MAX_PACE = 16
#: table talk's rooms (games.chat.models.Room)
ROOMS = frozenset({"players", "spectators"})


class ProtocolError(ValueError):
    """A refused frame. `message` is translated when it is read (lazy); `request_id`
    is echoed when the frame carried a well-formed one, so the client can match it."""

    def __init__(self, message: Any, request_id: str | None = None) -> None:
        super().__init__(str(message))
        self.message = message
        self.request_id = request_id

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "error",
            "code": BAD_REQUEST,
            "message": str(self.message),
            "request_id": self.request_id,
        }


class FrameTooBig(ProtocolError):
    """A frame over `MAX_FRAME`: the consumer closes the connection with `TOO_BIG`."""


@dataclass(frozen=True, slots=True)
class Command:
    """One checked client command; fields a type does not take are None."""

    type: str
    seat: int | None = None
    action: dict[str, Any] | None = None
    version: int | None = None
    request_id: str | None = None
    open: bool | None = None
    pace: str | None = None
    ask: int | None = None
    on: bool | None = None
    limit: str | None = None
    room: str | None = None
    say: str | None = None
    text: str | None = None
    ref: int | None = None
    become: str | None = None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seat(value: object, request_id: str | None) -> int:
    if not _is_int(value) or not 0 <= value <= MAX_SEAT:  # type: ignore[operator]
        raise ProtocolError(_("A seat is a number from 0 to 9."), request_id)
    return value  # type: ignore[return-value]


def _action(value: object, request_id: str | None) -> dict[str, Any]:
    """A small object of the replay format's action fields with scalar values; its
    meaning is checked by engine.replay.parse_action inside the service."""
    if not isinstance(value, dict) or not value or set(value) - ACTION_FIELDS:
        raise ProtocolError(
            _("An action is an object with the fields act, seat, tile and train."), request_id
        )
    for key, item in value.items():
        text = isinstance(item, str) and len(item) <= MAX_ACTION_TEXT
        number = _is_int(item) and 0 <= item <= MAX_SEAT
        if not (text or number or (item is None and key != "act")):
            raise ProtocolError(
                _("An action's %(field)s is not valid.") % {"field": key}, request_id
            )
    if not isinstance(value.get("act"), str):
        raise ProtocolError(
            _("An action needs its act (engine, play, draw, pass or end)."), request_id
        )
    return dict(value)


# ---------------------------------------------------------------- the commands

#: type -> its Spec (fields, handler, offer): the closed set of commands, one module each in
#: games.table.commands
COMMANDS: dict[str, Spec] = _registry.COMMANDS

#: type -> the fields it requires (besides "type"); no command takes any other field
FIELDS: dict[str, frozenset[str]] = {name: spec.fields for name, spec in COMMANDS.items()}


def nesting_depth(text: str, *, limit: int = MAX_DEPTH) -> int:
    """How deep arrays and objects nest in `text` (brackets inside JSON strings do not
    count), read in one pass without parsing; stops counting once past `limit`.
    Unbalanced or malformed text is left for the decoder to refuse."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif ch in "]}" and depth:
            depth -= 1  # never below 0: a stray closing bracket hides no opening ones
    return deepest


def check_frame(frame: object) -> str:
    """The limits every frame meets before it is decoded: the frame as text, or raise
    `FrameTooBig` (over `MAX_FRAME` bytes, as the server counts them) or `ProtocolError`
    (binary, nested too deep)."""
    if isinstance(frame, bytes | bytearray | memoryview):
        if len(frame) > MAX_FRAME:
            raise FrameTooBig(_("That message is too long."))
        raise ProtocolError(_("Send commands as JSON text."))
    if not isinstance(frame, str):
        raise ProtocolError(_("Send commands as JSON text."))
    if len(frame) > MAX_FRAME or (  # a character is 1 to 4 bytes: count bytes only when needed
        not frame.isascii() and len(frame.encode("utf-8", "surrogatepass")) > MAX_FRAME
    ):
        raise FrameTooBig(_("That message is too long."))
    if nesting_depth(frame) > MAX_DEPTH:
        raise ProtocolError(_("That message is nested too deeply."))
    return frame


def parse(frame: str | bytes | None) -> Command:
    """Check one websocket frame and return its command, or raise `ProtocolError`
    (`FrameTooBig` for a frame over `MAX_FRAME`)."""
    text = check_frame(frame)
    try:
        data = json.loads(text)
    except (
        ValueError,
        RecursionError,
    ):  # the depth check makes the second unreachable; kept as a wall
        raise ProtocolError(_("That message is not valid JSON.")) from None
    if not isinstance(data, dict):
        raise ProtocolError(_("A command is a JSON object with a type."))
    raw_id = data.get("request_id")
    request_id = raw_id if isinstance(raw_id, str) and REQUEST_ID.fullmatch(raw_id) else None
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise ProtocolError(_("Unknown command."), request_id)
    given = set(data) - {"type"}
    wanted = FIELDS[kind]
    if given - wanted:
        raise ProtocolError(
            _("This command does not take the field %(field)s.")
            % {"field": sorted(given - wanted)[0]},
            request_id,
        )
    if wanted - given:
        raise ProtocolError(
            _("This command needs the field %(field)s.") % {"field": sorted(wanted - given)[0]},
            request_id,
        )
    out: dict[str, Any] = {}
    if "request_id" in wanted:
        if request_id is None:
            raise ProtocolError(_("A request id is 1 to 64 letters, digits or . _ : -"))
        out["request_id"] = request_id
    if "version" in wanted:
        version = data["version"]
        if not _is_int(version) or not 0 <= version <= MAX_VERSION:
            raise ProtocolError(_("A version is a whole number."), request_id)
        out["version"] = version
    if "seat" in wanted:
        out["seat"] = _seat(data["seat"], request_id)
    if "action" in wanted:
        out["action"] = _action(data["action"], request_id)
    if "ask" in wanted:
        ask = data["ask"]
        if not _is_int(ask) or not 1 <= ask <= MAX_ASK:
            raise ProtocolError(_("A request is a whole number."), request_id)
        out["ask"] = ask
    if "open" in wanted:
        if not isinstance(data["open"], bool):
            raise ProtocolError(_("Open is true or false."), request_id)
        out["open"] = data["open"]
    if "on" in wanted:
        if not isinstance(data["on"], bool):
            raise ProtocolError(_("On is true or false."), request_id)
        out["on"] = data["on"]
    if "limit" in wanted:
        if not isinstance(data["limit"], str) or not 1 <= len(data["limit"]) <= MAX_PACE:
            raise ProtocolError(_("A limit is a short name."), request_id)
        out["limit"] = data["limit"]
    if "pace" in wanted:
        if not isinstance(data["pace"], str) or not 1 <= len(data["pace"]) <= MAX_PACE:
            raise ProtocolError(_("A pace is a short name."), request_id)
        out["pace"] = data["pace"]
    if "room" in wanted:
        if not isinstance(data["room"], str) or data["room"] not in ROOMS:
            raise ProtocolError(_("A room is players or spectators."), request_id)
        out["room"] = data["room"]
    if "say" in wanted:
        if not isinstance(data["say"], str) or not 1 <= len(data["say"]) <= MAX_CODE:
            raise ProtocolError(_("A phrase is a short code."), request_id)
        out["say"] = data["say"]
    if "text" in wanted:
        if not isinstance(data["text"], str):
            raise ProtocolError(_("A message is text."), request_id)
        out["text"] = data[
            "text"
        ]  # its length and characters: games.chat.text, with words for the writer
    if "become" in wanted:
        if not isinstance(data["become"], str) or not 1 <= len(data["become"]) <= MAX_PACE:
            raise ProtocolError(_("A seat's choice is a short name."), request_id)
        out["become"] = data["become"]
    if "ref" in wanted:
        ref = data["ref"]
        if not _is_int(ref) or not 1 <= ref <= MAX_ASK:
            raise ProtocolError(_("A reference is a whole number."), request_id)
        out["ref"] = ref
    return Command(type=kind, **out)
