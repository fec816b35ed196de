"""The table page (/m/<id>/) and the rules page (/rules/) over HTTP (PostgreSQL).

Matches are made through the services, as the site makes them.
"""

from __future__ import annotations

import re
import uuid

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from engine.serialize import state_from_json
from games import services
from games.board.draw import board_html, seat_infos
from games.board.presenter import present
from games.board.viewer import Viewer
from games.models import Match
from games.services import SeatSpec
from games.table import board
from games.words.rules import RULES
from tests import seeded
from tests.i18n_helpers import english_leaks, visible_text


def client_for(user=None, lang="en"):
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def ana(django_user_model):
    return django_user_model.objects.create_user("ana")


@pytest.fixture
def ben(django_user_model):
    return django_user_model.objects.create_user("ben")


def vs_computers(user, n=3, seed=7):
    seats = [SeatSpec("me")] + [SeatSpec("computer", level="casual") for _ in range(n)]
    return seeded.match_create(creator=user, seats=seats, seed=seed)


def hand_tiles(html):
    return re.findall(r'data-tile="([^"]+)"', html)


def spoken(tile):
    return f"{max(tile)}-{min(tile)}"


@pytest.mark.django_db
def test_a_player_sees_their_own_hand_and_nobody_elses(ana):
    match = vs_computers(ana)
    html = client_for(ana).get(reverse("games:table", args=[match.pk])).content.decode()
    state = state_from_json(Match.objects.get(pk=match.pk).state)
    assert sorted(hand_tiles(html)) == sorted(spoken(t) for t in state.hands[0])
    assert f'data-ws-path="/ws/m/{match.pk}/"' in html
    assert "board-strings" in html and "js/table.js" in html
    assert "Computer 2" in html  # computer seats named for the table


@pytest.mark.django_db
def test_r24_spectators_need_the_token_and_see_no_hand(ana, ben):
    match = vs_computers(ana)
    url = reverse("games:table", args=[match.pk])
    assert client_for(ben).get(url).status_code == 404  # a stranger: the match is not told
    # Anonymous too, exactly as for a match that does not exist (no id oracle).
    assert client_for().get(url).status_code == 404
    assert client_for().get(reverse("games:table", args=[match.pk + 1000])).status_code == 404
    html = client_for(ben).get(url, {"watch": match.watch_token}).content.decode()
    assert "Watching" in html and not hand_tiles(html)
    assert f'data-watch="{match.watch_token}"' in html
    html = client_for().get(url, {"watch": match.watch_token}).content.decode()
    assert "Watching" in html and not hand_tiles(html)
    assert client_for(ben).get(url, {"watch": "wrong"}).status_code == 404


