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
import weakref
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


def unreachable_from(work: Any) -> Counter[str]:
    """What the cycle collector finds after `work()`, by type (nothing: all freed by counting)."""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        work()
        gc.collect()
        return Counter(type(o).__name__ for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


def test_the_periodic_scans_and_a_connections_reads_leave_no_cyclic_garbage(
    django_user_model: Any,
) -> None:
    """The computers' loop scans every match being played every few seconds (pauses,
    presence, seats whose away limit passed), and every connection, chat message and match
    page reads its match with its seats: a match held by its prefetched seats, which refer
    back to it, would be a cycle carrying the whole snapshot, left to the cycle collector
    (at 150 tables, a full collection of them paused the server for over 200 ms)."""
    from datetime import timedelta

    from django.utils import timezone

    from games.attendance import standin
    from games.reads.seats import match_with_seats
    from games.worker.computers import ComputerWorker

    users = [django_user_model.objects.create_user(f"scans{i}") for i in range(SEATS)]
    match = seeded.match_create(
        creator=users[0],
        seed=12,
        listed=False,
        seats=[SeatSpec("me")] + [SeatSpec("human")] * (SEATS - 1),
    )
    for user in users[1:]:
        services.seat_join(match_id=match.pk, user=user, token=match.invite_token)
    assert Match.objects.get(pk=match.pk).status == Match.Status.PLAYING
    now = timezone.now()
    worker = ComputerWorker()
    gc.disable()
    for _ in range(2):  # the first run fills caches
        found = {
            "away scan": unreachable_from(
                lambda: standin.announce_due(since=now - timedelta(days=1), now=now)
            ),
            "computers' periodic work": unreachable_from(worker.expire_pauses),
            "requests' expiry": unreachable_from(worker.expire_requests),
            "a match with its seats": unreachable_from(lambda: match_with_seats(match.pk)),
        }
    assert {k: dict(v) for k, v in found.items() if v} == {}


def test_the_keeper_freezes_what_survived_and_frees_frozen_cycles_at_its_full_collection() -> None:
    """tablesite/heap.py: a tick freezes what survived (a full collection then has nothing of
    it to walk); a cycle that became garbage after it was frozen is freed at the next full
    collection, not never."""
    from tablesite.heap import Keeper

    class Node:
        pass

    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        keeper = Keeper(freeze_every=1.0, full_every=60.0)
        a, b = Node(), Node()
        a.other, b.other = b, a  # type: ignore[attr-defined]  # a cycle, alive for now
        alive = weakref.ref(a)
        before = gc.get_freeze_count()
        keeper.tick(now=keeper.full_at + 1)
        assert gc.get_freeze_count() >= before + 2
        assert not any(o is a for o in gc.get_objects())  # no collection walks it any more
        del a, b  # garbage now, but frozen: a collection does not find it
        gc.collect()
        assert alive() is not None
        keeper.tick(now=keeper.full_at + 61)  # the full collection, everything unfrozen
        assert keeper.fulls == 1
        assert alive() is None
    finally:
        gc.unfreeze()
        if enabled:
            gc.enable()
