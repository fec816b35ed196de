"""The database keeps the match data consistent by itself: constraints refuse bad rows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.log import UnknownKind
from games.models import ClientRequest, LogEntry, Match, Pause, Round, Seat, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(alice: Any) -> Table:
    return Table.objects.create(created_by=alice)


@pytest.fixture
def match(table: Table, alice: Any) -> Match:
    return Match.objects.create(
        table=table, seed=1, players=2, invite_token="inv", watch_token="watch", created_by=alice
    )


@pytest.fixture
def rnd(match: Match) -> Round:
    return Round.objects.create(match=match, number=1, start={})


def refused(make: Callable[[], object]) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        make()


def new_match(table: Table, user: Any, **fields: Any) -> Match:
    values: dict[str, Any] = {
        "table": table,
        "number": 2,
        "seed": 5,
        "players": 2,
        "invite_token": "i2",
        "watch_token": "w2",
        "created_by": user,
    }
    values.update(fields)
    return Match.objects.create(**values)


def test_a_valid_match_with_its_rows_is_accepted(
    match: Match, rnd: Round, alice: Any, bob: Any
) -> None:
    Seat.objects.create(match=match, index=0, kind="human", user=alice)
    Seat.objects.create(match=match, index=1, kind="human", user=bob)
    Seat.objects.create(match=match, index=2, kind="local", user=alice, name="Ana")
    Seat.objects.create(match=match, index=3, kind="computer", level="casual")
    entry = LogEntry.objects.create(
        round=rnd, seq=1, kind="action", seat=0, action={"act": "engine"}, version=1
    )
    LogEntry.objects.create(
        round=rnd, seq=2, kind="undo", action={"count": 1}, user=alice, version=2
    )
    ClientRequest.objects.create(match=match, request_id="r1", user=alice, version=1)
    Pause.objects.create(match=match, channel="c1", user=alice)
    assert str(entry) and str(match) and str(rnd)


@pytest.mark.parametrize(
    "fields",
    [
        {"players": 1},
        {"players": 11},
        {"round_number": 0},
        {"round_number": 14},
        {"seed": -1},
        {"status": "paused"},
        {"status": "playing"},  # started without a snapshot
        {"status": "finished", "state": {"x": 1}},  # finished without a time
        {"status": "playing", "state": {"x": 1}, "finished_at": timezone.now()},
        {"invite_token": ""},
    ],
)
def test_match_constraints(table: Table, alice: Any, fields: dict[str, Any]) -> None:
    refused(lambda: new_match(table, alice, **fields))


def test_match_numbers_unique_per_table_and_tokens_unique(
    match: Match, table: Table, alice: Any
) -> None:
    refused(lambda: new_match(table, alice, number=1))
    refused(lambda: new_match(table, alice, invite_token="inv"))
    refused(lambda: new_match(table, alice, watch_token="watch"))
    assert new_match(table, alice).number == 2


@pytest.mark.parametrize(
    "fields",
    [
        {"index": 10, "kind": "human"},
        {"index": 1, "kind": "computer", "level": ""},  # a computer needs a level
        {"index": 1, "kind": "computer", "level": "casual", "user": "alice"},
        {"index": 1, "kind": "human", "level": "expert"},
        {"index": 1, "kind": "local"},  # a pass-and-play seat belongs to the creator
        {"index": 1, "kind": "robot"},
    ],
)
def test_seat_constraints(match: Match, alice: Any, fields: dict[str, Any]) -> None:
    if fields.get("user") == "alice":
        fields = {**fields, "user": alice}
    refused(lambda: Seat.objects.create(match=match, **fields))


def test_seat_indexes_unique_and_one_player_seat_per_user(match: Match, alice: Any) -> None:
    Seat.objects.create(match=match, index=0, kind="human", user=alice)
    refused(lambda: Seat.objects.create(match=match, index=0, kind="computer", level="casual"))
    refused(lambda: Seat.objects.create(match=match, index=1, kind="human", user=alice))
    # pass-and-play seats of the same user are many
    Seat.objects.create(match=match, index=1, kind="local", user=alice)
    Seat.objects.create(match=match, index=2, kind="local", user=alice)


def test_round_constraints(match: Match, rnd: Round) -> None:
    refused(lambda: Round.objects.create(match=match, number=1, start={}))
    refused(lambda: Round.objects.create(match=match, number=0, start={}))
    refused(lambda: Round.objects.create(match=match, number=14, start={}))
    # R21: a result is complete or absent
    refused(lambda: Round.objects.create(match=match, number=2, start={}, ended_by="out"))
    refused(lambda: Round.objects.create(match=match, number=2, start={}, points=[1, 2]))
    refused(
        lambda: Round.objects.create(
            match=match,
            number=2,
            start={},
            ended_by="won",
            points=[1, 2],
            totals=[1, 2],
            ended_at=timezone.now(),
        )
    )
    Round.objects.create(
        match=match,
        number=2,
        start={},
        ended_by="blocked",
        points=[1, 2],
        totals=[3, 4],
        ended_at=timezone.now(),
    )


def test_log_constraints(rnd: Round, alice: Any) -> None:
    LogEntry.objects.create(
        round=rnd, seq=1, kind="action", seat=0, action={"act": "engine"}, version=1
    )
    log = LogEntry.objects
    refused(
        lambda: log.create(
            round=rnd, seq=1, kind="action", seat=0, action={"act": "pass"}, version=2
        )
    )
    refused(
        lambda: log.create(
            round=rnd, seq=0, kind="action", seat=0, action={"act": "pass"}, version=2
        )
    )
    refused(lambda: log.create(round=rnd, seq=2, kind="action", action={"act": "pass"}, version=2))
    refused(lambda: log.create(round=rnd, seq=2, kind="action", seat=0, version=2))
    refused(lambda: log.create(round=rnd, seq=2, kind="undo", action={}, version=2))
    refused(lambda: log.create(round=rnd, seq=2, kind="redo", version=2))
    refused(lambda: log.create(round=rnd, seq=2, kind="restart", seat=1, version=2))
    # a kind nobody registered: refused before the database is asked (games.log.KINDS)
    with pytest.raises(UnknownKind):
        log.create(round=rnd, seq=2, kind="erase", version=2)
    refused(
        lambda: log.create(
            round=rnd,
            seq=2,
            kind="action",
            seat=1,
            action={"act": "pass"},
            by_computer=True,
            user=alice,
            version=2,
        )
    )
    log.create(round=rnd, seq=2, kind="restart", user=alice, version=2)


def test_request_ids_unique_per_match_and_pauses_per_connection(
    match: Match, table: Table, alice: Any
) -> None:
    ClientRequest.objects.create(match=match, request_id="r1", user=alice, version=1)
    refused(
        lambda: ClientRequest.objects.create(match=match, request_id="r1", user=alice, version=2)
    )
    refused(lambda: ClientRequest.objects.create(match=match, request_id="", user=alice, version=2))
    other = new_match(table, alice)
    ClientRequest.objects.create(match=other, request_id="r1", user=alice, version=1)
    Pause.objects.create(match=match, channel="c1", user=alice)
    refused(lambda: Pause.objects.create(match=match, channel="c1", user=alice))


def test_seat_names_shown_at_the_table(match: Match, alice: Any) -> None:
    assert Seat(match=match, index=0, kind="human", user=alice).display_name == "alice"
    assert Seat(match=match, index=1, kind="human").display_name == "Free seat 2"
    assert Seat(match=match, index=2, kind="computer", level="casual").display_name == "Computer 3"
    assert Seat(match=match, index=3, kind="local", user=alice).display_name == "Player 4"
    assert Seat(match=match, index=3, kind="local", user=alice, name="Ana").display_name == "Ana"
