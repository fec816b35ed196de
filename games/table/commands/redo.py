"""``redo``: R27: restore exactly what the last Undo took back, while nothing new was played
(``version``, ``request_id``): its service, `match_redo`, with Undo's checks (undo.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from engine import rules
from engine.replay import parse_action
from games import log
from games.commands import Spec
from games.commands.fields import REQUEST_ID, VERSION
from games.errors import NO_REDO, GameError
from games.models import LogEntry
from games.services.store import Result, _append, _commit, _lock, _started, _store
from games.table.commands.undo import _may_undo

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command

#: what redoing says to players, by key (a feature's words live in its module)
WORDS: dict[str, Promise] = {
    "label": _("Redo"),
    "log_line": _("%(name)s restored what was taken back (redo)"),
    "log_line_mine": _("You restored what was taken back (redo)"),
    "nothing_to_redo": _("There is nothing to redo."),
}


def log_line(line: log.Line) -> str:
    """R27: its line in the round's log: who restored what was taken back."""
    return line.said(WORDS)


#: its entry in the round's log (the fold restores the group undone last: games.log)
LOG = log.register(log.Kind(log.REDO, WORDS["label"], log_line))


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
            raise GameError(NO_REDO, str(WORDS["nothing_to_redo"]))
        group = folded.redo[-1]
        state = _started(match)
        for entry in group:  # the same actions again, from the state they were undone to
            state = rules.apply(state, parse_action(entry.action))
        version = match.version + 1
        _append(rnd, kind=LOG.name, version=version, action={"count": len(group)}, user=user)
        _store(match, rnd, state)
        return _commit(match, version, user=user, request_id=request_id)


async def handle(t: Connection, c: Command) -> None:
    result = await t.call(
        match_redo,
        match_id=t.match_id,
        user=t.user,
        expected_version=c.version,
        request_id=c.request_id,
    )
    await t.ack(c, result)


command = Spec(
    "redo", (VERSION, REQUEST_ID), handle, says="replay what the last undo took back (R27)"
)
