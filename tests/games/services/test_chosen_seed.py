"""A chosen seed (R4) cannot be used against another player.

The deal of every round is a function of the seed alone, so a creator who chose the seed
of a match knows every hand in it. The attack: create match A with seed S and a seat for an
invited person, then match B with the same seed and a pass-and-play seat where the invited
person sits in A, and reveal it: B's hand was the invited person's hand in A, every round.
The site now takes a chosen seed only for a table without other people (the creator,
pass-and-play seats on their device, computers; not listed in the lobby), refuses every way
for a second person to sit at such a table, keeps random seeds unguessable (drawn with
`secrets` from all 2⁶³ seeds) and never rates a match whose seed was chosen.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from engine.deal import deal_round, seeded_deal
from games import services
from games.errors import BAD_REQUEST, FORBIDDEN, GameError
from games.models import Match, Round, Seat
from games.reads import selectors
from games.services import SeatSpec
from games.table.commands.play_again import again_answer
from games.words import sentence
from tests.games.matches import create

pytestmark = pytest.mark.django_db

#: the seed the creator chooses
S = 424242


def post(client: Client, rows: dict[int, tuple[str, str]], **fields: Any) -> Any:
    data: dict[str, Any] = {"seed": ""}
    for number, (kind, name) in rows.items():
        data[f"seat_{number}_kind"] = kind
        data[f"seat_{number}_name"] = name
    data.update(fields)
    return client.post(reverse("games:create"), data)


def seed_errors(response: Any) -> str:
    return " ".join(str(e) for e in response.context["form"].errors.get("seed", []))


def join_url(match: Match) -> str:
    return reverse("games:join", args=[match.pk, match.invite_token])


def deal(match: Match, number: int = 1) -> list[Any]:
    """The hands of round `number` as the match dealt them."""
    return Round.objects.get(match=match, number=number).start["hands"]


def client_of(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


# ------------------------------------------------------------------ the attack, by the forms


def test_the_seed_attack_through_the_site_is_refused(
    ana_client: Client, ana: Any, ben: Any
) -> None:
    # Match A: seed S and a seat for an invited person: refused, in plain words, nothing made.
    response = post(ana_client, {2: ("human", "")}, seed=str(S))
    assert response.status_code == 200 and not Match.objects.exists()
    assert "nobody else takes a seat" in seed_errors(response)
    assert "whoever chooses it knows every hand" in seed_errors(response)
    # Without the seed A is made, dealt from a random seed once ben joins by the link.
    response = post(ana_client, {2: ("human", "")})
    a = Match.objects.get()
    assert response.status_code == 302 and not a.seed_chosen
    response = client_of(ben).post(join_url(a), {"seat": "1"})
    assert response.status_code == 302
    a.refresh_from_db()
    assert a.status == Match.Status.PLAYING and a.seed != S
    # Match B: seed S and a pass-and-play seat where ben sits in A: taken (nobody else
    # sits there), and it deals ben's hands in A in no round.
    response = post(ana_client, {2: ("local", "Ben at home")}, seed=str(S))
    assert response.status_code == 302
    b = Match.objects.exclude(pk=a.pk).get()
    assert b.seed == S and b.seed_chosen and b.status == Match.Status.PLAYING
    assert deal(b)[1] != deal(a)[1]
    for number in range(1, 14):
        played = deal_round(number, a.length)
        assert seeded_deal(S, played, 2).hands[1] != seeded_deal(a.seed, played, 2).hands[1]


def test_a_seed_is_refused_for_a_table_listed_in_the_lobby(ana_client: Client) -> None:
    response = post(ana_client, {2: ("expert", "")}, seed=str(S), listed="on")
    assert response.status_code == 200 and not Match.objects.exists()
    assert "not listed in the lobby" in seed_errors(response)
    # The same without the listing is taken.
    assert post(ana_client, {2: ("expert", "")}, seed=str(S)).status_code == 302
    assert Match.objects.get().seed == S


@pytest.mark.parametrize("language", ["es", "de"])
def test_the_refusals_are_said_in_the_players_language(
    ana_client: Client, ana: Any, ben: Any, language: str
) -> None:
    ana_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    invited = seed_errors(post(ana_client, {2: ("human", "")}, seed=str(S)))
    listed = seed_errors(post(ana_client, {2: ("casual", "")}, seed=str(S), listed="on"))
    assert invited and listed and not Match.objects.exists()
    post(ana_client, {2: ("casual", "")}, seed=str(S))
    reader = client_of(ben)
    reader.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = reader.get(join_url(Match.objects.get())).content.decode()
    with translation.override(language):
        closed = sentence("seed_chosen_no_join")
        alone = sentence("seed_alone")
    assert closed in page
    with translation.override("en"):
        english = [sentence("seed_chosen_no_join"), sentence("seed_alone")]
    for said in (invited, listed, closed, alone):
        assert "knows every hand" not in said and said not in english


def test_a_chosen_seed_alone_with_computers_and_pass_and_play_is_reproducible(
    ana_client: Client,
) -> None:
    rows = {2: ("local", "Carmen"), 3: ("expert", ""), 4: ("beginner", "")}
    first = post(ana_client, rows, seed=str(S))
    second = post(ana_client, rows, seed=str(S))
    assert first.status_code == second.status_code == 302
    a, b = Match.objects.order_by("pk")
    assert (a.seed, b.seed) == (S, S) and a.seed_chosen and b.seed_chosen
    assert a.status == b.status == Match.Status.PLAYING and not a.listed
    assert deal(a) == deal(b)
    assert (
        Round.objects.get(match=a, number=1).start["boneyard"]
        == (Round.objects.get(match=b, number=1).start["boneyard"])
    )


# ------------------------------------------------------------------ joining a chosen-seed table


def test_nobody_joins_a_chosen_seed_match_by_its_link(
    ana_client: Client, ana: Any, ben: Any
) -> None:
    post(ana_client, {2: ("local", "Carmen"), 3: ("casual", "")}, seed=str(S))
    match = Match.objects.get()
    page = client_of(ben).get(join_url(match))
    assert page.status_code == 200 and not page.context["free_seats"]
    assert sentence("seed_chosen_no_join") in page.content.decode()
    for seat in ("0", "1", "2", ""):
        response = client_of(ben).post(join_url(match), {"seat": seat})
        assert response.status_code in (200, 409)
    assert not Seat.objects.filter(match=match, user=ben).exists()
    # A visitor without an account is not made a guest for a seat they cannot take.
    users = type(ana).objects.count()
    Client().post(join_url(match), {"seat": "1"})
    assert type(ana).objects.count() == users


def test_a_chosen_seed_match_with_a_free_seat_is_joined_by_nobody(
    ana: Any, ben: Any, make_user: Any
) -> None:
    """A match made before the rule, with a chosen seed and a free seat: the services, the
    join page and the lobby keep everyone out of it all the same."""
    match = create(ana, "human", seed=None)
    Match.objects.filter(pk=match.pk).update(seed=S, seed_chosen=True)
    match.refresh_from_db()
    for token in (match.invite_token, None):
        with pytest.raises(GameError) as info:
            services.seat_join(match_id=match.pk, user=ben, token=token)
        assert info.value.code == FORBIDDEN
    assert info.value.message == sentence("seed_chosen_no_join")
    response = client_of(ben).post(join_url(match), {"seat": "1"})
    assert sentence("seed_chosen_no_join") in response.content.decode()
    assert not Seat.objects.filter(match=match, user=ben).exists()
    assert match not in selectors.open_matches()
    # The creator still has their own seat back by the link.
    assert services.seat_join(match_id=match.pk, user=ana, token=match.invite_token).index == 0
    match.refresh_from_db()
    assert match.status == Match.Status.WAITING


@pytest.mark.parametrize(
    ("kinds", "listed"),
    [
        (["me", "human"], False),
        (["me", "computer", "human"], False),
        (["me", "computer"], True),
        (["me", "local"], True),
    ],
)
def test_the_service_refuses_a_seed_where_another_person_could_sit(
    ana: Any, kinds: list[str], listed: bool
) -> None:
    seats = [
        SeatSpec(
            k, name="Carmen" if k == "local" else "", level="casual" if k == "computer" else ""
        )  # type: ignore[arg-type]
        for k in kinds
    ]
    with pytest.raises(GameError) as info:
        services.match_create(creator=ana, seats=seats, seed=S, listed=listed)
    assert info.value.code == BAD_REQUEST and info.value.rule == "R4"
    assert not Match.objects.exists()
    # The same table with a random deal is made.
    match = services.match_create(creator=ana, seats=seats, listed=listed)
    assert not match.seed_chosen


def test_the_service_takes_a_seed_for_a_private_table_without_other_people(ana: Any) -> None:
    seats = [SeatSpec("me"), SeatSpec("local", name="Carmen"), SeatSpec("computer", level="expert")]
    match = services.match_create(creator=ana, seats=seats, seed=S, listed=False)
    assert match.seed == S and match.seed_chosen and match.status == Match.Status.PLAYING
    assert not Seat.objects.filter(match=match, kind=Seat.Kind.HUMAN, user__isnull=True).exists()


def test_the_next_match_at_a_chosen_seed_table_is_dealt_at_random(ana: Any) -> None:
    match = create(ana, "expert", seed=S, listed=False)
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED, finished_at=timezone.now()
    )
    again_answer(match_id=match.pk, user=ana, accept=True, request_id="next-1")
    new = selectors.next_match(match)
    assert new is not None and new.seed != S and not new.seed_chosen


# ------------------------------------------------------------------ the one-click doors


def test_play_now_and_play_with_friends_never_take_a_seed(client: Client) -> None:
    client.post(reverse("games:play_computers"), {"seed": str(S)})
    client.post(reverse("games:play_friends"), {"friends": "2", "seed": str(S)})
    matches = list(Match.objects.order_by("pk"))
    assert len(matches) == 2
    assert all(m.seed != S and not m.seed_chosen for m in matches)


# ------------------------------------------------------------------ random seeds


def test_random_seeds_come_from_secrets_over_every_seed(
    ana: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import games.services.matches as matches

    bounds: list[int] = []
    draw = matches.secrets.randbelow

    def randbelow(bound: int) -> int:
        bounds.append(bound)
        return draw(bound)

    monkeypatch.setattr(matches.secrets, "randbelow", randbelow)
    match = create(ana, "expert", seed=None, listed=False)
    assert bounds == [2**63] and 0 <= match.seed < 2**63 and not match.seed_chosen


# ------------------------------------------------------------------ the admin


def test_staff_cannot_list_a_chosen_seed_match_in_the_lobby(
    ana: Any, admin_client_: Client
) -> None:
    match = create(ana, "expert", seed=S, listed=False)
    url = reverse("admin:games_match_change", args=[match.pk])
    page = admin_client_.get(url)
    assert page.status_code == 200
    assert 'name="listed"' not in page.content.decode()
    admin_client_.post(url, {"listed": "on"})
    match.refresh_from_db()
    assert not match.listed
