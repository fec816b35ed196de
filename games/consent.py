"""Consent: the changes one person asks of the others at a shared table, as a registry.

At a table with more than one person (games.permissions.needs_consent) some changes are
not made at once but asked of the others (`games.models.ChangeRequest`): every other
person must accept, one decline closes the request, a minute passing expires it
(games.services.asking: `asked_or_done`, `change_answer`). Each *kind* of such change is
one `Kind` here, with

- its name (stored in ``ChangeRequest.change``; the model's choices come from `KINDS`),
- its words: the label, the banner line for the asker and for the others, the log lines
  of each step, and the message the asker reads when it is declined or expires,
- what accepting does: ``done``, the dotted path of a function
  ``done(pending: Pending) -> None`` that checks the change can still be made (raising a
  `GameError` makes the request close as void, changing nothing) and makes it.

The kinds: ``undo`` (R27), ``restart`` (R28), ``last_round`` (R32: end the match after this
round) and ``away_limit`` (how long a seat may stay away before a computer may
play it; the request carries the new limit in ``ChangeRequest.value``).

A stand-in (a computer playing an away person's seat, games.standin) never carries
consent for the seat it plays: its owner is still asked (games.permissions.people).

To add a kind: one `Kind` in `KINDS` (and a migration: the model's choices and its check
constraint list the names), its ``done`` function, and its words in the catalogues.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

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
    #: "games.services.changes.consent_undo": ``done(pending)`` checks and makes the change
    done: str

    def accept(self, pending: Pending) -> None:
        """Make the accepted change (or raise a `GameError`: it is no longer possible)."""
        import_string(self.done)(pending)

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


UNDO = Kind(
    name="undo",
    label=_("Undo"),
    mine=_("You asked to take back your last move."),
    theirs=_("%(name)s asks to take back their last move."),
    log_ask=_("%(name)s asks to take back their last move (undo)"),
    log_accept=_("%(name)s accepted the undo"),
    log_decline=_("%(name)s declined the undo"),
    log_expire=_("Nobody answered the undo request in time"),
    log_void=_("The undo request is no longer possible"),
    declined=_("%(name)s declined your request to take back your last move."),
    expired=_("Nobody answered your request to take back your last move in time."),
    done="games.services.changes.consent_undo",
)
RESTART = Kind(
    name="restart",
    label=_("Restart round"),
    mine=_("You asked to restart the round."),
    theirs=_("%(name)s asks to restart the round."),
    log_ask=_("%(name)s asks to restart the round"),
    log_accept=_("%(name)s accepted the restart"),
    log_decline=_("%(name)s declined the restart"),
    log_expire=_("Nobody answered the restart request in time"),
    log_void=_("The restart request is no longer possible"),
    declined=_("%(name)s declined your request to restart the round."),
    expired=_("Nobody answered your request to restart the round in time."),
    done="games.services.changes.consent_restart",
)
LAST_ROUND = Kind(
    name="last_round",
    label=pgettext_lazy("a change asked of the others", "End after this round"),
    mine=_("You asked to end the match after this round."),
    theirs=_("%(name)s asks to end the match after this round."),
    log_ask=_("%(name)s asks to end the match after this round"),
    log_accept=_("%(name)s accepted ending the match after this round"),
    log_decline=_("%(name)s declined ending the match after this round"),
    log_expire=_("Nobody answered the request to end the match after this round in time"),
    log_void=_("The request to end the match after this round is no longer possible"),
    declined=_("%(name)s declined your request to end the match after this round."),
    expired=_("Nobody answered your request to end the match after this round in time."),
    done="games.table.commands.last_round.consent_done",
)
AWAY_LIMIT = Kind(
    name="away_limit",
    label=_("Away limit"),
    mine=_("You asked to change how long a seat may stay away."),
    theirs=_("%(name)s asks to change how long a seat may stay away."),
    log_ask=_("%(name)s asks to change how long a seat may stay away"),
    log_accept=_("%(name)s accepted the new away limit"),
    log_decline=_("%(name)s declined the new away limit"),
    log_expire=_("Nobody answered the request to change the away limit in time"),
    log_void=_("The request to change the away limit is no longer possible"),
    declined=_("%(name)s declined your request to change how long a seat may stay away."),
    expired=_("Nobody answered your request to change how long a seat may stay away in time."),
    done="games.standin.consent_away_limit",
)

#: every kind by name: what ``ChangeRequest.change`` may hold
KINDS: dict[str, Kind] = {k.name: k for k in (UNDO, RESTART, LAST_ROUND, AWAY_LIMIT)}


def kind(name: str) -> Kind:
    """The kind named `name` (a stored request's ``change``)."""
    return KINDS[name]


def choices() -> list[tuple[str, Any]]:
    """``ChangeRequest.change``'s choices: every kind's name and label."""
    return [(k.name, k.label) for k in KINDS.values()]
