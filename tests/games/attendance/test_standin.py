"""A computer plays for a person who is away, until they take their seat back
(games.attendance.standin).

The match of these tests: ana (seat 0, its creator), ben (seat 1, invited) and a computer
(seat 2); the table lets a computer stand in after 10 minutes away.
"""

from __future__ import annotations

import itertools
import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from engine.replay import run_replay
from engine.serialize import state_from_json
from engine.views import view
from games import notify, permissions, services
from games.attendance import presence, standin
from games.board.draw import seat_infos
from games.board.viewer import Viewer
from games.errors import BAD_REQUEST, FORBIDDEN, ILLEGAL, GameError
from games.models import LogEntry, Match, Presence, Seat, StandIn
from games.reads import selectors
from games.services import SeatSpec
from games.table import board, board_reads
from games.table.commands import away_limit, stand_in
from tests import seeded
from tests.games.matches import left
from tests.games.table.socket.conftest import play

pytestmark = pytest.mark.django_db

_ids = itertools.count(1)


def rid() -> str:
    return f"standin-{next(_ids)}"


@pytest.fixture
def people(django_user_model: Any) -> dict[str, Any]:
    make = django_user_model.objects.create_user
    return {name: make(name) for name in ("ana", "ben", "cy")}


def table(people: dict[str, Any], limit: str = "10m") -> Match:
    ana, ben = people["ana"], people["ben"]
    match = seeded.match_create(
        creator=ana,
        seats=[SeatSpec("me"), SeatSpec("human"), SeatSpec("computer", level="casual")],
        seed=4242,
        away_limit=limit,
    )
    services.seat_join(match_id=match.pk, user=ben, token=match.invite_token)
    presence.opened(match_id=match.pk, user=ana, channel="ana-tab")
    return Match.objects.get(pk=match.pk)


def hand_over(match: Match, user: Any, seat: int = 1) -> services.Result:
    return stand_in.standin_start(match_id=match.pk, user=user, seat=seat, request_id=rid())


def take_back(match: Match, user: Any, seat: int = 1) -> services.Result:
    return stand_in.standin_end(match_id=match.pk, user=user, seat=seat, request_id=rid())


def refused(code: str, fn: Any, *args: Any) -> GameError:
    with pytest.raises(GameError) as e:
        fn(*args)
    assert e.value.code == code
    return e.value


def seat(match: Match, index: int = 1) -> Seat:
    return Seat.objects.get(match=match, index=index)


# ---------------------------------------------------------------- when


def test_not_before_the_owner_has_been_away_longer_than_the_tables_limit(
    people: dict[str, Any],
) -> None:
    match = table(people)
    ana, ben = people["ana"], people["ben"]
    presence.opened(match_id=match.pk, user=ben, channel="ben-tab")
    assert "is at the table" in refused(ILLEGAL, hand_over, match, ana).message
    presence.closed(match_id=match.pk, channel="ben-tab")
    assert "away for less than" in refused(ILLEGAL, hand_over, match, ana).message  # left just now
    left(match, ben, 9)
    refused(ILLEGAL, hand_over, match, ana)
    left(match, ben, 11)
    before = Match.objects.get(pk=match.pk).version
    result = hand_over(match, ana)
    assert result.version == before + 1  # every page at the table sees the change
    assert seat(match).standin == standin.LEVEL == "casual"


def test_a_player_never_seen_at_the_table_is_away_since_the_match_was_created(
    people: dict[str, Any],
) -> None:
    match = table(people)
    refused(ILLEGAL, hand_over, match, people["ana"])
    Match.objects.filter(pk=match.pk).update(created_at=timezone.now() - timedelta(minutes=11))
    hand_over(Match.objects.get(pk=match.pk), people["ana"])
    assert seat(match).standin


