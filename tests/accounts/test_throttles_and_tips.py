"""Throttles on creating accounts (sign-up and guests, per address), and the table's
tips kept on the account."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.utils import translation

from accounts.models import Guest, Preferences
from games import services
from games.lobby.learn import TIPS, tips_context
from games.services import SeatSpec

pytestmark = pytest.mark.django_db

User = get_user_model()
TWO_AN_HOUR = {"guest": (2, 3600), "signup": (2, 3600)}


@override_settings(ACCOUNT_THROTTLES=TWO_AN_HOUR)
def test_guest_creation_is_refused_past_the_limit_with_a_clear_message() -> None:
    for _n in range(2):
        assert Client(REMOTE_ADDR="10.0.0.1").post("/play/computers/").status_code == 302
    response = Client(REMOTE_ADDR="10.0.0.1").post("/play/computers/")
    assert response.status_code == 429
    assert "Too many guest accounts were made from your address" in response.content.decode()
    assert Guest.objects.count() == 2
    # another address is not affected
    assert Client(REMOTE_ADDR="10.0.0.2").post("/play/computers/").status_code == 302


@override_settings(ACCOUNT_THROTTLES=TWO_AN_HOUR)
def test_guest_creation_is_refused_in_spanish_too() -> None:
    for _n in range(2):
        Client(REMOTE_ADDR="10.0.0.3").post("/play/computers/")
    response = Client(REMOTE_ADDR="10.0.0.3", HTTP_ACCEPT_LANGUAGE="es").post("/play/computers/")
    assert response.status_code == 429
    assert "Too many guest accounts" not in response.content.decode()


def sign_up(name: str, address: str) -> Any:
    return Client(REMOTE_ADDR=address).post(
        "/accounts/signup/",
        {"username": name, "password1": "a long secret 42", "password2": "a long secret 42"},
    )


@override_settings(ACCOUNT_THROTTLES=TWO_AN_HOUR)
def test_sign_up_is_refused_past_the_limit_with_a_clear_message() -> None:
    assert sign_up("ana", "10.0.1.1").status_code == 302
    assert sign_up("ben", "10.0.1.1").status_code == 302
    response = sign_up("carmen", "10.0.1.1")
    assert response.status_code == 429
    assert "Too many accounts were made from your address" in response.content.decode()
    assert not User.objects.filter(username="carmen").exists()
    assert sign_up("carmen", "10.0.1.2").status_code == 302


@override_settings(ACCOUNT_THROTTLES=TWO_AN_HOUR)
def test_a_refused_sign_up_form_is_not_counted() -> None:
    for _n in range(3):
        Client(REMOTE_ADDR="10.0.1.3").post(
            "/accounts/signup/", {"username": "x", "password1": "a", "password2": "b"}
        )
    assert sign_up("dora", "10.0.1.3").status_code == 302


def test_tips_are_dismissed_one_by_one_and_then_all(ana: Any, ana_client: Client) -> None:
    ids = [t["id"] for t in tips_context(ana)["tips"]]
    assert ids == [t[0] for t in TIPS]
    assert ana_client.post("/accounts/tips/", {"tip": "engine"}).status_code == 204
    assert (
        ana_client.post("/accounts/tips/", {"tip": "engine"}).status_code == 204
    )  # repeated: no change
    assert Preferences.objects.get(user=ana).tips_seen == ["engine"]
    assert [t["id"] for t in tips_context(ana)["tips"]] == ids[1:]
    assert ana_client.post("/accounts/tips/", {"off": "1"}).status_code == 204
    assert tips_context(ana)["off"] is True and tips_context(ana)["tips"] == []


@pytest.mark.parametrize("data", [{"tip": "nonsense"}, {}, {"tip": "x" * 5000}])
def test_a_bad_tip_is_refused_and_changes_nothing(
    ana: Any, ana_client: Client, data: dict[str, str]
) -> None:
    assert ana_client.post("/accounts/tips/", data).status_code == 400
    assert not Preferences.objects.exists()


def test_tips_need_an_account_and_a_post(ana_client: Client) -> None:
    assert Client().post("/accounts/tips/", {"tip": "engine"}).status_code == 302
    assert ana_client.get("/accounts/tips/").status_code == 405


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@override_settings(ACCOUNT_THROTTLES={"guest": (10, 3600), "signup": (5, 3600)})
def test_thirty_parallel_guest_creations_make_no_more_guests_than_the_limit() -> None:
    """The count and the insert were two steps, so parallel requests from
    one address all read a count under the limit (15 guests where 10 an hour were allowed)."""
    from concurrent.futures import ThreadPoolExecutor
    from threading import Barrier

    from django.db import connections

    start = Barrier(30)

    def one(_n: int) -> int:
        try:
            client = Client(REMOTE_ADDR="10.0.9.9")
            start.wait(timeout=60)
            return client.post("/play/computers/").status_code
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=30) as pool:
        codes = list(pool.map(one, range(30)))
    assert sorted(codes) == [302] * 10 + [429] * 20
    assert Guest.objects.count() == 10


@pytest.mark.parametrize(
    ("lang", "rounds", "words"),
    [
        ("en", 13, "after 13 rounds the lowest total wins"),
        ("en", 7, "after 7 rounds the lowest total wins"),
        ("en", 1, "after 1 round the lowest total wins"),
        ("es", 7, "tras 7 rondas gana"),
        ("es", 1, "tras 1 ronda gana"),
        ("de", 7, "nach 7 Runden gewinnt"),
        ("de", 1, "nach 1 Runde gewinnt"),
    ],
)
def test_the_scoring_tip_says_the_matchs_own_length(
    ana: Any, lang: str, rounds: int, words: str
) -> None:
    """R31: a shorter match's tip says its real number of rounds ("after 13 rounds"
    in a match of 7), in each language's plural form; the engine's tip its first double."""
    with translation.override(lang):
        tips = {t["id"]: t["text"] for t in tips_context(ana, rounds=rounds)["tips"]}
    assert words in tips["scoring"]
    assert f"{rounds - 1}" in tips["engine"]
    if rounds != 13:
        assert "13" not in tips["scoring"] and "12" not in tips["engine"]


def test_the_table_page_gives_the_tips_for_its_matchs_length(ana: Any, ana_client: Client) -> None:
    match = services.match_create(
        creator=ana, seats=[SeatSpec("me"), SeatSpec("computer", level="casual")], rounds=4
    )
    page = ana_client.get(f"/m/{match.pk}/").content.decode()
    data = json.loads(
        page.split('id="table-tips" type="application/json">')[1].split("</script>")[0]
    )
    scoring = next(t["text"] for t in data["tips"] if t["id"] == "scoring")
    assert "after 4 rounds" in scoring
