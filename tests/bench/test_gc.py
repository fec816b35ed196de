"""An action leaves no cyclic garbage ("No pauses"): what the service and the
boards after it make is freed by reference counting alone, so the server's cycle
collector has nothing to find and its collections stay short (bench/load.py logs them).

After a warm-up (templates compiled, catalogues and caches filled), each action —
`services.action_submit`, then every seat's and a spectator's board as the table's
websocket builds them, from a fresh read and from the reads the table shares — is run
with the collector off and followed by ``gc.collect()``, which must find nothing
unreachable. What it found is named by type in the failure.
"""

from __future__ import annotations

import gc
import uuid
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import translation

from bench.consumers import table_consumer
from engine.rules import legal_actions
from engine.serialize import state_from_json
from games import services
from games.models import Match
from games.services import SeatSpec
from games.table import board_reads
from games.table.consumers import TableConsumer
from tests import seeded

pytestmark = pytest.mark.django_db

SEATS = 4


@pytest.fixture(autouse=True)
def _collector_restored() -> Iterator[None]:
    board_reads.forget()
    enabled = gc.isenabled()
    yield
    gc.set_debug(0)
    gc.garbage.clear()
    if enabled:
        gc.enable()
    board_reads.forget()


def step(match_id: int, users: list[Any], viewers: list[TableConsumer]) -> None:
    """One action by the seat to act (next round first when a round is over), then the boards."""
    row = Match.objects.get(pk=match_id)
    state = state_from_json(row.state)
    if state.phase == "round_over":
        services.round_next(
            match_id=match_id,
            user=users[0],
            expected_version=row.version,
            request_id=uuid.uuid4().hex,
        )
        row = Match.objects.get(pk=match_id)
        state = state_from_json(row.state)
    action = legal_actions(state)[0]
    assert action.seat is not None
    result = services.action_submit(
        match_id=match_id,
        user=users[action.seat],
        seat=action.seat,
        action=action.to_json(),
        expected_version=row.version,
        request_id=uuid.uuid4().hex,
    )
    first, *others = viewers
    assert first.board_message() is not None  # a fresh read, as after a connect or a sync
    for viewer in others:  # the reads of this version, shared, as after the notice
        assert viewer.board_message(at_least=result.version) is not None


def unreachable_after(
    match_id: int, users: list[Any], viewers: list[TableConsumer]
) -> Counter[str]:
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)  # keep what a collection finds, to name it
    try:
        step(match_id, users, viewers)
        gc.collect()
        import os

        if os.environ.get("GC_NAMES"):
            print([getattr(o, "__qualname__", None) for o in gc.garbage if callable(o)])
        return Counter(type(o).__name__ for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


def test_an_action_and_its_boards_leave_no_cyclic_garbage(django_user_model: Any) -> None:
    users = [django_user_model.objects.create_user(f"cycles{i}") for i in range(SEATS)]
    match = seeded.match_create(
        creator=users[0],
        seed=11,
        listed=False,
        seats=[SeatSpec("me")] + [SeatSpec("human")] * (SEATS - 1),
    )
    for user in users[1:]:
        services.seat_join(match_id=match.pk, user=user, token=match.invite_token)
    viewers = [table_consumer(match.pk, u) for u in users] + [
        table_consumer(match.pk, AnonymousUser())
    ]
    gc.disable()
    with translation.override("en"):
        for _ in range(20):  # warm-up: first renders, caches
            step(match.pk, users, viewers)
        found = [unreachable_after(match.pk, users, viewers) for _ in range(30)]
    assert all(not f for f in found), [dict(f.most_common(8)) for f in found if f][:3]
