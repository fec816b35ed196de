"""Hostile requests on the history pages: random positions, ids, names, methods and files.
Nothing is a server error, read-only pages refuse other methods, strangers learn nothing,
and a round being played is never drawn (R24)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.games.matches import create, play

pytestmark = pytest.mark.django_db

junk = st.one_of(
    st.text(max_size=12),
    st.integers(-(10**12), 10**12).map(str),
    st.sampled_from(["", "0", "13", "99999999"]),
)


@pytest.fixture
def scene(make_user: Any) -> dict[str, Any]:
    ana, ben = make_user("ana"), make_user("ben")
    boss = make_user("boss", is_staff=True, is_superuser=True)
    match = play(create(ana, "casual", seed=17), 12)  # round 1 being played
    clients = {}
    for name, user in (("ana", ana), ("ben", ben), ("boss", boss), ("anon", None)):
        c = Client()
        if user is not None:
            c.force_login(user)
        clients[name] = c
    return {"match": match, "clients": clients}


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rnd=junk, step=junk, who=st.sampled_from(["ana", "ben", "boss", "anon"]))
def test_random_positions_never_fail_nor_draw_a_live_round(
    scene: dict[str, Any], rnd: str, step: str, who: str
) -> None:
    match = scene["match"]
    client = scene["clients"][who]
    query = urlencode({"round": rnd, "step": step})
    for path in (
        f"/m/{match.pk}/replay/?{query}",
        f"/m/{match.pk}/replay/step/?{query}",
        f"/admin/games/match/{match.pk}/replay/?{query}",
    ):
        response = client.get(path)
        assert response.status_code < 500, path
        assert '<div class="reveal' not in response.content.decode(), path


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    name=st.text(min_size=1, max_size=30).filter(lambda s: "/" not in s and "\x00" not in s),
    page=junk,
)
def test_player_pages_take_any_name_and_page(scene: dict[str, Any], name: str, page: str) -> None:
    client = scene["clients"]["ben"]
    from urllib.parse import quote

    response = client.get(f"/players/{quote(name)}/?" + urlencode({"page": page}))
    assert response.status_code in (200, 404)
    assert client.get("/players/ana/?" + urlencode({"page": page})).status_code == 200


def test_read_only_pages_refuse_other_methods(scene: dict[str, Any]) -> None:
    match = scene["match"]
    client = scene["clients"]["ana"]
    for path in (
        f"/m/{match.pk}/replay/",
        f"/m/{match.pk}/replay/step/",
        "/players/",
        "/players/ana/",
    ):
        for method in ("post", "put", "delete", "patch"):
            assert getattr(client, method)(path).status_code == 405, (method, path)
