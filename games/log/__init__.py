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
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

ACTION = "action"
UNDO = "undo"
REDO = "redo"
RESTART = "restart"
#: a change asked of the others at the table (games.consent), and its answers: no change to the round
CONSENT = "consent"
#: R32: the round was made the match's last (kept in the round's start, so no change to the fold)
LAST_ROUND = "last_round"


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
        elif kind in (CONSENT, LAST_ROUND):
            pass
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
