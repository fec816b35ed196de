"""``restart``: R28: start the current round again with its deal, its engine search and the
totals from earlier rounds (``version``, ``request_id``). The feature whole: its consent
kind (asked of the others at a shared table, games.consent), its service (`round_restart`)
and what an accepted request does (`consent_restart`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from engine import rules
from engine.state import RoundState
from games import consent, log, permissions
from games.commands import Spec
from games.commands.fields import REQUEST_ID, VERSION
from games.errors import ILLEGAL, GameError
from games.models import Match, Round
from games.services.asking import _ask
from games.services.store import (
    Result,
    _append,
    _commit,
    _current_round,
    _fresh,
    _lock,
    _seats,
    _seen,
    _started,
    _store,
)
from games.table.commands.undo import _round_over_error
from games.words import refusal

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command

# ---------------------------------------------------------------- its words

#: what restarting the round says to players, by key (a feature's words live in its module)
WORDS: dict[str, Promise] = {
    "label": _("Restart round"),
    "log_line": _("%(name)s restarted the round with the same deal"),
    "log_line_mine": _("You restarted the round with the same deal"),
    # who may
    "may": _("Only the match's creator can restart the round."),
    # asked of the others at a shared table: the banners, the log's lines, the answer
    "mine": _("You asked to restart the round."),
    "theirs": _("%(name)s asks to restart the round."),
    "log_ask": _("%(name)s asks to restart the round"),
    "log_accept": _("%(name)s accepted the restart"),
    "log_decline": _("%(name)s declined the restart"),
    "log_expire": _("Nobody answered the restart request in time"),
    "log_void": _("The restart request is no longer possible"),
    "declined": _("%(name)s declined your request to restart the round."),
    "expired": _("Nobody answered your request to restart the round in time."),
}


def log_line(line: log.Line) -> str:
    """R28: its line in the round's log: who restarted the round."""
    return line.said(WORDS)


#: its entry in the round's log (the fold starts the round's actions again: games.log)
LOG = log.register(log.Kind(log.RESTART, WORDS["label"], log_line))

#: who may restart (R28): the match's creator, or a player alone with computers and their
#: own pass-and-play seats
MAY = permissions.rule(
    "restart",
    lambda can, seat, request: can.owner or can.alone,
    lambda: str(WORDS["may"]),
)


def _match_over_error() -> GameError:
    return GameError(ILLEGAL, refusal("match_over"), rule="R22", reason="match_over")


def round_restart(*, match_id: int, user: object, expected_version: int, request_id: str) -> Result:
    """R28: start the current round again with its deal, its engine search and the totals
    from earlier rounds. For the match's creator, or a player when every other seat is a
    computer or one of their own (games.permissions). At a table shared with other
    people it is asked of them first (`change_answer` does it once they all accept)."""
    with transaction.atomic():
        match = _lock(match_id)
        seats = _seats(match)
        permissions.require(user, MAY, match, seats=seats)
        seen = _seen(match, user, request_id)
        if seen is not None:
            return seen
        _fresh(match, expected_version)
        state = _restartable(match)
        rnd = _current_round(match)
        if permissions.needs_consent(match, user, seats=seats):
            return _ask(match, rnd, user, "restart", request_id)
        version = match.version + 1
        _restart(match, rnd, state, version, user)
        return _commit(match, version, user=user, request_id=request_id)


def _restartable(match: Match) -> RoundState:
    state = _started(match)
    if state.phase == "match_over":
        raise _match_over_error()
    if state.over:
        raise _round_over_error()
    return state


def _restart(match: Match, rnd: Round, state: RoundState, version: int, user: object) -> None:
    _append(rnd, kind=LOG.name, version=version, user=user)
    rnd.restarts += 1
    rnd.save(update_fields=["restarts"])
    _store(match, rnd, rules.restart_round(state))


def consent_restart(p: consent.Pending) -> None:
    """What an accepted restart request does (the consent kind "restart"): R28 for the asker."""
    _restart(p.match, p.round, _restartable(p.match), p.version, p.asker)


#: asked of the others at a shared table (games.consent)
KIND = consent.register(
    consent.Kind(
        name="restart",
        label=WORDS["label"],
        **consent.words_of(WORDS),
        done=consent_restart,
    )
)


async def handle(t: Connection, c: Command) -> None:
    result = await t.call(
        round_restart,
        match_id=t.match_id,
        user=t.user,
        expected_version=c.version,
        request_id=c.request_id,
    )
    await t.ack(c, result)


command = Spec(
    "restart",
    (VERSION, REQUEST_ID),
    handle,
    says="restart the round with its deal (R28; consent at a shared table)",
)