def test_a_connection_not_renewed_by_its_server_counts_as_gone(people: dict[str, Any]) -> None:
    """ben's server was killed with his page open: his row stays open but is renewed no more."""
    match = table(people)
    presence.opened(match_id=match.pk, user=people["ben"], channel="ben-killed")
    Presence.objects.filter(channel="ben-killed").update(
        alive_at=timezone.now() - timedelta(minutes=12)
    )
    hand_over(match, people["ana"])
    assert seat(match).standin


def test_a_table_set_to_never_lets_no_computer_stand_in(people: dict[str, Any]) -> None:
    match = table(people, limit="never")
    left(match, people["ben"], 60 * 24 * 30)
    refused(ILLEGAL, hand_over, match, people["ana"])


def test_the_seated_people_change_the_limit_by_consent(people: dict[str, Any]) -> None:
    """At a shared table the limit changes only once the others accept (games.consent)."""
    match = table(people, limit="1d")
    left(match, people["ben"], 30)
    refused(ILLEGAL, hand_over, match, people["ana"])
    with pytest.raises(GameError) as e:
        away_limit.away_limit_set(
            match_id=match.pk, user=people["cy"], limit="10m", request_id=rid()
        )
    assert e.value.code == FORBIDDEN  # not seated here
    with pytest.raises(GameError) as e:
        away_limit.away_limit_set(
            match_id=match.pk, user=people["ana"], limit="5m", request_id=rid()
        )
    assert e.value.code == BAD_REQUEST
    asked = away_limit.away_limit_set(
        match_id=match.pk, user=people["ana"], limit="10m", request_id=rid()
    )
    assert asked.asked and Match.objects.get(pk=match.pk).away_limit == "1d"
    refused(ILLEGAL, hand_over, match, people["ana"])  # asking changed nothing yet
    ask = match.change_requests.get(status="open")
    services.change_answer(
        match_id=match.pk, user=people["ben"], ask=ask.pk, accept=True, request_id=rid()
    )
    assert Match.objects.get(pk=match.pk).away_limit == "10m"
    hand_over(match, people["ana"])


def test_the_limit_is_refused_in_its_own_words_and_changes_nothing(people: dict[str, Any]) -> None:
    """The table-setting service (services.setting_set) speaks of the limit, not of the pace."""
    match = table(people)

    def set_limit(limit: object) -> None:
        away_limit.away_limit_set(
            match_id=match.pk, user=people["ben"], limit=limit, request_id=rid()
        )

    version = Match.objects.get(pk=match.pk).version
    for limit, code, words in [
        (10, BAD_REQUEST, "Choose how long a seat may stay away from the list."),
        ("10m", BAD_REQUEST, "That is the table's setting already."),
    ]:
        assert refused(code, set_limit, limit).message == words
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED, finished_at=timezone.now()
    )
    assert refused(ILLEGAL, set_limit, "1d").message == "The match is over."
    after = Match.objects.get(pk=match.pk)
    assert (after.away_limit, after.version) == ("10m", version)


# ---------------------------------------------------------------- who


def test_only_the_other_seated_people_may_hand_a_seat_over(people: dict[str, Any]) -> None:
    match = table(people)
    ana, ben, cy = people["ana"], people["ben"], people["cy"]
    left(match, ana, 60)
    left(match, ben, 60)
    refused(FORBIDDEN, hand_over, match, ben, 1)  # not one's own seat
    refused(FORBIDDEN, hand_over, match, cy, 1)  # a stranger
    refused(FORBIDDEN, hand_over, match, None, 1)  # nobody signed in
    refused(FORBIDDEN, hand_over, match, ana, 2)  # a computer's seat
    hand_over(match, ben, 0)  # ben may hand ana's seat over, as ana may his
    assert seat(match, 0).standin and not seat(match, 1).standin
    refused(
        FORBIDDEN, hand_over, match, ana, 1
    )  # while a computer plays ana's seat, ana hands nothing over
    refused(BAD_REQUEST, hand_over, match, ben, 0)  # already handed over


