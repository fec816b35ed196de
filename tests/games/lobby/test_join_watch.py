"""Invitation links (join a free seat), spectator links and the match summary page."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Match
from tests.games.matches import create

pytestmark = pytest.mark.django_db


def join_url(match: Match, token: str | None = None) -> str:
    return reverse("games:join", args=[match.pk, token or match.invite_token])


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_join_offers_a_visitor_a_guest_seat_or_a_sign_in_that_comes_back(
    client: Client, ana: Any
) -> None:
    match = create(ana, "human")
    page = client.get(join_url(match)).content.decode()
    assert "play as a guest" in page
    assert f"{reverse('login')}?next={quote(join_url(match))}" in page


def test_join_with_a_wrong_token_is_not_found(ana: Any, ben: Any) -> None:
    match = create(ana, "human")
    other = create(ana, "human")
    client = signed_in(ben)
    assert client.get(join_url(match, "not-the-token")).status_code == 404
    assert client.post(join_url(match, "not-the-token"), {"seat": 1}).status_code == 404
    # the token of another match does not open this one
    assert client.get(reverse("games:join", args=[match.pk, other.invite_token])).status_code == 404
    assert client.get(reverse("games:join", args=[999999, match.invite_token])).status_code == 404
    assert match.seats.get(index=1).user is None


def test_r2_join_shows_the_free_seats_and_the_last_one_taken_starts_the_match(
    ana: Any, ben: Any, make_user: Any
) -> None:
    match = create(ana, "human", "casual", "human")
    client = signed_in(ben)
    page = client.get(join_url(match)).content.decode()
    assert 'name="seat" value="1"' in page and 'name="seat" value="3"' in page
    assert 'value="2"' not in page  # the computer's seat is not free
    response = client.post(join_url(match), {"seat": 3})
    assert response.status_code == 302
    assert response["Location"] == reverse("games:table", args=[match.pk])
    match.refresh_from_db()
    assert match.seats.get(index=3).user == ben
    assert match.status == Match.Status.WAITING

    carl = make_user("carl")
    signed_in(carl).post(join_url(match), {"seat": 1})
    match.refresh_from_db()
    assert match.seats.get(index=1).user == carl
    assert match.status == Match.Status.PLAYING
    assert match.state is not None


def test_join_when_already_seated_says_so_and_offers_resume(ana: Any, ben: Any) -> None:
    match = create(ana, "human", "human")
    client = signed_in(ben)
    client.post(join_url(match), {"seat": 1})
    page = client.get(join_url(match)).content.decode()
    assert "You already have seat 2 at this match." in page
    assert reverse("games:table", args=[match.pk]) in page
    assert 'name="seat"' not in page
    # The creator is seated too (seat 1).
    assert (
        "You already have seat 1 at this match."
        in signed_in(ana).get(join_url(match)).content.decode()
    )
    # Posting again takes no second seat.
    client.post(join_url(match), {"seat": 2})
    assert match.seats.filter(user=ben).count() == 1


def test_join_a_full_match_says_it_is_full(ana: Any, ben: Any, make_user: Any) -> None:
    match = create(ana, "human")
    signed_in(ben).post(join_url(match), {"seat": 1})
    carl = signed_in(make_user("carl"))
    page = carl.get(join_url(match)).content.decode()
    assert "This match is full: every seat is taken." in page
    response = carl.post(join_url(match), {"seat": 1})
    assert response.status_code == 409
    assert "This match is full: every seat is taken." in response.content.decode()
    assert match.seats.get(index=1).user == ben


def test_a_seat_taken_a_moment_ago_points_to_another_free_seat(
    ana: Any, ben: Any, make_user: Any
) -> None:
    match = create(ana, "human", "human")
    signed_in(ben).post(join_url(match), {"seat": 1})
    response = signed_in(make_user("carl")).post(join_url(match), {"seat": 1})
    assert response.status_code == 409
    page = response.content.decode()
    assert "Someone took that seat a moment ago" in page
    assert 'name="seat" value="2"' in page


def test_watch_link_opens_the_table_as_a_spectator(client: Client, ana: Any) -> None:
    match = create(ana, "casual")
    url = reverse("games:watch", args=[match.pk, match.watch_token])
    response = client.get(url)  # no account needed to watch
    assert response.status_code == 302
    assert (
        response["Location"]
        == f"{reverse('games:table', args=[match.pk])}?watch={match.watch_token}"
    )
    assert (
        client.get(reverse("games:watch", args=[match.pk, match.invite_token])).status_code == 404
    )
    assert client.get(reverse("games:watch", args=[match.pk, "nope"])).status_code == 404


def test_match_summary_shows_links_to_players_only(client: Client, ana: Any, ben: Any) -> None:
    match = create(ana, "human", "casual")
    detail = reverse("games:detail", args=[match.pk])
    page = signed_in(ana).get(detail).content.decode()
    assert match.invite_token in page and match.watch_token in page
    assert "Waiting for 1 more player" in page
    assert "Waiting for players" not in page  # said once, not twice
    assert signed_in(ben).get(detail).status_code == 404  # a stranger
    assert client.get(detail).status_code == 404  # anonymous: as for a missing match
    watching = client.get(f"{detail}?watch={match.watch_token}")
    assert watching.status_code == 200
    assert match.invite_token not in watching.content.decode()
    assert match.watch_token not in watching.content.decode().replace(
        f"watch={match.watch_token}", ""
    )


def test_match_summary_of_a_started_match_leads_to_the_table(client: Client, ana: Any) -> None:
    match = create(ana, "casual")
    table = reverse("games:table", args=[match.pk])
    detail = reverse("games:detail", args=[match.pk])
    assert f'href="{table}"' in signed_in(ana).get(detail).content.decode()
    watching = client.get(f"{detail}?watch={match.watch_token}").content.decode()
    assert f'href="{table}?watch={match.watch_token}"' in watching
    waiting = create(ana, "human")
    page = signed_in(ana).get(reverse("games:detail", args=[waiting.pk])).content.decode()
    assert "Go to the table" not in page  # the table of a waiting match is this page
