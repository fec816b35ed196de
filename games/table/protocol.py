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

Commands: one registry, `COMMANDS` (games/commands/, filled by the wings when their apps
start: the table's, a module each in games/table/commands/, table talk's in
games/chat/commands.py): each entry is a command's fields, each with its type
(games/commands/fields.py: what `parse` checks, field by field, with that field's own words
when it fails), its handler — who may ask it, which service it calls, what it answers — run
by the consumer (games.table.consumers) with the connection as its first argument, and, for a
command the board offers in its menu, when it is offered. `parse` looks a frame's type up in
the registry as it is when the frame comes, so it knows every wing's commands without naming
any. The list of commands and their fields is docs/protocol.md's, which
tests/games/commands/test_registry.py compares with the registry.
"""

from __future__ import annotations

import json
from typing import Any

from games.commands import COMMANDS
from games.commands.fields import REQUEST_ID, BadField
from games.table import words

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


class Command:
    """One checked client command: its type and the fields it took, read as attributes
    (``c.version``); a field its type does not take reads None."""

    __slots__ = ("type", "values")

    def __init__(self, type: str, **values: Any) -> None:
        self.type = type
        self.values = values

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return self.values.get(name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Command) and (self.type, self.values) == (other.type, other.values)

    def __hash__(self) -> int:
        return hash(self.type)

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in self.values.items())
        return f"Command({self.type!r}{', ' if fields else ''}{fields})"


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
            raise FrameTooBig(words.FRAME["too_long"])
        raise ProtocolError(words.FRAME["not_text"])
    if not isinstance(frame, str):
        raise ProtocolError(words.FRAME["not_text"])
    if len(frame) > MAX_FRAME or (  # a character is 1 to 4 bytes: count bytes only when needed
        not frame.isascii() and len(frame.encode("utf-8", "surrogatepass")) > MAX_FRAME
    ):
        raise FrameTooBig(words.FRAME["too_long"])
    if nesting_depth(frame) > MAX_DEPTH:
        raise ProtocolError(words.FRAME["too_deep"])
    return frame


def _request_id(value: object) -> str | None:
    try:
        return REQUEST_ID(value)
    except BadField:
        return None


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
        raise ProtocolError(words.FRAME["not_json"]) from None
    if not isinstance(data, dict):
        raise ProtocolError(words.FRAME["not_a_command"])
    request_id = _request_id(data.get("request_id"))  # read first: a refusal echoes it
    kind = data.get("type")
    spec = COMMANDS.get(kind) if isinstance(kind, str) else None
    if spec is None:
        raise ProtocolError(words.FRAME["unknown_command"], request_id)
    given = set(data) - {"type"}
    wanted = spec.names  # all required; no command takes any other field
    if given - wanted:
        raise ProtocolError(
            words.FRAME["extra_field"] % {"field": sorted(given - wanted)[0]},
            request_id,
        )
    if wanted - given:
        raise ProtocolError(
            words.FRAME["missing_field"] % {"field": sorted(wanted - given)[0]},
            request_id,
        )
    out: dict[str, Any] = {}
    for field in spec.fields:
        try:
            out[field.name] = field(data[field.name])
        except BadField as e:
            raise ProtocolError(e.message, request_id) from None
    return Command(type=spec.name, **out)
