"""The commands a table's websocket takes: one registry, which the wings fill.

A command is a `Spec`: its name (the frame's ``type``), the fields it takes, each with its
type (games.commands.fields: checked by the table's protocol, games/table/protocol.py, and
listed in docs/protocol.md's table, made from this registry), its handler (who may — asked of
games.permissions, in the service it calls —, the service, what it answers) and, for a
command the board offers in the table's menu or in the match-end panel, ``offer``: when this
viewer is offered it, as an `Offer` the tools part (or the result part) renders with the
command's own template. A wing registers its commands here (`register`) when its app starts:
the table's, a module each in games/table/commands/, table talk's in games/chat/commands.py.
The protocol's parse, the board's offers (`offers`) and docs/protocol.md's table
(`protocol_table`) loop over what is registered, so none of them names a wing.

What a connection keeps for a wing's commands beyond the board (table talk's rooms and mutes)
is that wing's `Extension` (games.commands.extensions).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from games.commands.fields import Field

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command

#: A command's handler: ``await handler(connection, command)``. `connection` is the table's
#: consumer as a games.table.connection `Connection` (named for type checkers only: the
#: registry imports no wing): ``call(fn, **kw)`` runs `fn` in a database thread in the
#: connection's language, ``ack(command, result)`` answers a change and sends its board,
#: ``send_board(whole=…)``, ``send_json(message)``, ``viewer(match)`` (games.table.screen),
#: and what it keeps per connection (``revealed``, ``autodraw``, ``pausing``,
#: ``sent_version``, ``match_id``, ``user``; a wing's own state: games/commands/extensions.py).
#: A helper only one command uses lives in that command's module.
Handler = Callable[["Connection", "Command"], Awaitable[None]]


@dataclass(frozen=True)
class OfferContext:
    """What deciding an offer may read: the match (with its seats), the viewer (None: nobody
    signed in), the viewer's view of the round, the seats they control, whether a request
    waits for answers at the table, and what the viewer may do (games.permissions.powers;
    None: asked of games.permissions now)."""

    match: Any
    user: Any
    view: Any
    mine: tuple[int, ...]
    waiting: bool
    powers: Any = None

    def can(self) -> Any:
        """What the viewer may do (games.permissions.Powers)."""
        from games import permissions

        return self.powers if self.powers is not None else permissions.powers(self.user, self.match)


@dataclass(frozen=True)
class Offer:
    """A command the board offers this viewer: rendered by `template` (its menu item with
    ``slot == "menu"``, anything outside the menu, such as its confirming dialog, with
    ``slot == "after"``); `words`: what the template shows ((key, words) pairs, part of the
    tools part's key). `where`: "menu", in the table's menu (the tools part), or "end", in
    the match-end panel (the result part, with ``slot == "end"``); `data`: what else its
    template shows (hashable: part of its part's key); `leads`: the page this offer shows
    the way to (the match that followed at this table), so the panel shows no link of its
    own beside it."""

    name: str
    template: str
    words: tuple[tuple[str, str], ...] = ()
    where: str = "menu"
    data: Any = None
    leads: str = ""

    def word(self, key: str) -> str:
        return dict(self.words).get(key, "")


@dataclass(frozen=True)
class Spec:
    """One command: its name, the fields it takes (all required; no other), its handler, and
    when the board offers it (None: never in the menu; its button is the board's own)."""

    name: str
    fields: tuple[Field, ...]
    handler: Handler
    offer: Callable[[OfferContext], Offer | None] | None = None
    #: the connection's session is checked before it runs (a signed-in user's: still signed
    #: in?); False only for a command that changes nothing and sends nothing a board pushed
    #: by the hub would not (those are not checked either; a session's end closes the socket)
    session_checked: bool = True
    #: what it asks, for the maintainers' protocol table (docs/protocol.md, `protocol_table`)
    says: str = ""
    #: the names of `fields`, made once: every frame of this type is checked against them
    names: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", frozenset(f.name for f in self.fields))


#: type -> its Spec: the closed set of commands, in the order they were registered (the
#: apps' order in INSTALLED_APPS, then each wing's own)
COMMANDS: dict[str, Spec] = {}


def register(*specs: Spec) -> None:
    """Add a wing's commands to the registry (its app's start-up imports the modules that
    call this). A name is one command's: a second command of the same name is refused."""
    for spec in specs:
        known = COMMANDS.get(spec.name)
        if known is not None and known is not spec:
            raise ValueError(f"two commands named {spec.name}")
        COMMANDS[spec.name] = spec


def offers(context: OfferContext) -> tuple[Offer, ...]:
    """What the registered commands offer this viewer now, in the commands' order."""
    out = []
    for spec in COMMANDS.values():
        if spec.offer is not None:
            offer = spec.offer(context)
            if offer is not None:
                out.append(offer)
    return tuple(out)


def protocol_table() -> str:
    """The client's commands as docs/protocol.md shows them, made from the registry: each
    command with its fields and what it asks, then each field with its type. ``manage.py
    protocol_table`` writes it there; a test fails when the document differs."""
    rows = ["| type | fields | what it asks |", "| --- | --- | --- |"]
    kinds: dict[str, str] = {}
    for name, spec in COMMANDS.items():
        fields = ", ".join(f"`{f.name}`" for f in spec.fields) or "—"
        rows.append(f"| `{name}` | {fields} | {spec.says} |")
        kinds.update((f.name, f.kind) for f in spec.fields)
    rows += ["", "| field | type |", "| --- | --- |"]
    rows += [f"| `{name}` | {kind} |" for name, kind in sorted(kinds.items())]
    return "\n".join(rows) + "\n"
