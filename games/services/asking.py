"""Asking the others at the table (games.consent's kinds of change): a change that needs
their consent opens a request, one at a time per match, logged in the round (`_ask`, for
the services of undo and restart and through `asked_or_done` for the others);
`change_answer` accepts or declines it and, once every other person accepted, makes the
change for the asker (its kind's `done`), or closes it as void when it can no longer be
made. A request nobody answered within `REQUEST_LIFETIME` expires (`requests_expire`, from
the computer worker). Serves R27, R28 and R32 at a table shared with other people.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from engine.state import RoundState
from games import consent, log, permissions
from games.errors import NO_REQUEST, REQUEST_OPEN, GameError
from games.log.words import consent_line
from games.models import ChangeRequest, Match, Round
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
)
from games.words import sentence

#: how long an undo or restart request waits for the others' answers
REQUEST_LIFETIME = timedelta(minutes=1)

#: a request's steps in the round's log (``{"change": <a consent kind>, "step": …}``, one of
#: games.consent.STEPS); the fold leaves the actions as they are
LOG = log.register(log.Kind("consent", _("Request"), consent_line))

#: who may accept or decline an open request (the ``accept`` and ``decline`` commands): a
#: person at the table; asked with the request, not the one who asked it (a request of one's
#: own is the others' to answer)
MAY_ANSWER = permissions.rule(
    "answer",
    lambda can, seat, request: can.person and (request is None or request.asked_by_id != can.uid),
    lambda: sentence("players_only"),
)


def _open_request(match: Match, rnd: Round | None = None) -> ChangeRequest | None:
    """The match's open request; one past its minute is closed as expired here (and logged
    in its round, when `rnd` is that round)."""
    ask = ChangeRequest.objects.filter(match=match, status=ChangeRequest.Status.OPEN).first()
    if ask is not None and ask.expires_at <= timezone.now():
        _close(match, ask, ChangeRequest.Status.EXPIRED, "expire", rnd, version=match.version)
        return None
    return ask


def requests_expire() -> list[int]:
    """Close every open request past its minute now, not when the table is next asked
    something: each with a new version and its "expire" line in the round's log, so
    every board watching drops its Accept and Decline and says that nobody answered in
    time. The computer worker calls this every `games.worker.REQUESTS_EVERY` seconds
    (`_open_request` still closes one it meets first). The ids of the matches."""
    due = ChangeRequest.objects.filter(
        status=ChangeRequest.Status.OPEN, expires_at__lte=timezone.now()
    )
    closed = []
    for match_id in due.values_list("match_id", flat=True):
        with transaction.atomic():
            match = _lock(match_id)
            ask = ChangeRequest.objects.filter(
                match=match, status=ChangeRequest.Status.OPEN, expires_at__lte=timezone.now()
            ).first()
            if ask is None:  # answered meanwhile
                continue
            try:
                rnd: Round | None = _current_round(match)
            except Round.DoesNotExist:
                rnd = None
            version = match.version + 1
            _close(match, ask, ChangeRequest.Status.EXPIRED, "expire", rnd, version=version)
            _commit(match, version)
            closed.append(match.pk)
    return closed


def _close(
    match: Match,
    ask: ChangeRequest,
    status: str,
    step: str,
    rnd: Round | None,
    *,
    version: int,
    user: object = None,
) -> None:
    ask.status = status
    ask.closed_at = timezone.now()
    ask.save(update_fields=["status", "closed_at"])
    if rnd is not None and rnd.number == ask.round_number:
        _append(
            rnd,
            kind=LOG.name,
            version=version,
            action={"change": ask.change, "step": step},
            user=user,
        )


def _ask(
    match: Match, rnd: Round, user: Any, change: str, request_id: str, value: str = ""
) -> Result:
    """Open a request for `change` (a games.consent kind; `value`: what it sets, for a kind that
    carries one) — one at a time per match —, logged in the round."""
    if _open_request(match, rnd) is not None:
        raise GameError(REQUEST_OPEN, sentence("request_waiting"))
    version = match.version + 1
    ChangeRequest.objects.create(
        match=match,
        change=consent.kind(change).name,
        value=value,
        asked_by=user,
        request_id=request_id,
        round_number=rnd.number,
        version=match.version,
        expires_at=timezone.now() + REQUEST_LIFETIME,
    )
    _append(
        rnd, kind=LOG.name, version=version, action={"change": change, "step": "ask"}, user=user
    )
    result = _commit(match, version, user=user, request_id=request_id)
    return Result(
        result.match_id, result.version, asked=True, request=str(ChangeRequest.Status.OPEN)
    )


def asked_or_done(
    *,
    match_id: int,
    user: object,
    request_id: str,
    action: permissions.Rule,
    change: str,
    check: Callable[[Match, RoundState], None],
    make: Callable[[consent.Pending], None],
    value: str = "",
    expected_version: int | None = None,
) -> Result:
    """A change of games.consent kind `change` by `user` (allowed `action`, games.permissions).
    ``check(match, state)`` refuses it with a GameError while it could not be made; then at a
    table shared with other people it is asked of them (`_ask`; `value`: what it sets), and
    alone (with computers, or one's own pass-and-play seats) ``make(pending)`` makes it at
    once (the kind's ``done`` makes it on acceptance: `change_answer`)."""
    with transaction.atomic():
        match = _lock(match_id)
        seats = _seats(match)
        permissions.require(user, action, match, seats=seats)
        seen = _seen(match, user, request_id)
        if seen is not None:
            return seen
        if expected_version is not None:
            _fresh(match, expected_version)
        state = _started(match)
        check(match, state)
        rnd = _current_round(match)
        if permissions.needs_consent(match, user, seats=seats):
            return _ask(match, rnd, user, change, request_id, value)
        version = match.version + 1
        make(
            consent.Pending(
                match=match,
                round=rnd,
                state=state,
                version=version,
                asker=user,
                request=None,
                seats=seats,
            )
        )
        return _commit(match, version, user=user, request_id=request_id)


def change_answer(
    *, match_id: int, user: object, ask: object, accept: bool, request_id: str
) -> Result:
    """Accept or decline the open request `ask` (its id, as the board showed it; its kind is a
    games.consent `Kind`). One decline closes it (the asker is told who declined); once every
    other person accepted, the kind's change is made for the asker, if it still can be (else
    the request closes as void). A request past its minute cannot be answered."""
    with transaction.atomic():
        match = _lock(match_id)
        seats = _seats(match)
        permissions.require(user, MAY_ANSWER, match, seats=seats)
        seen = _seen(match, user, request_id)
        if seen is not None:
            return seen
        state = _started(match)
        rnd = _current_round(match)
        current = _open_request(match, rnd)
        if (
            isinstance(ask, bool)
            or not isinstance(ask, int)
            or current is None
            or current.pk != ask
        ):
            raise GameError(NO_REQUEST, sentence("request_closed"))
        permissions.require(user, MAY_ANSWER, match, seats=seats, request=current)
        uid = permissions.user_id(user)
        version = match.version + 1
        if not accept:
            current.declined_by_id = uid
            current.save(update_fields=["declined_by"])
            _close(
                match,
                current,
                ChangeRequest.Status.DECLINED,
                "decline",
                rnd,
                version=version,
                user=user,
            )
            return _commit(match, version, user=user, request_id=request_id)
        current.accepted = sorted({*current.accepted, uid})
        current.save(update_fields=["accepted"])
        if permissions.others(match, current.asked_by, seats=seats) - set(current.accepted):
            _append(
                rnd,
                kind=LOG.name,
                version=version,
                action={"change": current.change, "step": "accept"},
                user=user,
            )
            return _commit(match, version, user=user, request_id=request_id)
        pending = consent.Pending(
            match=match,
            round=rnd,
            state=state,
            version=version,
            asker=current.asked_by,
            request=current,
            seats=seats,
        )
        kept = (rnd.last_seq, match.state, match.status, match.finished_at, match.round_number)
        try:  # still possible? (another person played since, the round or the match ended: void)
            if current.round_number != rnd.number or match.status != Match.Status.PLAYING:
                raise GameError(NO_REQUEST, sentence("request_closed"))
            with transaction.atomic():  # a change refused half-way leaves nothing behind
                _close(
                    match,
                    current,
                    ChangeRequest.Status.DONE,
                    "accept",
                    rnd,
                    version=version,
                    user=user,
                )
                consent.kind(current.change).accept(pending)
        except GameError:
            rnd.last_seq, match.state, match.status, match.finished_at, match.round_number = kept
            current.refresh_from_db()
            _close(
                match, current, ChangeRequest.Status.VOID, "void", rnd, version=version, user=user
            )
        return _commit(match, version, user=user, request_id=request_id)
