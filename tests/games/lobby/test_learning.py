"""Learning as you play, over HTTP: the table's tips data (only for a signed-in player,
none once turned off), "What can I do?" listing the open actions, the How-to-play page
and the rules page (plain sentences, rule ids only as anchors)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from accounts.models import Preferences
from games import services
from games.lobby.learn import TIPS
from games.reads import selectors
from games.services import SeatSpec
from games.words.rules import RULES
from tests import seeded
from tests.i18n_helpers import english_leaks, visible_text

pytestmark = pytest.mark.django_db


def client_for(user: Any = None, lang: str = "en") -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    if user is not None:
        client.force_login(user)
    return client


def vs_computers(user: Any, seed: int = 7) -> Any:
    return seeded.match_create(
        creator=user, seats=[SeatSpec("me")] + [SeatSpec("computer", level="casual")] * 3, seed=seed
    )


def tips_of(html: str) -> dict[str, Any]:
    found = re.search(r'<script id="table-tips" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the table page carries its tips"
    return json.loads(found.group(1))


def test_the_table_lists_the_tips_still_to_show_the_player(ana: Any) -> None:
    match = vs_computers(ana)
    client = client_for(ana)
    data = tips_of(client.get(f"/m/{match.pk}/").content.decode())
    assert data["off"] is False and [t["id"] for t in data["tips"]] == [t[0] for t in TIPS]
    assert all(
        t["rule"] == f"R{int(t['rule'][1:])}" for t in data["tips"]
    )  # the rules page's anchors
    assert data["url"] == "/accounts/tips/" and data["csrf"]
    client.post("/accounts/tips/", {"tip": "engine"})
    assert "engine" not in [
        t["id"] for t in tips_of(client.get(f"/m/{match.pk}/").content.decode())["tips"]
    ]
    client.post("/accounts/tips/", {"off": "1"})
    data = tips_of(client.get(f"/m/{match.pk}/").content.decode())
    assert data["off"] is True and data["tips"] == []
    assert Preferences.objects.get(user=ana).tips_off


def test_a_spectator_gets_no_tips(ana: Any) -> None:
    match = vs_computers(ana)
    data = tips_of(client_for().get(f"/m/{match.pk}/?watch={match.watch_token}").content.decode())
    assert data["off"] is True and data["tips"] == []


@pytest.mark.parametrize("lang", ["es", "de"])
def test_the_tips_are_translated(ana: Any, lang: str) -> None:
    match = vs_computers(ana)
    data = tips_of(client_for(ana, lang).get(f"/m/{match.pk}/").content.decode())
    with translation.override("en"):
        english = {str(text) for _id, _title, text, _rule in TIPS}
    assert data["tips"] and not english & {t["text"] for t in data["tips"]}


def test_what_can_i_do_lists_the_open_actions_in_words(ana: Any) -> None:
    for seed in range(1, 40):  # a deal where Ana holds the engine: her turn at once
        match = vs_computers(ana, seed)
        if selectors.match_state(match).turn == 0:
            break
    html = client_for(ana).get(f"/m/{match.pk}/").content.decode()
    can = html[html.index("data-cando") :]
    can = can[: can.index("</details>")]
    assert "Confirm the engine double" in can
    services.action_submit(
        match_id=match.pk,
        user=ana,
        seat=0,
        action={"seat": 0, "act": "engine"},
        expected_version=match.version,
        request_id="learn-1",
    )
    html = client_for(ana).get(f"/m/{match.pk}/").content.decode()
    can = html[html.index("data-cando") :]
    can = can[: can.index("</details>")]
    playable = re.findall(r'class="htile[^"]*htile--playable[^"]*"\s+data-tile="([^"]+)"', html)
    assert "Confirm the engine double" not in can
    if playable:
        assert "These tiles fit now" in can
        assert can.count('class="tile ') == len(playable)
    else:
        assert "Pass (P)" in can


@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_how_to_play_walks_through_a_drawn_round_linked_to_the_rules(lang: str) -> None:
    html = client_for(lang=lang).get("/how-to-play/").content.decode()
    assert html.count('class="tile ') >= 25  # drawn tiles, not a text
    for rid in ("R3", "R6", "R8", "R10", "R13", "R19", "R15", "R21", "R5"):
        assert f'href="/rules/#{rid}"' in html
    assert 'action="/play/computers/"' in html
    if lang != "en":
        assert english_leaks(html, lang) == []


@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_the_rules_page_has_plain_sentences_and_anchors_by_rule_id(lang: str) -> None:
    html = client_for(lang=lang).get("/rules/").content.decode()
    for rid, _text in RULES:
        assert f'id="{rid}"' in html
    assert not re.search(r"\bR\d{1,2}\b", visible_text(html))
    assert 'href="/how-to-play/"' in html
