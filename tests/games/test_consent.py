"""Undo and restart at a table shared with other people are asked of them (fault 3).

With more than one person seated (distinct users; pass-and-play seats count as their
holder's), Undo (R27) and Restart (R28) open a request the others accept or decline;
it expires after a minute, one is open at a time, and every step is in the match log.
Alone with computers (or with one's own pass-and-play seats) they stay immediate.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import services
from games.errors import GameError
from games.models import ChangeRequest, LogEntry, Match
from games.reads import selectors
from games.table.commands.restart import round_restart
from games.table.commands.undo import match_undo
from tests import reads
from tests.games.conftest import Driver, rid, snapshot, state_of

pytestmark = pytest.mark.django_db


def consent_log(match: Match) -> list[tuple[str, str]]:
    return [
        (e.action["change"], e.action["step"])
        for e in LogEntry.objects.filter(round__match=match, kind="consent").order_by(
            "round__number", "seq"
        )
    ]


def refused(code: str, match: Match, call: Callable[[], Any]) -> None:
    before = snapshot(match)
    with pytest.raises(GameError) as caught:
        call()
    assert caught.value.code == code, caught.value
    assert snapshot(match) == before


@pytest.fixture
def trio(make_match: Callable[..., Match], alice: Any, bob: Any, carol: Any) -> Match:
    """alice (creator, seat 0), bob (seat 1), a computer (seat 2): a shared table."""
    match = make_match("me", "human", "computer:casual")
    services.seat_join(match_id=match.pk, user=bob, token=match.invite_token)
    match.refresh_from_db()
    return match


def restart(match: Match, user: Any) -> services.Result:
    match.refresh_from_db()
    return round_restart(
        match_id=match.pk, user=user, expected_version=match.version, request_id=rid()
    )


def answer(match: Match, user: Any, accept: bool, ask: int | None = None) -> services.Result:
    if ask is None:
        ask = match.change_requests.get(status=ChangeRequest.Status.OPEN).pk
    return services.change_answer(
        match_id=match.pk, user=user, ask=ask, accept=accept, request_id=rid()
    )


def test_the_creator_cannot_restart_a_shared_round_alone(trio: Match, alice: Any, bob: Any) -> None:
    """Fault 3: the creator restarted the round (a deal the others had partly seen) alone."""
    driver = Driver(trio, {0: alice, 1: bob}, rng_seed=3)
    driver.until(lambda s: s.phase == "play")
    before = state_of(trio)
    result = restart(trio, alice)
    assert result.asked
    assert state_of(trio) == before and trio.rounds.get().restarts == 0  # nothing restarted yet
    ask = selectors.open_request(trio.pk)
    assert ask is not None and ask.change == "restart" and ask.asked_by == alice
    answer(trio, bob, accept=True)
    assert trio.rounds.get().restarts == 1
    assert state_of(trio).phase == "engine" or state_of(trio) != before
    assert consent_log(trio) == [("restart", "ask"), ("restart", "accept")]
    assert LogEntry.objects.filter(round__match=trio).order_by("-seq").first().kind == "restart"
    assert selectors.open_request(trio.pk) is None


def test_the_asker_reads_their_own_request_in_the_second_person(
    trio: Match, alice: Any, bob: Any
) -> None:
    """The banner of an open request: the asker reads "You asked …", the others "<name> asks …"
    (the asker read "alice asks to restart the round." about themselves)."""
    from games.table.board import ask_for

    restart(trio, alice)
    trio.refresh_from_db()
    ask = selectors.open_request(trio.pk)
    own, other = ask_for(trio, ask, alice), ask_for(trio, ask, bob)
    assert own is not None and own.mine and own.text == "You asked to restart the round."
    assert (
        other is not None
        and other.answer
        and other.text == "\u2068alice\u2069 asks to restart the round."
    )


def test_a_declined_restart_changes_nothing_but_the_log(trio: Match, alice: Any, bob: Any) -> None:
    restart(trio, alice)
    before = state_of(trio)
    answer(trio, bob, accept=False)
    assert state_of(trio) == before and trio.rounds.get().restarts == 0
    assert trio.change_requests.get().status == ChangeRequest.Status.DECLINED
    assert consent_log(trio) == [("restart", "ask"), ("restart", "decline")]


def test_undo_takes_back_another_persons_turn_only_when_they_agree(
    trio: Match, alice: Any, bob: Any
) -> None:
    """Fault 3: undo took back other humans' turns without asking them (R27)."""
    driver = Driver(trio, {0: alice, 1: bob}, rng_seed=5)
    driver.until(lambda s: s.phase == "play" and s.turn == 0)
    driver.step()  # alice plays; her undo would take it back
    assert reads.undo_available(trio, alice)
    after = state_of(trio)
    result = match_undo(
        match_id=trio.pk, user=alice, expected_version=driver.version, request_id=rid()
    )
    assert result.asked and state_of(trio) == after
    answer(trio, bob, accept=True)
    assert state_of(trio) != after and state_of(trio).turn == 0  # her action is taken back
    last = LogEntry.objects.filter(round__match=trio).order_by("-seq").first()
    assert last.kind == "undo" and last.user == alice  # done for the one who asked
    assert consent_log(trio) == [("undo", "ask"), ("undo", "accept")]


