"""My matches (in progress and finished, each resumable) and the lobby's open matches."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.reads import selectors
from tests.games.matches import create, finish, play

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_my_matches_needs_sign_in(client: Client) -> None:
    response = client.get(reverse("games:my_matches"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_my_matches_lists_mine_with_round_seats_totals_turn_and_resume(ana: Any, ben: Any) -> None:
    playing = play(create(ana, "casual", "local"), 12)
    waiting = create(ana, "human")
    finished = finish(create(ana, "expert"), (40, 50))
    not_mine = create(ben, "casual")

    response = signed_in(ana).get(reverse("games:my_matches"))
    assert response.status_code == 200
    in_progress = {s.match.pk: s for s in response.context["in_progress"]}
    done = {s.match.pk: s for s in response.context["finished"]}
    assert set(in_progress) == {playing.pk, waiting.pk}
    assert set(done) == {finished.pk}
    assert not_mine.pk not in in_progress | done

    page = response.content.decode()
    for match in (playing, waiting, finished):
        assert f'href="{reverse("games:table", args=[match.pk])}"' in page
    # a finished match is not resumed: its table shows the result and "New match at this table"
    assert page.count(">Resume<") == 2 and page.count(">Go to the table<") == 1

    state = selectors.match_state(playing)
    summary = in_progress[playing.pk]
    assert summary.round == playing.round_number
    assert [r.name for r in summary.seats] == ["ana", "Computer 2", "Guest 3"]
    assert [r.total for r in summary.seats] == list(state.totals)
    if state.turn is not None:
        assert [r.turn for r in summary.seats] == [i == state.turn for i in range(3)]
        # ana plays seat 1 and her pass-and-play seat 3; the computer is seat 2
        expected = "Your turn" if state.turn in (0, 2) else "Computer 2 to play"
        assert summary.status_line == expected
        assert expected in page
    assert f"Round {playing.round_number} / 13" in page
    assert "Waiting for 1 more player" in page


def test_a_player_who_joined_sees_the_match_too(ana: Any, ben: Any) -> None:
    match = create(ana, "human", "casual")
    signed_in(ben).post(reverse("games:join", args=[match.pk, match.invite_token]), {"seat": 1})
    response = signed_in(ben).get(reverse("games:my_matches"))
    assert [s.match.pk for s in response.context["in_progress"]] == [match.pk]
    summary = response.context["in_progress"][0]
    assert [r.mine for r in summary.seats] == [False, True, False]


def test_lobby_lists_listed_matches_with_a_free_seat(client: Client, ana: Any, ben: Any) -> None:
    open_match = create(ana, "human", "casual")
    unlisted = create(ana, "human", listed=False)
    started = create(ana, "casual")
    full = create(ana, "human")
    signed_in(ben).post(reverse("games:join", args=[full.pk, full.invite_token]), {"seat": 1})

    response = client.get(reverse("games:lobby"))
    assert response.status_code == 200
    listed = [s.match.pk for s in response.context["open_matches"]]
    assert listed == [open_match.pk]
    page = response.content.decode()
    assert reverse("games:join", args=[open_match.pk, open_match.invite_token]) in page
    for hidden in (unlisted, started, full):
        assert hidden.invite_token not in page
    assert "Log in to create a match" in page
    assert 'name="seat_2_kind"' not in page  # no form for a visitor


def test_lobby_offers_the_create_form_to_a_signed_in_user(ana: Any) -> None:
    page = signed_in(ana).get(reverse("games:lobby")).content.decode()
    assert f'action="{reverse("games:create")}"' in page
    assert 'name="seat_10_kind"' in page
    assert "No open match right now" in page


def test_r22_summary_of_a_finished_match_names_the_winners(ana: Any) -> None:
    finish(create(ana, "casual", "local"), (10, 3, 3))
    response = signed_in(ana).get(reverse("games:my_matches"))
    summary = response.context["finished"][0]
    assert summary.status_line == "Finished: Computer 2, Guest 3 won"
    assert [r.winner for r in summary.seats] == [False, True, True]
    assert "Finished: Computer 2, Guest 3 won" in response.content.decode()
