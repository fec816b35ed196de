"""Folding a round's append-only log into its effective actions (R27, R28).

The log (`games.models.LogEntry`) is never edited: Undo, Redo and Restart are
entries of their own. Folding reads it in order and keeps two things:

- the effective actions: the actions that made the current state, in order;
- the redo stack: groups of undone actions, the last undone on top.

The rules of the fold:

- ``action`` appends to the effective list and clears the redo stack (Redo is
  only offered while nothing new was played);
- ``undo {"count": k}`` pops the last k effective actions as one group onto the
  redo stack (R27: the user's action and every computer action that answered it);
- ``redo`` re-appends the group on top of the redo stack (exactly what was undone);
- ``restart`` empties both (R28: the round starts again from its deal).

Nothing here touches the database: entries are anything with ``kind`` and
``action`` attributes, so the fold is tested on plain tuples too.

The kinds of entry are a registry (`KINDS`), fed by the features that write them: each
declares its `Kind` (`register`, when its module is imported; games.table's app imports
the command modules when the site starts) with its name, the admin's label and how its
line reads (`Kind.line`, its words in games/log/words.py). ``LogEntry.kind``'s choices are
read from it and no constraint lists the kinds, so a new kind needs no migration; an entry of
a kind nobody registered is refused when it is written (`kind`: `UnknownKind`). The fold
knows what ``action``, ``undo``, ``redo`` and ``restart`` do to the actions; every other
registered kind (a request of games.consent, the last round of R32…) leaves them as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

#: the kinds whose effect on the actions the fold knows (the features that write them register
#: them: games.services.moves, games.table.commands.undo, redo and restart)
ACTION = "action"
UNDO = "undo"
REDO = "redo"
RESTART = "restart"


#: the longest kind name ``LogEntry.kind`` holds
MAX_NAME = 16


@dataclass(frozen=True)
class Line:
    """What an entry's line is made from: its ``action`` (``{}`` when it has none), the seats'
    names, the viewer's seat (None: a spectator; their own lines read in the second person),
    `who` asked for it (named, or "A player" in words) and the round's engine number (for an
    action only)."""

    action: dict[str, Any]
    names: Sequence[str]
    viewer_seat: int | None
    who: str
    engine: int | None = None

    @property
    def mine(self) -> bool:
        """The viewer asked for it (their seat bears the name of who asked): a feature's line
        then reads in the second person, as the viewer's own moves do."""
        seat = self.viewer_seat
        return seat is not None and 0 <= seat < len(self.names) and self.names[seat] == self.who

    def said(self, words: Mapping[str, Any], **facts: Any) -> str:
        """A feature's line from its words: ``words["log_line_mine"]`` when the viewer asked
        for it, else ``words["log_line"]`` naming who did, with `facts` (a count picks the
        plural form of a lazy plural)."""
        text = words["log_line_mine" if self.mine else "log_line"]
        return str(text % {"name": self.who, **facts})


@dataclass(frozen=True)
class Kind:
    """One kind of log entry: its name (``LogEntry.kind``), its label (the model's choice, which
    the admin shows and filters by) and ``line(Line) -> str``, the entry in the reader's
    language."""

    name: str
    label: Any
    line: Callable[[Line], str]


class UnknownKind(ValueError):
    """An entry of a kind no feature registered (`KINDS`): it is not written."""


#: every kind by name: what ``LogEntry.kind`` may hold (`register` fills it)
KINDS: dict[str, Kind] = {}


def register(new: Kind) -> Kind:
    """Add a kind of entry (the module of the feature that writes it calls this when imported);
    returns it."""
    if new.name in KINDS and KINDS[new.name] is not new:
        raise ValueError(f"two log entry kinds named {new.name}")
    if not 1 <= len(new.name) <= MAX_NAME:
        raise ValueError(f"a log entry kind's name has 1 to {MAX_NAME} characters: {new.name}")
    KINDS[new.name] = new
    return new


def kind(name: str) -> Kind:
    """The kind named `name`, or `UnknownKind` when no feature registered it."""
    found = KINDS.get(name)
    if found is None:
        raise UnknownKind(
            f"no log entry kind is named {name!r}; the registered ones: {', '.join(sorted(KINDS))}"
        )
    return found


def choices() -> list[tuple[str, Any]]:
    """``LogEntry.kind``'s choices: every registered kind's name and label."""
    return [(k.name, k.label) for k in KINDS.values()]


class Entry(Protocol):
    @property
    def kind(self) -> str: ...

    @property
    def action(self) -> Any: ...


E = TypeVar("E", bound=Entry)
#: a folded entry's type: unbounded, as a model's fields are not known yet when mypy checks
#: the bounds of type arguments (``Folded[LogEntry]``: typeddjango/django-stubs#651)
T = TypeVar("T")


class BadLog(ValueError):
    """The log cannot be folded (an undo of more than was played, a redo with nothing undone)."""


@dataclass(frozen=True, slots=True)
class Folded(Generic[T]):
    #: the entries whose actions made the current state, in order
    effective: tuple[T, ...]
    #: undone groups, oldest first: the last one is what Redo restores
    redo: tuple[tuple[T, ...], ...]


def undo_count(entry: Entry) -> int:
    """How many effective actions an undo entry took back."""
    raw = entry.action
    count = raw.get("count") if isinstance(raw, dict) else None
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise BadLog(f"an undo entry needs a positive count, not {raw!r}")
    return count


def fold(entries: Iterable[E]) -> Folded[E]:
    """Fold a round's log, in sequence order, into its effective actions and redo stack."""
    effective: list[E] = []
    redo: list[tuple[E, ...]] = []
    for entry in entries:
        kind = entry.kind
        if kind == ACTION:
            effective.append(entry)
            redo.clear()
        elif kind == UNDO:
            count = undo_count(entry)
            if count > len(effective):
                raise BadLog(f"undo of {count} actions with only {len(effective)} played")
            redo.append(tuple(effective[-count:]))
            del effective[-count:]
        elif kind == REDO:
            if not redo:
                raise BadLog("redo with nothing undone")
            effective.extend(redo.pop())
        elif kind == RESTART:
            effective.clear()
            redo.clear()
        elif kind in KINDS:
            pass  # a request, the last round…: the actions stay as they are
        else:
            raise BadLog(f"unknown log entry kind {kind!r}")
    return Folded(tuple(effective), tuple(redo))


class Played(Protocol):
    """A log entry of an action: who acted and whether a computer did."""

    @property
    def seat(self) -> int | None: ...

    @property
    def by_computer(self) -> bool: ...


P = TypeVar("P", bound=Played)


def undo_group(effective: tuple[P, ...] | list[P], seats: Iterable[int]) -> int | None:
    """How many effective actions one Undo by the controller of `seats` takes back (R27), or None.

    It takes back the last action of one of `seats` together with every later
    action, which must all be computer actions (any other person's action since
    makes it None: their move is not ours to take back).
    """
    mine = set(seats)
    for back, entry in enumerate(reversed(effective), start=1):
        if entry.by_computer:
            continue
        return back if entry.seat in mine else None
    return None