def test_only_the_owner_takes_the_seat_back(people: dict[str, Any]) -> None:
    match = table(people)
    left(match, people["ben"], 11)
    hand_over(match, people["ana"])
    refused(FORBIDDEN, take_back, match, people["ana"])
    refused(FORBIDDEN, take_back, match, people["cy"])
    take_back(match, people["ben"])
    assert seat(match).standin == ""
    refused(BAD_REQUEST, take_back, match, people["ben"])  # nothing to take back now


def test_a_pass_and_play_holder_hands_over_and_takes_back_as_a_player(
    people: dict[str, Any],
) -> None:
    ana, ben = people["ana"], people["ben"]
    match = seeded.match_create(
        creator=ana,
        seats=[SeatSpec("local", name="Ada"), SeatSpec("human")],
        seed=5,
        away_limit="10m",
    )
    services.seat_join(match_id=match.pk, user=ben, token=match.invite_token)
    match = Match.objects.get(pk=match.pk)
    left(match, ana, 20)
    hand_over(match, ben, 0)  # ana's pass-and-play seat: ana is away
    assert permissions.may(ana, "take_back", match, seat=0)
    take_back(match, ana, 0)


# ---------------------------------------------------------------- the computer plays, secretly


def ben_to_play(match: Match) -> None:
    users = {0: seat(match, 0).user, 1: seat(match, 1).user}
    play(match.pk, users, until=lambda s: s.turn == 1 and s.phase in ("engine", "first", "play"))


def test_the_computer_then_plays_the_seat_from_its_view_and_the_owner_cannot(
    people: dict[str, Any],
) -> None:
    match = table(people)
    ana, ben = people["ana"], people["ben"]
    ben_to_play(match)
    assert services.computer_step(match_id=match.pk) is None  # ben's turn: nobody plays it for him
    assert match.pk not in selectors.matches_awaiting_computer()
    left(match, ben, 11)
    hand_over(match, ana)
    assert match.pk in selectors.matches_awaiting_computer()  # the computer worker picks it up
    log_before = LogEntry.objects.filter(round__match=match).count()
    assert services.computer_step(match_id=match.pk) is not None
    entry = LogEntry.objects.filter(round__match=match).order_by("-id").first()
    assert LogEntry.objects.filter(round__match=match).count() == log_before + 1
    assert entry.seat == 1 and entry.by_computer and entry.user is None and entry.kind == "action"
    # ben acts for the seat no more until he takes it back (asked before whose turn it is)
    with pytest.raises(GameError) as err:
        services.action_submit(
            match_id=match.pk,
            user=ben,
            seat=1,
            action={"act": "draw"},
            expected_version=Match.objects.get(pk=match.pk).version,
            request_id=rid(),
        )
    assert err.value.code == FORBIDDEN and "take your seat back" in err.value.message
    assert permissions.seats_controlled(Match.objects.get(pk=match.pk), ben) == []
    # the replay format is unchanged: the stand-in's moves are the seat's actions
    doc = selectors.match_replay_doc(Match.objects.get(pk=match.pk))
    assert run_replay(doc)["error"] is None


def test_the_seat_shows_plainly_that_a_computer_plays_it_and_no_hand_leaks(
    people: dict[str, Any],
) -> None:
    match = table(people)
    ana, ben = people["ana"], people["ben"]
    ben_to_play(match)
    left(match, ben, 11)
    # ana's board offers the hand-over once ben has been away long enough
    html = html_for(match, ana)
    assert 'data-stand-in="1"' in html and "Let a computer play for" in html
    hand_over(match, ana)
    match = Match.objects.get(pk=match.pk)
    infos = seat_infos(match)
    assert "(a computer plays)" in infos[1].name and infos[1].kind == "computer"
    for who in (ana, None):
        assert "(a computer plays)" in html_for(match, who)
    ben_html = html_for(match, ben)
    assert 'data-take-back="1"' in ben_html and "Take my seat back" in ben_html
    # nobody's page shows ben's hand: not ben's (a watcher's until he takes the seat back),
    # not ana's, not a spectator's
    hand = {f"{max(t)}-{min(t)}" for t in state_from_json(match.state).hands[1]}
    for who in (ana, ben, None):
        assert not hand & set(re.findall(r'data-tile="(\d+-\d+)"', html_for(match, who)))
    take_back(match, ben)
    match = Match.objects.get(pk=match.pk)
    assert set(re.findall(r'data-tile="(\d+-\d+)"', html_for(match, ben))) == hand  # his hand again
    assert "(a computer plays)" not in html_for(match, ana)


