"""After an engine search (R6: nobody was dealt the engine double, so tiles were drawn in turn
until someone drew it) the hands hold far more than a deal's tiles and the boneyard is nearly
empty: the table says why in plain words while the engine waits and in the first turns, to the
players and to spectators, in their language, and says nothing of it once play goes on."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from engine import rules
from games.reads import selectors
from tests.games.matches import create, step

pytestmark = pytest.mark.django_db

#: the first seed whose round 1 for two seats begins with an engine search
SEED = next(s for s in range(1, 100) if rules.new_match_round(2, s).search)


def banner(html: str) -> str:
    found = re.search(r'<p class="banner banner--search"[^>]*>(.*?)</p>', html, re.S)
    return " ".join(found.group(1).split()) if found else ""


def test_the_table_says_why_the_hands_are_big_after_an_engine_search(
    ana: Any, ana_client: Client
) -> None:
    match = create(ana, "casual", seed=SEED)
    drawn = len(rules.new_match_round(2, SEED).search)
    words = banner(ana_client.get(f"/m/{match.pk}/").content.decode())
    assert words.startswith("Nobody was dealt the 12-12, so everyone drew one tile at a time"), (
        words
    )
    assert f"The {drawn} tiles drawn went into the hands" in words, words
    assert not re.search(r"\bR\d+\b", words)
    spectator = (
        Client().get(f"/m/{match.pk}/watch/{match.watch_token}/", follow=True).content.decode()
    )
    assert banner(spectator) == words
    es = Client()
    es.force_login(ana)
    es.cookies["django_language"] = "es"
    assert banner(es.get(f"/m/{match.pk}/").content.decode()).startswith("Nadie")
    # Once the first turns are over, play goes on without it.
    for _ in range(300):  # a first turn of 40 tiles in hand may be a long chain
        if selectors.match_state(match).phase == "play":
            break
        step(match)
    assert selectors.match_state(match).phase == "play"
    assert banner(ana_client.get(f"/m/{match.pk}/").content.decode()) == ""


def test_a_deal_with_the_engine_double_in_a_hand_says_nothing_of_a_search(
    ana: Any, ana_client: Client
) -> None:
    seed = next(s for s in range(1, 100) if not rules.new_match_round(2, s).search)
    match = create(ana, "casual", seed=seed)
    assert banner(ana_client.get(f"/m/{match.pk}/").content.decode()) == ""
