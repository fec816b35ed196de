"""Consent: the changes one person asks of the others at a shared table, as a registry.

At a table with more than one person (games.permissions.needs_consent) some changes are
not made at once but asked of the others (`games.models.ChangeRequest`): every other
person must accept, one decline closes the request, a minute passing expires it
(games.services.asking: `asked_or_done`, `change_answer`). Each *kind* of such change is
one `Kind`, declared by the feature it belongs to (its module in games.table.commands calls
`register` when imported; games.apps imports them all when the site starts), with

- its name (stored in ``ChangeRequest.change``; the model's choices are read from `KINDS`,
  and no constraint lists them, so a new kind needs no migration),
- its words: the label, the banner line for the asker and for the others, the log lines
  of each step, and the message the asker reads when it is declined or expires (kept in
  its feature module's ``WORDS`` by the names in `WORDS`: ``**words_of(WORDS)``),
- what accepting does: ``done(pending: Pending) -> None``, a function that checks the
  change can still be made (raising a `GameError` makes the request close as void, changing
  nothing) and makes it.

The kinds today: ``undo`` (R27), ``restart`` (R28), ``last_round`` (R32: end the match
after this round) and ``away_limit`` (how long a seat may stay away before a computer may
play it; the request carries the new limit in ``ChangeRequest.value``).

A stand-in (a computer playing an away person's seat, games.attendance.standin) never carries
consent for the seat it plays: its owner is still asked (games.permissions.people).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.state import RoundState

    from .models import ChangeRequest, Match, Round, Seat

Words = Callable[[], str]

#: the steps of a request, as its log entries name them (``LogEntry.action["step"]``)
STEPS = ("ask", "accept", "decline", "expire", "void")


@dataclass(frozen=True)
class Pending:
    """An accepted request about to be made, and where: what ``Kind.done`` is given."""

    match: Match
    round: Round
    state: RoundState
    #: the version the change is made at
    version: int
    asker: Any
    #: the accepted request (None: made at once, alone with computers)
    request: ChangeRequest | None
    seats: list[Seat]


@dataclass(frozen=True)
class Kind:
    """One change asked of the others. Words are lazy (translated when read); the ones with
    ``%(name)s`` name a person (the asker, or who accepted or declined)."""

    name: str
    #: the model's choice label ("Undo")
    label: Any
    #: the banner, to the asker: "You asked to restart the round."
    mine: Any
    #: the banner, to the others: "%(name)s asks to restart the round."
    theirs: Any
    #: the log: who asked, who accepted, who declined, nobody in time, no longer possible
    log_ask: Any
    log_accept: Any
    log_decline: Any
    log_expire: Any
    log_void: Any
    #: to the asker on their table after a decline ("%(name)s declined …") or an expiry
    declined: Any
    expired: Any
    #: ``done(pending)`` checks and makes the change
    done: Callable[[Pending], None]

    def accept(self, pending: Pending) -> None:
        """Make the accepted change (or raise a `GameError`: it is no longer possible)."""
        self.done(pending)

    def log_line(self, step: str, name: str) -> str:
        """The log's line for `step` of a request of this kind, by the person `name`."""
        words = {
            "ask": self.log_ask,
            "accept": self.log_accept,
            "decline": self.log_decline,
            "expire": self.log_expire,
            "void": self.log_void,
        }.get(step, self.log_void)
        return str(words) % {"name": name} if "%(name)s" in str(words) else str(words)


#: the words a `Kind` takes from its feature module's ``WORDS``, by the same names
WORDS = (
    "mine",
    "theirs",
    "log_ask",
    "log_accept",
    "log_decline",
    "log_expire",
    "log_void",
    "declined",
    "expired",
)


def words_of(said: Mapping[str, Any]) -> dict[str, Any]:
    """A kind's words out of its feature's ``WORDS`` (``consent.Kind(…, **words_of(WORDS))``)."""
    return {key: said[key] for key in WORDS}


#: every kind by name: what ``ChangeRequest.change`` may hold (`register` fills it)
KINDS: dict[str, Kind] = {}
#: the longest kind name ``ChangeRequest.change`` holds
MAX_NAME = 16


def register(new: Kind) -> Kind:
    """Add a kind (its feature module calls this when imported); returns it."""
    if new.name in KINDS and KINDS[new.name] is not new:
        raise ValueError(f"two change kinds named {new.name}")
    if not 1 <= len(new.name) <= MAX_NAME:
        raise ValueError(f"a change kind's name has 1 to {MAX_NAME} characters: {new.name}")
    KINDS[new.name] = new
    return new


def kind(name: str) -> Kind:
    """The kind named `name` (a stored request's ``change``)."""
    return KINDS[name]


def choices() -> list[tuple[str, Any]]:
    """``ChangeRequest.change``'s choices: every kind's name and label."""
    return [(k.name, k.label) for k in KINDS.values()]
