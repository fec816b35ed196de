"""R31 match length on the site: chosen at creation (13 rounds from 12-12 by default, or a
shorter match from a lower double), stored on the match, dealt from the seed and each
round's engine double, played to its end, exported, checked, counted in stats and
ratings, and shown as such in the lobby, the table and the history."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from engine.deal import ROUNDS, seeded_deal
from engine.replay import run_replay
from engine.serialize import start_from_json
from games import services
from games.errors import GameError
from games.history import checks
from games.history.models import PlayerStats
from games.lobby.forms import MatchCreateForm
from games.models import Match, Round
from games.reads import selectors
from games.reads.queries import replay_differences
from games.services import SeatSpec
from games.table.commands.play_again import again_answer
from tests import seeded
from tests.games.matches import play, play_rounds, request_id

pytestmark = pytest.mark.django_db


def post(client: Client, **fields: Any) -> Any:
    data: dict[str, Any] = {
        "seed": "",
        "seat_2_kind": "casual",
        "seat_2_name": "",
        "pace": "instant",
    }
    data.update(fields)
    return client.post(reverse("games:create"), data)


def short(creator: Any, *others: Any, rounds: int = 7, seed: int = 7, listed: bool = True) -> Match:
    """A match of `rounds` rounds: the creator, then a person (a user) or a computer level each."""
    seats = [SeatSpec(kind="me")]
    for other in others:
        seats.append(
            SeatSpec(kind="computer", level=other)
            if isinstance(other, str)
            else SeatSpec(kind="human")
        )
    match = seeded.match_create(
        creator=creator, seats=seats, seed=seed, listed=listed, pace="instant", rounds=rounds
    )
    for seat, other in enumerate(others, start=1):
        if not isinstance(other, str):
            services.seat_join(
                match_id=match.pk, user=other, token=match.invite_token, seat_index=seat
            )
    match.refresh_from_db()
    return match


def play_to_the_end(match: Match) -> Match:
    while play(match, 500).status != Match.Status.FINISHED:
        pass
    return match


# ------------------------------------------------------------------ creating


def test_r31_the_create_form_offers_every_length_with_the_standard_first(
    ana_client: Client,
) -> None:
    form = MatchCreateForm()
    assert [value for value, _label in form.fields["length"].choices] == list(range(13, 0, -1))
    assert form.fields["length"].initial == 13
    page = ana_client.get(reverse("games:create")).content.decode()
    for words in (
        "13 rounds from 12-12 (standard)",
        "10 rounds from 9-9",
        "7 rounds from 6-6",
        "1 round from 0-0",
    ):
        assert words in page


def test_r31_a_match_created_from_six_six_has_seven_rounds_and_deals_from_its_double(
    ana_client: Client,
) -> None:
    response = post(ana_client, length="7", seed="42")
    match = Match.objects.get()
    assert response.status_code == 302 and match.length == 7
    state = selectors.match_state(match)
    assert (state.round, state.rounds, state.engine) == (1, 7, 6)
    # R31: round 1 (6-6) deals what round 7 of a standard match from the same seed deals
    start = start_from_json(Round.objects.get(match=match, number=1).start)
    assert start.deal == seeded_deal(42, ROUNDS - 6, 2) and start.rounds == 7
    table = ana_client.get(reverse("games:table", args=[match.pk])).content.decode()
    assert "Round 1 of 7" in table


def test_r31_a_page_that_sends_no_length_creates_the_standard_match(ana_client: Client) -> None:
    post(ana_client)
    match = Match.objects.get()
    assert match.length == 13 and selectors.match_state(match).engine == 12


@pytest.mark.parametrize("value", ["0", "14", "seven", "-3"])
def test_r31_a_length_that_is_none_is_refused_and_creates_nothing(
    ana_client: Client, value: str
) -> None:
    response = post(ana_client, length=value)
    assert response.status_code == 200 and not Match.objects.exists()
    assert "length" in response.context["form"].errors


@pytest.mark.parametrize("value", [0, 14, "x", None, True, 6.5])
def test_r31_the_service_refuses_a_length_that_is_none(ana: Any, value: object) -> None:
    with pytest.raises(GameError) as refused:
        services.match_create(
            creator=ana,
            seats=[SeatSpec(kind="me"), SeatSpec(kind="computer", level="casual")],
            rounds=value,
        )
    assert refused.value.code == "bad_request" and "1 to 13 rounds" in refused.value.message
    assert not Match.objects.exists()


def test_r31_quick_play_keeps_the_standard_match(client: Client) -> None:
    client.post(reverse("games:play_computers"))
    assert Match.objects.get().length == 13


# ------------------------------------------------------------------ showing


def test_r31_the_lobby_and_my_matches_show_a_shorter_match_as_such(
    ana: Any, ben: Any, ana_client: Client
) -> None:
    seven = services.match_create(
        creator=ana, seats=[SeatSpec(kind="me"), SeatSpec(kind="human")], listed=True, rounds=7
    )
    standard = services.match_create(
        creator=ana, seats=[SeatSpec(kind="me"), SeatSpec(kind="human")], listed=True
    )
    lobby = Client().get(reverse("games:lobby")).content.decode()  # a visitor: no create form
    assert f"/{seven.pk}/" in lobby and f"/{standard.pk}/" in lobby
    assert (
        lobby.count("7 rounds from 6-6") == 1 and "rounds from 12-12" not in lobby
    )  # the standard: nothing said
    mine = ana_client.get(reverse("games:my_matches")).content.decode()
    assert "7 rounds from 6-6" in mine
    detail = ana_client.get(reverse("games:detail", args=[seven.pk])).content.decode()
    assert "7 rounds from 6-6" in detail
    assert (
        "rounds from"
        not in ana_client.get(reverse("games:detail", args=[standard.pk])).content.decode()
    )
    for lang, words in (("es", "7 rondas desde el 6-6"), ("de", "7 Runden ab 6-6")):
        reader = Client()
        reader.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
        assert words in reader.get(reverse("games:lobby")).content.decode()


def test_r31_the_rules_page_says_a_shorter_match_may_be_chosen(client: Client) -> None:
    page = client.get(reverse("games:rules")).content.decode()
    assert 'id="R31"' in page and "from the double 6, 7 rounds" in page
    assert "After the last round the lowest total wins" in page


# ------------------------------------------------------------------ played to the end


@pytest.mark.slow
def test_r31_a_seven_round_match_from_six_six_played_to_the_end_is_replayed_checked_and_rated(
    ana: Any, ben: Any, ana_client: Client
) -> None:
    """Two people whose every move a computer player chooses (tests.games.matches.step):
    seven rounds, 6-6 down to 0-0; the export replays to the stored end, the admin's check
    finds it the same, the stats count seven rounds and the rating moves (a match of people)."""
    match = short(ana, ben, rounds=7, seed=2026)
    assert play_rounds(match, 2).round_number == 2
    state = selectors.match_state(match)
    assert (state.round, state.engine) == (2, 5)
    play_to_the_end(match)
    rounds = list(Round.objects.filter(match=match).order_by("number"))
    assert [r.number for r in rounds] == list(range(1, 8)) and match.round_number == 7
    assert [start_from_json(r.start).deal for r in rounds] == [
        seeded_deal(2026, ROUNDS - e, 2) for e in range(6, -1, -1)
    ]
    end = selectors.match_state(match)
    assert end.phase == "match_over" and end.engine == 0 and list(end.totals) == rounds[-1].totals
    # its replay file: "rounds": 7, replays to the stored end; the admin's check of it finds no difference
    doc = selectors.match_replay_doc(match)
    assert doc["rounds"] == 7
    out = run_replay(doc)
    assert out["error"] is None and (out["phase"], out["round"], out["rounds"]) == (
        "match_over",
        7,
        7,
    )
    assert out["totals"] == rounds[-1].totals
    assert replay_differences(match) == []
    assert checks.first_divergence(doc, doc).same
    standard_file = {k: v for k, v in doc.items() if k != "rounds"}
    check = checks.first_divergence(doc, standard_file)
    assert (check.kind, check.message) == ("start", "rounds")
    # stats: seven rounds each, the average per round over seven; the rating moved (people only)
    for seat, user in enumerate((ana, ben)):
        st = PlayerStats.objects.get(user=user)
        mine = [r.points[seat] for r in rounds]
        assert (st.matches, st.rounds, st.penalty_sum) == (1, 7, sum(mine))
        assert st.average_penalty == pytest.approx(sum(mine) / 7)
        assert st.rated_matches == 1 and st.rating_mu is not None
    # history says what it was
    history = ana_client.get(reverse("history:player", args=["ana"])).content.decode()
    assert "7 rounds from 6-6" in history
    replay_page = ana_client.get(reverse("history:replay", args=[match.pk])).content.decode()
    assert replay_page.count('class="chart__x"') == 7  # the score chart's x axis: rounds 1 to 7


def test_r31_r29_a_two_round_match_against_a_computer_ends_and_the_next_match_keeps_its_length(
    ana: Any,
) -> None:
    match = short(ana, "expert", rounds=2, seed=5)
    play_to_the_end(match)
    end = selectors.match_state(match)
    assert (end.phase, end.round, end.engine) == ("match_over", 2, 0)
    st = PlayerStats.objects.get(user=ana)
    assert (st.matches, st.rounds, st.rated_matches) == (1, 2, 0)
    again_answer(match_id=match.pk, user=ana, accept=True, request_id=request_id())
    nxt = selectors.next_match(match)
    assert nxt is not None and nxt.length == 2 and selectors.match_state(nxt).engine == 1


def test_r31_the_table_says_round_r_of_n_and_the_next_round_of_n(
    ana: Any, ana_client: Client
) -> None:
    match = short(ana, "casual", rounds=3, seed=9)
    while selectors.match_state(match).phase != "round_over":
        play(match, 1)
    page = ana_client.get(reverse("games:table", args=[match.pk])).content.decode()
    assert "Round 1 of 3" in page and "Next round (2 / 3)" in page
