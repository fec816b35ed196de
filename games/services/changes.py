"""Taking back and starting again: Undo and Redo (R27: `match_undo`, `match_redo`) and a
round's restart (R28: `round_restart`, the same deal and engine search, the earlier rounds'
totals). Alone at the table (with computers, or one's own pass-and-play seats) they are
made at once; at a table shared with other people they are asked of the others first
(games.services.asking) and made for the asker once all accept: `consent_undo` and
`consent_restart` are the `done` of games.consent's UNDO and RESTART. An agreed last round
(R32) stands through an undo.
"""

from __future__ import annotations

from dataclasses import replace

from django.db import transaction

from engine import rules
from engine.replay import parse_action
from engine.serialize import state_from_json
from engine.state import RoundState
from games import consent, log, permissions
from games.errors import ILLEGAL, NO_REDO, NO_UNDO, GameError
from games.models import LogEntry, Match, Round, UndoPoint
from games.permissions import Action as Can
from games.selectors import round_over
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
from games.words import refusal, sentence


def _round_over_error() -> GameError:
    return GameError(ILLEGAL, refusal("round_over"), rule="R20", reason="round_over")


def _match_over_error() -> GameError:
    return GameError(ILLEGAL, refusal("match_over"), rule="R22", reason="match_over")


def _may_undo(
    match: Match, user: object, request_id: object, expected_version: object, empty: str
) -> tuple[Result | None, list[int], Round | None]:
    """The checks Undo and Redo share; the seats the user controls and the current round."""
    seats = _seats(match)
    permissions.require(user, Can.UNDO, match, seats=seats)
    mine = permissions.seats_controlled(match, user, seats=seats)
    seen = _seen(match, user, request_id)
    if seen is not None:
        return seen, mine, None
    _fresh(match, expected_version)
    _started(match)
    if match.status == Match.Status.FINISHED:
        raise GameError(empty, refusal("match_over"))
    if round_over(match):
        # R27 within a round only: once it is over every hand has been shown (R21, R24).
        raise GameError(empty, sentence("hands_shown"))
    return None, mine, _current_round(match)


def match_undo(*, match_id: int, user: object, expected_version: int, request_id: str) -> Result:
    """R27: take back the user's last action with every computer action that answered it.

    Only within the current round, and only when nobody else has acted since. The
    state comes back from the undo point of that action (no replay). At a table shared
    with other people it is asked of them first (`change_answer` does it once they all
    accept)."""
    with transaction.atomic():
        match = _lock(match_id)
        seen, mine, rnd = _may_undo(match, user, request_id, expected_version, NO_UNDO)
        if seen is not None:
            return seen
        assert rnd is not None
        found = _undo_count(
            rnd, mine
        )  # something to take back, or no_undo before anything is asked
        if permissions.needs_consent(match, user):
            return _ask(match, rnd, user, "undo", request_id)
        version = match.version + 1
        _undo(match, rnd, version, user, found)
        return _commit(match, version, user=user, request_id=request_id)


def _undo_count(rnd: Round, mine: list[int]) -> tuple[log.Folded[LogEntry], int]:
    folded = log.fold(LogEntry.objects.filter(round=rnd).order_by("seq"))
    count = log.undo_group(folded.effective, mine)
    if count is None:
        raise GameError(NO_UNDO, sentence("nothing_to_undo"))
    return folded, count


def _undo(
    match: Match, rnd: Round, version: int, user: object, found: tuple[log.Folded[LogEntry], int]
) -> None:
    """Take back `found` (`_undo_count`): the state before it comes from its undo point."""
    folded, count = found
    target = folded.effective[-count]
    before = state_from_json(UndoPoint.objects.get(entry=target).state)
    if match.state and match.state["start"].get("final") and not before.start.final:
        before = before._replace(
            start=replace(before.start, final=True)
        )  # R32 stands through an undo
    _append(rnd, kind=log.UNDO, version=version, action={"count": count}, user=user)
    _store(match, rnd, before)


def match_redo(*, match_id: int, user: object, expected_version: int, request_id: str) -> Result:
    """R27: restore exactly what the last Undo took back, while nothing new was played."""
    with transaction.atomic():
        match = _lock(match_id)
        seen, mine, rnd = _may_undo(match, user, request_id, expected_version, NO_REDO)
        if seen is not None:
            return seen
        assert rnd is not None
        folded = log.fold(LogEntry.objects.filter(round=rnd).order_by("seq"))
        if not folded.redo or folded.redo[-1][0].seat not in mine:
            raise GameError(NO_REDO, sentence("nothing_to_redo"))
        group = folded.redo[-1]
        state = _started(match)
        for entry in group:  # the same actions again, from the state they were undone to
            state = rules.apply(state, parse_action(entry.action))
        version = match.version + 1
        _append(rnd, kind=log.REDO, version=version, action={"count": len(group)}, user=user)
        _store(match, rnd, state)
        return _commit(match, version, user=user, request_id=request_id)


def round_restart(*, match_id: int, user: object, expected_version: int, request_id: str) -> Result:
    """R28: start the current round again with its deal, its engine search and the totals
    from earlier rounds. For the match's creator, or a player when every other seat is a
    computer or one of their own (games.permissions). At a table shared with other
    people it is asked of them first (`change_answer` does it once they all accept)."""
    with transaction.atomic():
        match = _lock(match_id)
        seats = _seats(match)
        permissions.require(user, Can.RESTART, match, seats=seats)
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
    _append(rnd, kind=log.RESTART, version=version, user=user)
    rnd.restarts += 1
    rnd.save(update_fields=["restarts"])
    _store(match, rnd, rules.restart_round(state))


def consent_undo(p: consent.Pending) -> None:
    """What an accepted undo request does (the consent kind "undo"): R27 for the asker."""
    if round_over(p.match):
        raise _round_over_error()
    mine = permissions.seats_controlled(p.match, p.asker, seats=p.seats)
    _undo(p.match, p.round, p.version, p.asker, _undo_count(p.round, mine))


def consent_restart(p: consent.Pending) -> None:
    """What an accepted restart request does (the consent kind "restart"): R28 for the asker."""
    _restart(p.match, p.round, _restartable(p.match), p.version, p.asker)
