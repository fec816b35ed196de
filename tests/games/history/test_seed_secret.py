"""A match's seed is every deal of it (R4: the deal of round r is a function of the seed
and r), so while the match is played it is every live hand: nobody sees it — staff and
superusers included — on the admin's list, match page, replay page, search or export,
nor on the players' replay page; once the match is over it is shown."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import permissions
from games.models import Match
from games.permissions import Action
from tests.games.matches import create, play, play_rounds

pytestmark = pytest.mark.django_db

#: a seed no page shows by chance
SEED = 918273645


def over(match: Match) -> Match:
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED, finished_at=timezone.now()
    )
    match.refresh_from_db()
    return match


def pages(client: Client, match: Match) -> dict[str, str]:
    """Every admin page that could show the seed, as HTML."""
    return {
        "list": client.get(reverse("admin:games_match_changelist")).content.decode(),
        "change": client.get(reverse("admin:games_match_change", args=[match.pk])).content.decode(),
        "replay": client.get(reverse("admin:games_match_replay", args=[match.pk])).content.decode(),
    }


def test_the_admin_hides_a_live_matchs_seed_and_shows_it_once_over(
    admin_client_: Client, ana: Any
) -> None:
    match = play(play_rounds(create(ana, "casual", seed=SEED), 2), 3)  # round 1 ended, round 2 live
    assert match.status == Match.Status.PLAYING
    for name, html in pages(admin_client_, match).items():
        assert str(SEED) not in html, name
    assert "hidden until the match is over" in pages(admin_client_, match)["change"]
    assert (
        admin_client_.get(reverse("admin:games_match_export", args=[match.pk])).status_code == 403
    )
    over(match)
    for name, html in pages(admin_client_, match).items():
        assert str(SEED) in html, name
    export = admin_client_.get(reverse("admin:games_match_export", args=[match.pk]))
    assert export.status_code == 200 and json.loads(export.content)["seed"] == SEED


def test_the_admin_search_finds_a_match_by_seed_only_once_it_is_over(
    admin_client_: Client, ana: Any
) -> None:
    match = play(create(ana, "casual", seed=SEED), 3)
    url = reverse("admin:games_match_changelist") + f"?q={SEED}"
    assert [
        m.pk for m in admin_client_.get(url).context["cl"].result_list
    ] == []  # no oracle for guesses
    over(match)
    assert [m.pk for m in admin_client_.get(url).context["cl"].result_list] == [match.pk]


def test_the_players_replay_of_a_live_match_shows_no_seed(ana_client: Client, ana: Any) -> None:
    match = play(play_rounds(create(ana, "casual", seed=SEED), 2), 3)
    page = ana_client.get(reverse("history:replay", args=[match.pk]) + "?round=1&step=2")
    assert page.status_code == 200 and str(SEED) not in page.content.decode()
    step = ana_client.get(reverse("history:replay_step", args=[match.pk]) + "?round=1&step=2")
    assert str(SEED) not in step.content.decode()


def test_nobody_may_see_the_seed_or_export_while_the_match_is_played(
    make_user: Any, ana: Any
) -> None:
    root = make_user("root", is_staff=True, is_superuser=True)
    match = play(create(ana, "casual", seed=SEED), 3)
    for user in (ana, root):
        assert not permissions.may(user, Action.SEE_SEED, match)
        assert not permissions.may(user, Action.EXPORT, match)
        assert permissions.may(user, Action.LOOK_BACK, match)  # its ended rounds, without the seed
    over(match)
    for user in (ana, root):
        assert permissions.may(user, Action.SEE_SEED, match) and permissions.may(
            user, Action.EXPORT, match
        )