@pytest.mark.django_db
def test_a_waiting_match_sends_you_to_its_page(ana):
    match = seeded.match_create(creator=ana, seats=[SeatSpec("me"), SeatSpec("human")], seed=3)
    response = client_for(ana).get(reverse("games:table", args=[match.pk]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("games:detail", args=[match.pk]))


@pytest.mark.django_db
def test_r24_pass_and_play_shows_the_relay_cover_first(ana):
    seats = [
        SeatSpec("local", name="Ana"),
        SeatSpec("local", name="Ben"),
        SeatSpec("computer", level="casual"),
    ]
    match = seeded.match_create(creator=ana, seats=seats, seed=5)
    state = state_from_json(match.state)
    html = client_for(ana).get(reverse("games:table", args=[match.pk])).content.decode()
    if state.turn in (0, 1):
        assert f'data-reveal="{state.turn}"' in html
    assert not hand_tiles(html)


@pytest.mark.django_db
def test_render_board_and_message_for_the_consumer(ana):
    match = vs_computers(ana)
    match = Match.objects.get(pk=match.pk)
    viewer = Viewer(user=ana, controlled=(0,))
    message = board.board_message(match=match, viewer=viewer)
    assert message["type"] == "board" and message["version"] == match.version
    assert isinstance(message["your_turn"], bool) and message["title"]
    assert f'data-version="{match.version}"' in message["html"]
    from games.reads import selectors

    seat_view = selectors.seat_view(match, 0)
    html = board_html(
        present(
            seat_view,
            seat_infos(match),
            viewer=viewer,
            flags=board.match_flags(match, viewer, seat_view),
        )
    )
    assert hand_tiles(html) == hand_tiles(message["html"])
    spectator = board.board_message(match=match, viewer=Viewer())
    assert not hand_tiles(spectator["html"]) and not spectator["your_turn"]


@pytest.mark.django_db
def test_log_panel_lists_actions_in_words_without_drawn_tiles(ana):
    match = vs_computers(ana, n=1)
    state = state_from_json(match.state)
    version = match.version
    # Play the round forward: the human seat by its first legal action, computers by their steps.
    from engine.rules import legal_actions

    for _ in range(60):
        match.refresh_from_db()
        state = state_from_json(match.state)
        if state.over:
            break
        if state.turn == 0:
            action = legal_actions(state)[0]
            services.action_submit(
                match_id=match.pk,
                user=ana,
                seat=0,
                action=action.to_json(),
                expected_version=match.version,
                request_id=uuid.uuid4().hex,
            )
        else:
            services.computer_step(match_id=match.pk)
    match.refresh_from_db()
    assert match.version > version
    html = board.render_log(match=match, viewer_seat=0)
    text = visible_text(html)
    assert "Round 1" in text
    assert "placed the engine" in text
    assert "drew a tile" not in text or not re.search(r"drew a tile \d", text)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_rules_page_lists_r1_to_r31(lang):
    html = client_for(lang=lang).get(reverse("games:rules")).content.decode()
    for rid, _text in RULES:
        assert f'id="{rid}"' in html
    assert [rid for rid, _ in RULES][:31] == [f"R{i}" for i in range(1, 32)]
    if lang != "en":
        assert not english_leaks(html, lang)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_the_table_drawer_fetches_the_same_rules_in_the_page_language(ana, lang):
    """The table page carries only a link to the rules; its drawer fetches their text when it
    opens (static/js/panels.js): the rules page's list, anchors prefixed, in the reader's language."""
    match = vs_computers(ana)
    client = client_for(ana, lang)
    table = client.get(reverse("games:table", args=[match.pk])).content.decode()
    assert 'id="panel-R1"' not in table and f'data-src="{reverse("games:rules_panel")}"' in table
    panel = client.get(reverse("games:rules_panel"))
    html = panel.content.decode()
    assert [rid for rid, _ in RULES if f'id="panel-{rid}"' in html] == [rid for rid, _ in RULES]
    assert {f"R{i}" for i in range(1, 32)} <= {rid for rid, _ in RULES}
    assert "<html" not in html and "max-age=3600" in panel["Cache-Control"]
    if lang != "en":
        assert not english_leaks(html, lang)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["es", "de"])
def test_table_page_has_no_english(ana, lang):
    match = vs_computers(ana)
    html = client_for(ana, lang).get(reverse("games:table", args=[match.pk])).content.decode()
    assert not english_leaks(html, lang)
    strings = re.search(
        r'<script id="board-strings" type="application/json">(.*?)</script>', html
    ).group(1)
    assert "Reconnecting" not in strings  # the script's words are translated too


@pytest.mark.django_db
def test_r26_log_panel_contents_over_http_with_the_same_access(ana, ben):
    match = vs_computers(ana, n=1)
    url = reverse("games:table_log", args=[match.pk])
    mine = client_for(ana).get(url)
    assert mine.status_code == 200
    assert (
        "Round 1" in mine.content.decode() or "Nothing has happened yet." in mine.content.decode()
    )
    assert client_for(ben).get(url).status_code == 404
    assert client_for().get(url).status_code == 404
    assert client_for(ben).get(url, {"watch": match.watch_token}).status_code == 200
    with_log = client_for(ana, "de").get(reverse("games:table", args=[match.pk])).content.decode()
    assert f'data-log-url="{url}"' in with_log