def html_for(match: Match, user: Any) -> str:
    board_reads.forget()
    match = (
        Match.objects.select_related("created_by").prefetch_related("seats__user").get(pk=match.pk)
    )
    viewer = Viewer(user=user, controlled=tuple(permissions.seats_controlled(match, user)))
    return str(board.board_message(match=match, viewer=viewer)["html"])


def test_the_owner_takes_the_seat_back_and_plays_again(people: dict[str, Any]) -> None:
    match = table(people)
    ana, ben = people["ana"], people["ben"]
    ben_to_play(match)
    left(match, ben, 11)
    hand_over(match, ana)
    presence.opened(match_id=match.pk, user=ben, channel="ben-back")
    assert seat(match).standin  # coming back alone does not end it: one click does
    take_back(match, ben)
    match = Match.objects.get(pk=match.pk)
    assert permissions.seats_controlled(match, ben) == [1]
    ben_to_play(match)
    match = Match.objects.get(pk=match.pk)
    assert services.computer_step(match_id=match.pk) is None  # ben's to play again
    state = state_from_json(match.state)
    services.action_submit(
        match_id=match.pk,
        user=ben,
        seat=1,
        action=view(state, 1).legal[0].to_json(),
        expected_version=match.version,
        request_id=rid(),
    )


def test_every_hand_over_and_return_is_recorded(people: dict[str, Any]) -> None:
    match = table(people)
    ana, ben = people["ana"], people["ben"]
    left(match, ben, 11)
    hand_over(match, ana)
    take_back(match, ben)
    left(match, ben, 11)
    hand_over(match, ana)
    rows = list(StandIn.objects.filter(match=match).order_by("started_at"))
    assert [(r.seat, r.level, r.handed_by, r.ended_by is not None) for r in rows] == [
        (1, "casual", ana, True),
        (1, "casual", ana, False),
    ]
    assert rows[0].ended_by == ben and rows[0].ended_at >= rows[0].started_at
    # the round's log holds the game only: no hand-over line in it
    assert set(LogEntry.objects.filter(round__match=match).values_list("kind", flat=True)) <= {
        "action"
    }


def test_a_stand_in_never_carries_consent_for_the_seat_it_plays(people: dict[str, Any]) -> None:
    """The seat's owner is still asked while a computer plays their seat."""
    match = table(people)
    left(match, people["ben"], 11)
    assert permissions.needs_consent(match, people["ana"])
    hand_over(match, people["ana"])
    assert permissions.needs_consent(Match.objects.get(pk=match.pk), people["ana"])


def test_the_worker_tells_a_table_when_a_seats_limit_passes(
    people: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    told: list[int] = []
    monkeypatch.setattr(notify, "match_seats", told.append)
    match = table(people)
    left(match, people["ben"], 10.5)  # the limit passed half a minute ago
    now = timezone.now()
    assert standin.announce_due(since=now - timedelta(seconds=5), now=now) == []  # told already
    assert standin.announce_due(since=now - timedelta(minutes=1), now=now) == [match.pk]
    assert told == [match.pk]
    hand_over(match, people["ana"])
    assert (
        standin.announce_due(since=now - timedelta(minutes=1), now=now) == []
    )  # nothing left to offer
