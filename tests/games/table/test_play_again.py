"""R29 "Play again" (games.table.commands.play_again): once a match is over, every person at the
table answers; when everyone who has not left has accepted, one new match starts at the
same table with the same seats, length (R31) and pace, and a new deal (R4)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import close_old_connections
from django.utils import timezone

from games import services
from games.errors import GameError
from games.history.models import PlayerStats
from games.models import Match, Seat
from games.reads import selectors
from games.services import SeatSpec
from games.table.commands.play_again import Answers, again_answer, again_seat_set
from tests import seeded
from tests.games.conftest import rid
from tests.games.matches import play

pytestmark = pytest.mark.django_db


def over(match: Match) -> Match:
    """The match as its last round left it (R22): finished."""
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED, finished_at=timezone.now()
    )
    match.refresh_from_db()
    return match


def table(creator: Any, *others: Any, rounds: int = 3, pace: str = "fast") -> Match:
    """A match of the creator, then a person (a user) or a computer level, a local seat
    ("local:Name") each, everyone seated."""
    seats = [SeatSpec("me")]
    for other in others:
        if isinstance(other, str) and other.startswith("local:"):
            seats.append(SeatSpec("local", name=other[6:]))
        elif isinstance(other, str):
            seats.append(SeatSpec("computer", level=other))
        else:
            seats.append(SeatSpec("human"))
    match = seeded.match_create(creator=creator, seats=seats, seed=11, rounds=rounds, pace=pace)
    for seat, other in enumerate(others, start=1):
        if not isinstance(other, str):
            services.seat_join(
                match_id=match.pk, user=other, token=match.invite_token, seat_index=seat
            )
    match.refresh_from_db()
    return match


def accept(match: Match, user: Any, request_id: str | None = None) -> services.Result:
    return again_answer(match_id=match.pk, user=user, accept=True, request_id=request_id or rid())


def leave(match: Match, user: Any) -> services.Result:
    return again_answer(match_id=match.pk, user=user, accept=False, request_id=rid())


def refused(code: str, call: Callable[[], object], match: Match) -> str:
    """`call` is refused with `code` and changes nothing; its words."""
    before = Match.objects.values_list("version", "again").get(pk=match.pk)
    with pytest.raises(GameError) as e:
        call()
    assert e.value.code == code, e.value.message
    assert Match.objects.values_list("version", "again").get(pk=match.pk) == before
    assert Match.objects.filter(table_id=match.table_id).count() == 1
    return e.value.message


def seats_of(match: Match) -> list[tuple[str, int | None, str, str]]:
    return [(s.kind, s.user_id, s.name, s.level) for s in match.seats.order_by("index")]


def test_r29_when_everyone_accepts_one_new_match_starts_with_the_same_seats_and_a_new_deal(
    alice: Any, bob: Any
) -> None:
    match = over(table(alice, bob, "local:Ana", "expert", rounds=3, pace="fast"))
    accept(match, bob)
    assert selectors.next_match(match) is None  # alice is still deciding
    assert Answers.of(Match.objects.get(pk=match.pk)).yes == [bob.pk]
    accept(match, alice)
    new = selectors.next_match(match)
    assert new is not None and new.table_id == match.table_id and new.number == 2
    assert seats_of(new) == seats_of(match)  # people, the pass-and-play seat, the expert
    assert (new.length, new.pace, new.away_limit, new.listed) == (3, "fast", "1h", True)
    assert new.seed != match.seed and not new.seed_chosen
    assert new.status == Match.Status.PLAYING and new.created_by == alice
    state = selectors.match_state(new)
    assert (state.round, state.engine, state.totals) == (1, 2, (0, 0, 0, 0))  # R31: from 2-2
    # the old match keeps its place and says where the new one is
    assert Answers.of(Match.objects.get(pk=match.pk)).next == new.pk


def test_r29_alone_with_computers_play_again_starts_at_once(alice: Any) -> None:
    match = over(table(alice, "beginner", "casual"))
    accept(match, alice)
    new = selectors.next_match(match)
    assert new is not None and [s.level for s in new.seats.order_by("index")] == [
        "",
        "beginner",
        "casual",
    ]


def test_r29_a_seat_whose_person_leaves_becomes_a_casual_computer_unless_the_creator_chooses(
    alice: Any, bob: Any, carol: Any
) -> None:
    match = over(table(alice, bob, carol, "expert"))
    accept(match, alice)
    leave(match, bob)
    # bob's seat is alice's to give now: her answer is asked again
    assert Answers.of(Match.objects.get(pk=match.pk)).yes == []
    words = refused(
        "bad_request",
        lambda: again_seat_set(
            match_id=match.pk, user=alice, seat=2, become="open", request_id=rid()
        ),
        match,
    )
    assert words == "Only the seat of someone who left the table can be given to someone else."
    refused(
        "forbidden",
        lambda: again_seat_set(
            match_id=match.pk, user=carol, seat=1, become="open", request_id=rid()
        ),
        match,
    )
    refused(
        "bad_request",
        lambda: again_seat_set(
            match_id=match.pk, user=alice, seat=1, become="wizard", request_id=rid()
        ),
        match,
    )
    accept(match, carol)
    accept(match, alice)  # no choice made: a casual computer takes bob's seat
    new = selectors.next_match(match)
    assert new is not None
    assert seats_of(new) == [
        ("human", alice.pk, "", ""),
        ("computer", None, "", "casual"),
        ("human", carol.pk, "", ""),
        ("computer", None, "", "expert"),  # a computer keeps its level
    ]


def test_r29_the_creator_may_leave_a_left_seat_open_for_an_invitation(
    alice: Any, bob: Any, carol: Any
) -> None:
    match = over(table(alice, bob, carol))
    leave(match, carol)
    again_seat_set(match_id=match.pk, user=alice, seat=2, become="open", request_id=rid())
    again_seat_set(match_id=match.pk, user=alice, seat=2, become="expert", request_id=rid())
    again_seat_set(match_id=match.pk, user=alice, seat=2, become="open", request_id=rid())
    accept(match, bob)
    accept(match, alice)
    new = selectors.next_match(match)
    assert new is not None and new.status == Match.Status.WAITING  # for the invited player
    assert seats_of(new)[2] == ("human", None, "", "")
    services.seat_join(
        match_id=new.pk, user=carol, token=new.invite_token
    )  # carol changed her mind
    assert Match.objects.get(pk=new.pk).status == Match.Status.PLAYING


def test_r29_when_the_creator_leaves_the_first_to_accept_creates_the_new_match(
    alice: Any, bob: Any, carol: Any
) -> None:
    match = over(table(alice, bob, "local:Ana", carol))
    accept(match, carol)
    leave(match, alice)
    refused(
        "illegal",
        lambda: again_seat_set(
            match_id=match.pk, user=alice, seat=0, become="open", request_id=rid()
        ),
        match,
    )
    accept(match, bob)
    new = selectors.next_match(match)
    assert new is not None and new.created_by == carol
    # alice's own seat and her pass-and-play seat go with her: casual computers
    assert [s[0] for s in seats_of(new)] == ["computer", "human", "computer", "human"]


def test_r29_everyone_leaving_starts_nothing(alice: Any, bob: Any) -> None:
    match = over(table(alice, bob))
    leave(match, bob)
    leave(match, alice)
    assert selectors.next_match(match) is None


def test_r29_refusals_change_nothing(alice: Any, bob: Any, carol: Any) -> None:
    match = table(alice, bob, "casual")
    words = refused("illegal", lambda: accept(match, alice), match)  # before the end
    assert words == "You can play again once this match is over."
    over(match)
    assert refused("forbidden", lambda: accept(match, carol), match) == (
        "Only the people at this match can play again."
    )
    refused("forbidden", lambda: accept(match, None), match)  # nobody signed in
    refused(
        "forbidden",
        lambda: again_seat_set(
            match_id=match.pk, user=bob, seat=0, become="casual", request_id=rid()
        ),
        match,
    )
    accept(match, bob, "bob-1")
    assert accept(match, bob, "bob-1").duplicate  # the same request: answered again, once
    before = Match.objects.get(pk=match.pk).version
    assert refused("bad_request", lambda: leave(match, bob), match) == "You have answered already."
    assert Match.objects.get(pk=match.pk).version == before
    refused("bad_request", lambda: accept(match, alice, "bob-1"), match)  # another's request id


@pytest.mark.django_db(transaction=True)
def test_r29_accepting_at_the_same_moment_makes_exactly_one_new_match(
    alice: Any, bob: Any, carol: Any
) -> None:
    match = over(table(alice, bob, carol))
    accept(match, alice)
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def answer(user: Any) -> None:
        try:
            barrier.wait()
            accept(match, user)
        except BaseException as e:  # noqa: BLE001  # reported below
            errors.append(e)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=answer, args=(u,)) for u in (bob, carol)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert Match.objects.filter(table_id=match.table_id).count() == 2
    answers = Answers.of(Match.objects.get(pk=match.pk))
    assert answers.yes[0] == alice.pk and set(answers.yes) == {alice.pk, bob.pk, carol.pk}
    assert answers.next == selectors.next_match(match).pk  # type: ignore[union-attr]
    # a later answer is refused: the new match has started
    with pytest.raises(GameError) as e:
        leave(match, bob)
    assert e.value.message == "The new match at this table has started already."


def test_r29_history_and_ratings_count_both_matches(alice: Any, bob: Any) -> None:
    match = table(alice, bob, rounds=1)
    while play(match, 500).status != Match.Status.FINISHED:
        pass
    accept(match, alice)
    accept(match, bob)
    new = selectors.next_match(match)
    assert new is not None
    while play(new, 500).status != Match.Status.FINISHED:
        pass
    for user in (alice, bob):
        stats = PlayerStats.objects.get(user=user)
        assert (stats.matches, stats.rounds, stats.rated_matches) == (2, 2, 2)
    assert Seat.objects.filter(match__table_id=match.table_id, user=alice).count() == 2