def test_an_undo_no_longer_possible_when_accepted_closes_as_void(
    trio: Match, alice: Any, bob: Any
) -> None:
    driver = Driver(trio, {0: alice, 1: bob}, rng_seed=5)
    driver.until(lambda s: s.phase == "play" and s.turn == 0)
    driver.step()
    match_undo(match_id=trio.pk, user=alice, expected_version=driver.version, request_id=rid())
    driver.until(lambda s: s.turn == 1)
    driver.step()  # bob plays: alice's action is no longer hers alone to take back
    after = state_of(trio)
    answer(trio, bob, accept=True)
    assert state_of(trio) == after
    assert trio.change_requests.get().status == ChangeRequest.Status.VOID
    assert consent_log(trio)[-1] == ("undo", "void")


def test_every_other_person_must_accept(
    make_match: Callable[..., Match], alice: Any, bob: Any, carol: Any
) -> None:
    match = make_match("me", "human", "human")
    services.seat_join(match_id=match.pk, user=bob, token=match.invite_token)
    services.seat_join(match_id=match.pk, user=carol, token=match.invite_token)
    restart(match, alice)
    answer(match, bob, accept=True)
    assert match.rounds.get().restarts == 0 and selectors.open_request(match.pk) is not None
    answer(match, carol, accept=True)
    assert match.rounds.get().restarts == 1


def test_one_open_request_at_a_time_and_nobody_answers_their_own(
    trio: Match, alice: Any, bob: Any, carol: Any
) -> None:
    restart(trio, alice)
    refused("request_open", trio, lambda: restart(trio, alice))
    refused("forbidden", trio, lambda: answer(trio, alice, accept=True))  # the asker
    refused("forbidden", trio, lambda: answer(trio, carol, accept=True))  # a stranger
    refused("forbidden", trio, lambda: answer(trio, None, accept=True))  # nobody signed in
    refused("forbidden", trio, lambda: restart(trio, bob))  # bob is neither creator nor alone (R28)
    ask = trio.change_requests.get().pk
    refused(
        "no_request", trio, lambda: answer(trio, bob, accept=True, ask=ask + 1)
    )  # not the open one
    refused(
        "bad_request",
        trio,
        lambda: services.change_answer(
            match_id=trio.pk, user=bob, ask=ask, accept=True, request_id=""
        ),
    )


def test_a_request_expires_after_a_minute(trio: Match, alice: Any, bob: Any) -> None:
    restart(trio, alice)
    ChangeRequest.objects.filter(match=trio).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    assert selectors.open_request(trio.pk) is None  # the board no longer offers it
    ask = trio.change_requests.get().pk
    refused("no_request", trio, lambda: answer(trio, bob, accept=True, ask=ask))
    assert trio.rounds.get().restarts == 0
    restart(trio, alice)  # a new one may be asked; the old one is closed as expired, in the log
    assert trio.change_requests.get(pk=ask).status == ChangeRequest.Status.EXPIRED
    assert consent_log(trio) == [("restart", "ask"), ("restart", "expire"), ("restart", "ask")]


def test_a_request_past_its_minute_closes_on_time_with_a_new_version(
    trio: Match, alice: Any, bob: Any
) -> None:
    """The computer worker closes a request once its minute is over (`services.requests_expire`),
    not when the table is next asked something: a new version, so every board drops it."""
    restart(trio, alice)
    assert services.requests_expire() == []  # still within its minute: left open
    assert selectors.open_request(trio.pk) is not None
    trio.refresh_from_db()
    asked_version = trio.version
    ChangeRequest.objects.filter(match=trio).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    assert services.requests_expire() == [trio.pk]
    trio.refresh_from_db()
    assert trio.version == asked_version + 1
    assert trio.change_requests.get().status == ChangeRequest.Status.EXPIRED
    assert consent_log(trio) == [("restart", "ask"), ("restart", "expire")]
    assert services.requests_expire() == []  # closed once
    assert trio.rounds.get().restarts == 0


def test_alone_with_computers_or_own_pass_and_play_seats_it_stays_immediate(
    make_match: Callable[..., Match], alice: Any
) -> None:
    for kinds in (("me", "computer:casual"), ("me", "local:Ana", "computer:casual")):
        match = make_match(*kinds)
        result = restart(match, alice)
        assert not result.asked and match.rounds.get().restarts == 1
        assert not match.change_requests.exists()
