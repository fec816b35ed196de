"""Smaller points of the site, each with its check: the computers' level shown at the table,
the lobby's open tables above the create form, the leaderboard's order said in plain words, a
replay that names the match's own pace, and every name written as the one name element."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.history import boards
from games.history.replays import round_replay
from games.models import Match
from tests.games.matches import create, play_rounds


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "word"), [("en", "Expert"), ("es", "Experto"), ("de", "Experte")])
def test_the_table_shows_the_computers_level(
    ana: Any, ana_client: Client, lang: str, word: str
) -> None:
    match = create(ana, "expert", "beginner")
    ana_client.cookies["django_language"] = lang
    html = ana_client.get(f"/m/{match.pk}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert (
        f'<span class="train__level" title="{word}"><span class="train__sep"> · </span>{word}</span>'
        in html
    )
    assert html.count('class="train__level"') == 2  # two computers; ana's seat has none


@pytest.mark.django_db
def test_the_lobby_lists_open_tables_above_the_create_form(ana_client: Client) -> None:
    html = ana_client.get("/lobby/").content.decode()
    assert 0 < html.index('aria-labelledby="open"') < html.index('aria-labelledby="create"')


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_the_leaderboard_says_its_order_in_plain_words(ana_client: Client, lang: str) -> None:
    ana_client.cookies["django_language"] = lang
    text = ana_client.get(
        reverse("history:leaderboard"), HTTP_ACCEPT_LANGUAGE=lang
    ).content.decode()
    for jargon in (
        "three times",
        "uncertainty",
        "tres veces",
        "incertidumbre",
        "dreimal",
        "Unsicherheit",
    ):
        assert jargon not in text
    assert {"en": "cautious", "es": "prudente", "de": "vorsichtig"}[lang] in text


@pytest.mark.django_db
def test_a_replay_shows_no_pace(ana: Any) -> None:
    """The computers' pace was the live table's: a replay moves as its reader steps, so its top
    bar says nothing of a pace ("Computers: Fast" read as if the replay had one)."""
    match = create(ana, "casual", seed=4242)
    Match.objects.filter(pk=match.pk).update(pace=Match.Pace.FAST)
    match = play_rounds(Match.objects.get(pk=match.pk), 2)
    replay = round_replay(match, 1)
    with translation.override("en"):
        html = str(boards.step_html(replay, 0))
        live = str(boards.step_html(replay, 0, hands=False))
    assert "Computers:" not in html and "badge--pace" not in html
    assert "Computers: Fast" in live  # what its spectators saw at the table


@pytest.mark.django_db
def test_names_in_the_lists_are_the_name_element(ana: Any, ana_client: Client) -> None:
    create(ana, "human", seed=5)
    html = ana_client.get("/lobby/").content.decode()
    assert (
        '<bdi class="pname" title="ana">ana</bdi>' in html
    )  # the account menu, and the listed seat


@pytest.mark.django_db
def test_the_site_menu_counts_the_matches_waiting_for_my_move_on_every_page(
    ana: Any, ben: Any
) -> None:
    from games import services
    from games.reads.queries import match_summary, your_turn_count

    matches = []
    for seed in (7, 8, 9):
        match = create(ana, "human", seed=seed)
        services.seat_join(match_id=match.pk, user=ben)
        matches.append(Match.objects.prefetch_related("seats__user").get(pk=match.pk))
    waiting = {u: sum(match_summary(m, u).your_turn for m in matches) for u in (ana, ben)}
    assert waiting[ana] + waiting[ben] == 3  # one of the two is to confirm each engine (R7)
    for user in (ana, ben):
        assert your_turn_count(user) == waiting[user]
        client = Client()
        client.force_login(user)
        for path in (
            "/",
            "/lobby/",
            "/rules/",
            reverse("history:leaderboard"),
            f"/m/{matches[0].pk}/",
        ):
            html = client.get(path).content.decode()
            badge = f'<span class="navbadge" aria-hidden="true">{waiting[user]}</span>'
            assert (badge in html) == bool(waiting[user]), (user, path)
            assert ('class="navbadge' in html) == bool(waiting[user]), (user, path)


@pytest.mark.django_db
def test_the_lobby_shows_the_matches_to_watch_before_the_create_form(
    ana: Any, ana_client: Client, client: Client
) -> None:
    """ "Watch a game" came last, far down the page under the create form."""
    create(ana, "expert", "beginner")  # a listed match being played
    for reader in (ana_client, client):  # a player, and a visitor
        html = reader.get("/lobby/").content.decode()
        assert (
            0
            < html.index('aria-labelledby="open"')
            < html.index('aria-labelledby="live"')
            < html.index('aria-labelledby="create"')
        )
