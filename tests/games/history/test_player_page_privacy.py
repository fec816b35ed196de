"""A player's page lists only the matches the viewer may open.

Before: /players/<name>/ listed every finished match of the player (ids, opponents,
totals) to every signed-in user, with replay links that answered 404 to all but the
match's players. Decided like lichess: a viewer is shown the matches they may replay
(games.permissions.may_look_back_q, the same answer as `may(..., LOOK_BACK, ...)`),
so nobody is shown a link that 404s; the stats still count every match, naming none.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from games import permissions
from games.models import Match
from games.permissions import Action as Can
from tests.games.history.fabricate import finished_match

pytestmark = pytest.mark.django_db


def client_for(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def replay_links(html: str) -> set[int]:
    return {int(pk) for pk in re.findall(r'href="/m/(\d+)/replay/"', html)}


def test_a_players_page_shows_each_viewer_only_the_matches_they_may_open(make_user: Any) -> None:
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    with_ben = finished_match([ana, ben], seed=1)
    with_cy = finished_match([ana, cy], seed=2)
    alone = finished_match([ana, "casual"], seed=3)
    staff = make_user("staff")
    staff.is_staff = True
    staff.save()
    staff.user_permissions.add(Permission.objects.get(codename="view_match"))
    expected = {
        ana: {with_ben.pk, with_cy.pk, alone.pk},
        ben: {with_ben.pk},
        cy: {with_cy.pk},
        make_user("dora"): set(),
        staff: {with_ben.pk, with_cy.pk, alone.pk},
    }
    for viewer, shown in expected.items():
        client = client_for(viewer)
        html = client.get("/players/ana/").content.decode()
        assert replay_links(html) == shown, viewer.username
        for pk in replay_links(html):  # every link shown opens
            assert client.get(f"/m/{pk}/replay/").status_code == 200
        for pk in {with_ben.pk, with_cy.pk, alone.pk} - shown:  # and those not shown would not
            assert client.get(f"/m/{pk}/replay/").status_code == 404
            assert f"Match {pk}" not in html
        # the record still counts every match
        assert '<dd id="stat-matches">3</dd>' in html


def test_the_filter_answers_as_the_permission_does(make_user: Any) -> None:
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    matches = [
        finished_match([ana, ben], seed=4),
        finished_match([ben, "casual"], seed=5),
        finished_match([cy, ana], seed=6),
    ]
    for viewer in (ana, ben, cy, make_user("dora")):
        listed = set(
            Match.objects.filter(permissions.may_look_back_q(viewer)).values_list("pk", flat=True)
        )
        assert listed == {m.pk for m in matches if permissions.may(viewer, Can.LOOK_BACK, m)}
