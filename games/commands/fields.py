"""The fields a table command may carry, each with its type: what the table's protocol
(games/table/protocol.py) checks.

A command declares its fields as `Field` values (``Spec(..., fields=(VERSION, REQUEST_ID))``);
the protocol checks each one a frame carries with the field's own ``check`` and refuses the
frame with the field's words when it fails (games/commands/words.py `FIELD`). A field only
one wing's commands take is declared there with its words (table talk's ``room``, ``say``
and ``text`` in games/chat/commands.py); those several commands share are here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise

from engine.deal import MAX_PLAYERS
from games.commands.words import FIELD


class BadField(ValueError):
    """A field's value is not of its type: `message` (lazy) says what it should be."""

    def __init__(self, message: Any) -> None:
        super().__init__(str(message))
        self.message = message


@dataclass(frozen=True)
class Field:
    """One field of a command's frame: its name, what it checks (the value as the command
    gets it, or raise `BadField`), a value it accepts (for tests and documentation) and
    its type in a few words (docs/protocol.md)."""

    name: str
    check: Callable[[object], Any]
    example: object
    kind: str

    def __call__(self, value: object) -> Any:
        return self.check(value)


def is_whole(value: object) -> bool:
    """A JSON integer (``true`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def whole(name: str, low: int, high: int, refusal: Promise, example: int) -> Field:
    """A whole number from `low` to `high`."""

    def check(value: object) -> int:
        if not is_whole(value) or not low <= value <= high:  # type: ignore[operator]
            raise BadField(refusal)
        return value  # type: ignore[return-value]

    return Field(name, check, example, f"integer {low}..{high}")


def flag(name: str, refusal: Promise) -> Field:
    """``true`` or ``false``."""

    def check(value: object) -> bool:
        if not isinstance(value, bool):
            raise BadField(refusal)
        return value

    return Field(name, check, True, "boolean")


def short_text(name: str, longest: int, refusal: Promise, example: str) -> Field:
    """A string of 1 to `longest` characters (what it names is the service's to check)."""

    def check(value: object) -> str:
        if not isinstance(value, str) or not 1 <= len(value) <= longest:
            raise BadField(refusal)
        return value

    return Field(name, check, example, f"string of 1..{longest}")


def one_of(name: str, choices: Iterable[str], refusal: Promise) -> Field:
    """One string of `choices`."""
    allowed = tuple(choices)

    def check(value: object) -> str:
        if not isinstance(value, str) or value not in allowed:
            raise BadField(refusal)
        return value

    return Field(name, check, allowed[0], "one of " + ", ".join(allowed))


def pattern(name: str, shape: str, refusal: Promise, example: str) -> Field:
    """A string matching the regular expression `shape` whole."""
    compiled = re.compile(shape)

    def check(value: object) -> str:
        if not isinstance(value, str) or not compiled.fullmatch(value):
            raise BadField(refusal)
        return value

    return Field(name, check, example, f"string matching {shape}")


MAX_VERSION = 2**31 - 1
#: request ids (`games.models.ChangeRequest`, a bigint) and chat message or mute ids
MAX_ID = 2**63 - 1
#: the fields a replay-format action may carry (engine.replay.parse_action)
ACTION_FIELDS = frozenset({"act", "seat", "tile", "train"})
MAX_ACTION_TEXT = 16
#: the longest pace or limit name a frame may carry (the service checks the name)
MAX_NAME = 16

#: client request ids: uuids and the like (services store at most 64 characters); makes a
#: change idempotent
REQUEST_ID = pattern(
    "request_id",
    r"[A-Za-z0-9._:-]{1,64}",
    FIELD["request_id"],
    "r-1",
)
#: the board's version the command was made from (a stale one is refused by the service)
VERSION = whole("version", 0, MAX_VERSION, FIELD["version"], 1)
#: R2: a seat's index, at most ten seats
SEAT = whole("seat", 0, MAX_PLAYERS - 1, FIELD["seat"], 0)
#: an open request at the table (games.consent), by its id
ASK = whole("ask", 1, MAX_ID, FIELD["ask"], 1)
#: a chat message or mute, by its id
REF = whole("ref", 1, MAX_ID, FIELD["ref"], 1)
OPEN = flag("open", FIELD["open"])
ON = flag("on", FIELD["on"])
#: the computers' pace (games.models.Match.Pace)
PACE = short_text("pace", MAX_NAME, FIELD["pace"], "fast")
#: how long a seat may be away (games.attendance.presence)
LIMIT = short_text("limit", MAX_NAME, FIELD["limit"], "1h")


def _action(value: object) -> dict[str, Any]:
    """A small object of the replay format's action fields with scalar values; its meaning
    is checked by engine.replay.parse_action inside the service."""
    if not isinstance(value, dict) or not value or set(value) - ACTION_FIELDS:
        raise BadField(FIELD["action"])
    for key, item in value.items():
        text = isinstance(item, str) and len(item) <= MAX_ACTION_TEXT
        number = is_whole(item) and 0 <= item < MAX_PLAYERS
        if not (text or number or (item is None and key != "act")):
            raise BadField(FIELD["action_field"] % {"field": key})
    if not isinstance(value.get("act"), str):
        raise BadField(FIELD["action_act"])
    return dict(value)


#: a replay-format action (R7-R22): ``act``, and ``seat``, ``tile``, ``train`` as it needs
ACTION = Field("action", _action, {"act": "draw"}, "object of act, seat, tile, train")
