"""R26: opening the rules or the match log pauses the computer players. A pause is one per
connection (`pause_open`, renewed by the page while the panel is open; `pause_close`) and
counts until `PAUSE_TIMEOUT` (games.reads.selectors) passes without a renewal; `pauses_expire`,
from the computer worker, deletes the rest and tells each table whose computers may play
again. `computer_step` (games.services.moves) reads whether a pause is on.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import notify, permissions
from games.errors import BAD_REQUEST, GameError
from games.models import Pause
from games.reads.selectors import PAUSE_TIMEOUT
from games.reads.selectors import paused as _pause_active
from games.services.store import _lock, _seats
from games.words import sentence

#: who may pause the computers (R26): a player of the match, for as long as the rules or the
#: log are open on their page (the ``panel`` command); spectators read them without pausing
MAY_PAUSE = permissions.rule(
    "pause",
    lambda can, seat, request: bool(can.mine),
    lambda: sentence("players_pause"),
)


def pause_open(*, match_id: int, user: Any, channel: str) -> bool:
    """R26: a player opened the rules or the log: computer players wait. Saying so again
    renews the pause (the page does every `PAUSE_RENEW` while the panel is open; a pause
    not renewed within `PAUSE_TIMEOUT` has expired). True when this started the pause."""
    if not isinstance(channel, str) or not 1 <= len(channel) <= 200:
        raise GameError(BAD_REQUEST, sentence("pause_connection"))
    now = timezone.now()
    user_pk = getattr(user, "pk", None)
    if user_pk is not None and Pause.objects.filter(
        match_id=match_id,
        channel=channel,
        user_id=user_pk,
        alive_at__gte=now - PAUSE_TIMEOUT,
    ).update(alive_at=now):
        return False  # a renewal of this connection's live pause: no lock, no notice
    with transaction.atomic():
        match = _lock(match_id)
        permissions.require(user, MAY_PAUSE, match, seats=_seats(match))
        was_paused = _pause_active(match)
        Pause.objects.filter(match=match, channel=channel).delete()
        Pause.objects.create(match=match, channel=channel, user=user)
        if not was_paused:
            match_pk = match.pk
            transaction.on_commit(lambda: notify.match_paused(match_pk, True))
        return not was_paused


def pause_close(*, match_id: int, channel: str) -> bool:
    """R26: the panel (or the connection) closed. True when the computers may play again."""
    with transaction.atomic():
        match = _lock(match_id)
        deleted, _rows = Pause.objects.filter(match=match, channel=channel).delete()
        if deleted and not _pause_active(match):
            match_pk = match.pk
            transaction.on_commit(lambda: notify.match_paused(match_pk, False))
            return True
        return False


def pauses_expire(*, everything: bool = False) -> list[int]:
    """Delete the pauses that no longer count (R26: not renewed within `PAUSE_TIMEOUT`;
    with `everything`, all of them: a single server process starting up holds no
    connection yet) and tell each table whose computers may play again. The computer
    worker calls this at start-up and now and then. The ids of the matches resumed."""
    with transaction.atomic():
        stale = (
            Pause.objects.all()
            if everything
            else Pause.objects.filter(alive_at__lt=timezone.now() - PAUSE_TIMEOUT)
        )
        matches = set(stale.values_list("match_id", flat=True))
        if not matches:
            return []
        stale.filter(match_id__in=matches).delete()
        live = set(
            Pause.objects.filter(
                match_id__in=matches, alive_at__gte=timezone.now() - PAUSE_TIMEOUT
            ).values_list("match_id", flat=True)
        )
        resumed = sorted(matches - live)
        for pk in resumed:
            transaction.on_commit(partial(notify.match_paused, pk, False))
        return resumed
