"""What a table connection carries beyond the board: the wings' extensions.

A wing whose commands keep something on each connection of the table's websocket, or whose
events reach those connections, registers an `Extension` when its app starts (table talk:
the rooms a connection reads, its mutes and its watch token, and its ``chat.event``s,
games/chat/live.py). The table's consumer (games/table/consumers.py) calls every extension's
`opened` as a connection starts, and hands an event on the match's group to the extension
that names its type; so the consumer never names a wing, and a wing adds to every
connection without touching it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.table.connection import Connection

#: an event's handler: ``await handler(connection, event)``
EventHandler = Callable[["Connection", dict[str, Any]], Awaitable[None]]


@dataclass(frozen=True)
class Extension:
    """One wing's part of every table connection: `opened(connection, token)` sets up what it
    keeps on the connection as the connection starts, before anything is sent or received
    (`token`: the watch token the page came with, "" without one); `events`: the type of an
    event on the match's group (as sent: ``"chat.event"``) -> what handles it, once per
    connection of the table."""

    name: str
    opened: Callable[[Connection, str], None]
    events: Mapping[str, EventHandler] = field(default_factory=dict)


#: name -> its Extension, in the order they were registered
EXTENSIONS: dict[str, Extension] = {}
#: an event's type -> its handler (each type one extension's)
EVENTS: dict[str, EventHandler] = {}


def register(extension: Extension) -> None:
    """Add a wing's extension (its app's start-up imports the module that calls this)."""
    known = EXTENSIONS.get(extension.name)
    if known is not None and known is not extension:
        raise ValueError(f"two connection extensions named {extension.name}")
    for other in EXTENSIONS.values():
        shared = set(other.events) & set(extension.events)
        if other is not extension and shared:
            raise ValueError(f"two handlers of the event {sorted(shared)[0]}")
    EXTENSIONS[extension.name] = extension
    EVENTS.update(extension.events)


def opened(connection: Connection, token: str) -> None:
    """A connection starts: each extension sets up what it keeps on it."""
    for extension in EXTENSIONS.values():
        extension.opened(connection, token)
