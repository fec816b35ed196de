"""The statements every action runs, written out in SQL in games/services/:
they must read and write what the ORM calls they replaced did.

- a person's action: one log entry (next seq, its user, its time), an undo point holding
  exactly the snapshot before (R27), the request id, the match's new version, snapshot and
  time; no other column of the match is written;
- a computer's action: a log entry without a user and no undo point (R25, R27);
- what no match or seat can be is refused as before (not_found, forbidden), changing nothing;
- a person's action while the round goes on costs two statements between BEGIN and
  COMMIT: the lock, which reads the request id's earlier result, the current round, the
  seats and the acting connection's session with the match (a third only when it waited
  for the lock: tests/games/services/test_concurrency.py); and one statement writing the log entry,
  the undo point, the match and the request id.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.db.models import Max
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from engine.rules import legal_actions
from games import services
from games.errors import GameError
from games.models import ClientRequest, LogEntry, Match, UndoPoint

from ..conftest import Driver, rid, snapshot, state_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def duo(make_match: Callable[..., Match], alice: Any, bob: Any) -> Match:
    match = make_match("me", "human")
    services.seat_join(match_id=match.pk, user=bob, token=match.invite_token)
    match.refresh_from_db()
    return match


def columns(match: Match) -> dict[str, Any]:
    return {
        f.attname: getattr(Match.objects.get(pk=match.pk), f.attname)
        for f in Match._meta.concrete_fields
    }


def test_a_persons_action_writes_the_rows_the_orm_wrote(
    make_match: Callable[..., Match], alice: Any, bob: Any
) -> None:
    match = make_match("me", "human", "local:Ana", listed=False)
    services.seat_join(match_id=match.pk, user=bob, token=match.invite_token)
    driver = Driver(match, {0: alice, 1: bob, 2: alice}, rng_seed=4)
    for _ in range(6):  # into the round, so the round's log has entries before
        driver.step()
    before = columns(match)
    state = state_of(match)
    action = legal_actions(state)[0]
    assert action.seat is not None
    user = driver.users[action.seat]
    last_seq = LogEntry.objects.filter(round__match=match).aggregate(m=Max("seq"))["m"]
    started = timezone.now()
    result = services.action_submit(
        match_id=match.pk,
        user=user,
        seat=action.seat,
        action=action.to_json(),
        expected_version=before["version"],
        request_id="the-request",
    )
    after = columns(match)
    assert result == services.Result(match.pk, before["version"] + 1)

    entry = LogEntry.objects.select_related("round").get(round__match=match, seq=last_seq + 1)
    assert (
        entry.round.number,
        entry.kind,
        entry.seat,
        entry.action,
        entry.user_id,
        entry.by_computer,
        entry.version,
    ) == (
        before["round_number"],
        "action",
        action.seat,
        action.to_json(),
        user.pk,
        False,
        result.version,
    )
    assert started <= entry.created_at <= timezone.now()
    assert (
        UndoPoint.objects.get(entry=entry).state == before["state"]
    )  # R27: the snapshot before, as stored
    request = ClientRequest.objects.get(match=match, request_id="the-request")
    assert (request.user_id, request.version) == (user.pk, result.version)
    assert started <= request.created_at <= timezone.now()

    assert after["version"] == result.version and after["state"] != before["state"]
    assert before["updated_at"] < after["updated_at"] <= timezone.now()
    unchanged = set(before) - {"version", "state", "updated_at"}
    assert {k: after[k] for k in unchanged} == {k: before[k] for k in unchanged}


def test_a_computers_action_has_no_user_and_no_undo_point(
    make_match: Callable[..., Match], alice: Any
) -> None:
    match = make_match("computer:casual", "me")
    driver = Driver(match, {1: alice})
    state = driver.until(lambda s: s.turn == 0)
    assert not state.over
    version = driver.version
    assert services.computer_step(match_id=match.pk) == services.Result(match.pk, version + 1)
    entry = LogEntry.objects.filter(round__match=match).latest("round__number", "seq")
    assert (entry.seat, entry.user_id, entry.by_computer, entry.version) == (
        0,
        None,
        True,
        version + 1,
    )
    assert not UndoPoint.objects.filter(entry=entry).exists()


@pytest.mark.parametrize("match_id", ["abc", None, "", -1, 10**20, [1], {"id": 1}])
def test_what_no_match_can_be_is_not_found(duo: Match, alice: Any, match_id: Any) -> None:
    before = snapshot(duo)
    with pytest.raises(GameError) as info:
        services.action_submit(
            match_id=match_id,
            user=alice,
            seat=0,
            action={"act": "engine"},
            expected_version=duo.version,
            request_id=rid(),
        )
    assert info.value.code == "not_found"
    assert snapshot(duo) == before


@pytest.mark.parametrize("seat", [-1, 2, 10**20])
def test_what_no_seat_can_be_is_forbidden(duo: Match, alice: Any, seat: int) -> None:
    before = snapshot(duo)
    with pytest.raises(GameError) as info:
        services.action_submit(
            match_id=duo.pk,
            user=alice,
            seat=seat,
            action={"act": "engine"},
            expected_version=duo.version,
            request_id=rid(),
        )
    assert info.value.code == "forbidden"
    assert snapshot(duo) == before


def test_an_action_costs_two_statements(duo: Match, alice: Any, bob: Any) -> None:
    holder = state_of(duo).holder
    assert holder is not None
    with CaptureQueriesContext(connection) as ran:
        services.action_submit(
            match_id=duo.pk,
            user=alice if holder == 0 else bob,
            seat=holder,
            action={"act": "engine"},
            expected_version=duo.version,
            request_id=rid(),
        )
    statements = [q["sql"].split()[0] for q in ran.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert statements == ["SELECT", "WITH"]


def test_a_connections_session_is_checked_in_the_actions_lock(
    duo: Match, alice: Any, bob: Any, client: Any
) -> None:
    """The acting connection's session (accounts.sessions.SessionCheck) is read by the
    statement that locks the match: still two statements; and an ended session is refused
    there, before anything is written."""
    from django.contrib.sessions.models import Session

    from accounts.sessions import SessionCheck, SessionEnded

    holder = state_of(duo).holder
    assert holder is not None
    user = alice if holder == 0 else bob
    client.force_login(user)
    check = SessionCheck(client.session.session_key)
    assert check.user_id() == user.pk  # checked in full as the socket opened
    with CaptureQueriesContext(connection) as ran:
        services.action_submit(
            match_id=duo.pk,
            user=user,
            seat=holder,
            action={"act": "engine"},
            expected_version=duo.version,
            request_id=rid(),
            session=check,
        )
    statements = [q["sql"] for q in ran.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert [s.split()[0] for s in statements] == ["SELECT", "WITH"]
    assert "django_session" in statements[0] and "FOR UPDATE" in statements[0]

    duo.refresh_from_db()
    version = duo.version
    Session.objects.all().delete()
    state = state_of(duo)
    action = legal_actions(state)[0]
    assert action.seat is not None
    with pytest.raises(SessionEnded):
        services.action_submit(
            match_id=duo.pk,
            user=alice if action.seat == 0 else bob,
            seat=action.seat,
            action=action.to_json(),
            expected_version=version,
            request_id=rid(),
            session=check,
        )
    assert Match.objects.get(pk=duo.pk).version == version


def test_the_computers_loop_is_woken_only_when_a_computer_may_be_next(
    make_match: Callable[..., Match],
    alice: Any,
    bob: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """A person's action wakes the computers' loop (games.signals.match_moved) when the seat
    to act next is a computer's, not when it is a person's: the loop's pass, a scan of every
    match waiting for a computer, is saved on most actions at a table of people."""
    from games import signals

    woken: list[int] = []

    def heard(sender: object, *, match_id: int, **kwargs: Any) -> None:
        woken.append(match_id)

    people = make_match("me", "human")
    services.seat_join(match_id=people.pk, user=bob, token=people.invite_token)
    people.refresh_from_db()
    with_computer = make_match("me", "computer")
    seen = set()
    signals.match_moved.connect(heard)
    try:
        for match, users in ((people, {0: alice, 1: bob}), (with_computer, {0: alice})):
            driver = Driver(match, users, rng_seed=3)
            driver.until(lambda s: s.phase == "play" and s.turn == 0)
            for _ in range(6):  # seat 0's actions, until one hands the turn on
                woken.clear()
                with django_capture_on_commit_callbacks(execute=True):
                    driver.submit(legal_actions(driver.state)[0])
                turn = state_of(match).turn
                computer = turn is not None and driver.kinds[turn] == "computer"
                assert (match.pk in woken) is computer, (match.pk, turn, woken)
                seen.add(computer)
                if turn != 0:
                    break
    finally:
        signals.match_moved.disconnect(heard)
    assert seen == {True, False}  # both cases were met
