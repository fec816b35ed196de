"""Every page of the lobby, my matches, join/watch and the admin replay reads in Spanish and German."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Match
from tests.games.matches import play
from tests.i18n_helpers import english_leaks

pytestmark = pytest.mark.django_db


def client_in(lang: str, user: Any) -> Client:
    client = Client(headers={"accept-language": lang})
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    "lang, words",
    [
        ("es", ["Crear una partida", "Partidas abiertas", "Continuar", "Ordenador 2", "Tu turno"]),
        ("de", ["Partie anlegen", "Offene Partien", "Fortsetzen", "Computer 2", "Dein Zug"]),
    ],
)
def test_site_games_pages_have_no_english(
    lang: str, words: list[str], ana: Any, ben: Any, make_user: Any
) -> None:
    client = client_in(lang, ana)
    # Created in the user's language: the computer is named in it too.
    # A chosen seed makes a table for the creator alone: listed afterwards, to be in the lobby.
    client.post(reverse("games:create"), {"seat_2_kind": "casual", "seed": "3"})
    playing = Match.objects.get()
    Match.objects.filter(pk=playing.pk).update(listed=True)
    client.post(
        reverse("games:create"),
        {"seat_2_kind": "human", "seat_3_kind": "expert", "seed": "", "listed": "on"},
    )
    waiting = Match.objects.exclude(pk=playing.pk).get()
    playing = play(playing, 1)  # the engine placed: now the first turns
    boss = make_user("boss", is_staff=True, is_superuser=True)

    pages = {
        "lobby": client.get(reverse("games:lobby")),
        "my matches": client.get(reverse("games:my_matches")),
        "create, errors": client.post(
            reverse("games:create"), {"seat_2_kind": "local", "seed": "-4"}
        ),
        "create, a seed beside an invited seat": client.post(
            reverse("games:create"), {"seat_2_kind": "human", "seed": "4"}
        ),
        "create, a seed for a listed table": client.post(
            reverse("games:create"), {"seat_2_kind": "casual", "seed": "4", "listed": "on"}
        ),
        "detail": client.get(reverse("games:detail", args=[waiting.pk])),
        "join": client_in(lang, ben).get(
            reverse("games:join", args=[waiting.pk, waiting.invite_token])
        ),
        "join, already": client.get(reverse("games:join", args=[waiting.pk, waiting.invite_token])),
        "join, a chosen seed": client_in(lang, ben).get(
            reverse("games:join", args=[playing.pk, playing.invite_token])
        ),
        "replay": client_in(lang, boss).get(
            reverse("admin:games_match_replay", args=[playing.pk]) + "?step=1"
        ),
        "replay, last": client_in(lang, boss).get(
            reverse("admin:games_match_replay", args=[playing.pk]) + "?step=99"
        ),
    }
    everything = ""
    for name, response in pages.items():
        assert response.status_code == 200, name
        html = response.content.decode()
        assert f'lang="{lang}"' in html, name
        assert english_leaks(html, lang) == [], name
        everything += html
    for word in words:
        assert word in everything
