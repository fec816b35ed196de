"""The database statements of a version's pass (games.table.hub `Hub._told`): the table's
facts are read once per version (games.table.facts), before any board is made, so the
statements do not grow with the table's connections, their seats or their languages, and
no statement is made while a connection's board is made."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection

from bench.consumers import table_consumer
from engine.rules import legal_actions
from games import notify, services
from games.models import Match
from games.table import board, hub
from tests import seeded
from tests.realtime.conftest import db, spec, state_of

pytestmark = pytest.mark.django_db(transaction=True)

#: who looks, in the order connections are added: three seated people in three languages,
#: spectators signed in and not, in the languages again
LOOKERS = [(0, "en"), (1, "es"), (2, "de"), (None, "en"), (None, "es"), ("anon", "de")]


@contextmanager
def statements(rendering: list[bool]) -> Iterator[list[str]]:
    """The statements run within; those run while `rendering[0]` is set are marked."""
    seen: list[str] = []

    def check(execute: Callable[..., Any], sql: str, *args: Any) -> Any:
        seen.append(("while a board was made: " if rendering[0] else "") + sql)
        return execute(sql, *args)

    with connection.execute_wrapper(check):
        yield seen


def pass_counted(
    h: hub.Hub, notice: dict[str, Any], rendering: list[bool]
) -> tuple[list[Any], list[str]]:
    """The hub's pass for `notice` (in the database thread whose statements are counted)."""
    with statements(rendering) as seen:
        out = h._told(notice)
    return out, seen


def table(users: list[Any]) -> Match:
    """Three people and a computer, a few moves into the first round."""
    match = seeded.match_create(
        creator=users[0],
        seats=[spec("me"), spec("human"), spec("human"), spec("computer")],
        seed=11,
    )
    for user in users[1:3]:
        services.seat_join(match_id=match.pk, user=user, token=match.invite_token)
    return Match.objects.get(pk=match.pk)


def move(match_id: int, users: list[Any]) -> None:
    """The next move at the table: the computer's, or the first legal one of the seat on turn."""
    row = Match.objects.get(pk=match_id)
    action = legal_actions(state_of(match_id))[0]
    if action.seat == 3:
        services.computer_step(match_id=match_id)
        return
    assert action.seat is not None
    services.action_submit(
        match_id=match_id,
        user=users[action.seat],
        seat=action.seat,
        action=action.to_json(),
        expected_version=row.version,
        request_id=uuid.uuid4().hex,
    )


@pytest.mark.asyncio
async def test_a_versions_pass_makes_as_many_statements_for_six_connections_as_for_one(
    alice: Any, bob: Any, carol: Any, django_user_model: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    users = [alice, bob, carol]
    watcher = await db(lambda: django_user_model.objects.create_user("watcher"))
    match = await db(table, users)
    told: list[dict[str, Any]] = []
    monkeypatch.setattr(notify, "hub_sink", lambda match_id, message: told.append(message))

    rendering = [False]
    making = board.match_page

    def made(**kwargs: Any) -> Any:
        rendering[0] = True
        try:
            return making(**kwargs)
        finally:
            rendering[0] = False

    monkeypatch.setattr(board, "match_page", made)

    # Two processes' hubs of the table (two stations, each told of every version, as the
    # layer would): one with a single connection, one with every looker.
    hubs = {}
    for size in (1, len(LOOKERS)):
        station = hub.Station()
        for who, language in LOOKERS[:size]:
            user = (
                users[who]
                if isinstance(who, int)
                else (watcher if who is None else AnonymousUser())
            )
            conn = table_consumer(match.pk, user, language=language)
            h = await station.join(conn)
            conn.hub = h
            await h.board(conn, whole=True)
        hubs[size] = station.hubs[match.pk]

    counts: dict[int, list[int]] = {size: [] for size in hubs}

    async def tell(notice: dict[str, Any]) -> None:
        for size, h in hubs.items():
            out, seen = await db(pass_counted, h, notice, rendering)
            assert out and not [error for _conn, _frame, _key, error, _job in out if error]
            assert not [sql for sql in seen if sql.startswith("while")], seen
            counts[size].append(len(seen))

    for _ in range(4):  # versions derived from their notices
        told.clear()
        await db(move, match.pk, users)
        for notice in told:
            await tell(notice)
    await tell({"type": "match.seats", "match": match.pk})  # a seat's dot: read afresh
    assert all(h.derived >= 4 and h.read >= 1 for h in hubs.values())
    assert counts[1] == counts[len(LOOKERS)], counts
    assert max(counts[1]) <= 8, counts  # a fresh read and the facts at most
    for h in hubs.values():
        await h.close()
