"""The lobby's "Create a match" form: seats 2–10 (R2), seeds (R4), listing, clear errors."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.lobby.forms import MatchCreateForm
from games.models import Match, Seat

pytestmark = pytest.mark.django_db


def post(
    client: Client,
    rows: dict[int, tuple[str, str]] | None = None,
    follow: bool = False,
    **fields: Any,
):
    data: dict[str, Any] = {"seed": "", "listed": "on"}
    for number, (kind, name) in (rows or {}).items():
        data[f"seat_{number}_kind"] = kind
        data[f"seat_{number}_name"] = name
    data.update(fields)
    return client.post(reverse("games:create"), data, follow=follow)


def errors_of(response: Any) -> str:
    form = response.context["form"]
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


def test_create_page_needs_sign_in(client: Client) -> None:
    response = client.get(reverse("games:create"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login") + "?next=")


def test_create_page_offers_nine_seat_rows_and_one_computer_by_default(ana_client: Client) -> None:
    page = ana_client.get(reverse("games:create")).content.decode()
    for n in range(2, 11):
        assert f'name="seat_{n}_kind"' in page
        assert f'name="seat_{n}_name"' in page
    assert 'name="seat_11_kind"' not in page
    assert re.search(
        r'<input type="radio" name="seat_2_kind" value="casual"[^>]*checked', page
    )  # seat 2 defaults to a casual computer
    assert 'You (<bdi class="pname" title="ana">ana</bdi>)' in page


def test_r2_two_seats_with_a_seed_start_at_once_and_go_to_the_table(
    ana_client: Client, ana: Any
) -> None:
    # A chosen seed is for a table nobody else joins: not listed in the lobby (R4).
    response = post(ana_client, {2: ("expert", "")}, seed="42", listed="")
    match = Match.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("games:table", args=[match.pk])
    assert (match.seed, match.players, match.status, match.listed, match.seed_chosen) == (
        42,
        2,
        Match.Status.PLAYING,
        False,
        True,
    )
    seats = list(match.seats.order_by("index"))
    assert (seats[0].kind, seats[0].user) == (Seat.Kind.HUMAN, ana)
    # An unnamed computer keeps no name: each viewer reads "Computer 2" in their own language.
    assert (seats[1].kind, seats[1].level, seats[1].name) == (Seat.Kind.COMPUTER, "expert", "")
    assert seats[1].display_name == "Computer 2"
    assert match.pace == "normal"  # the form's default (and a page that sends no pace)


def test_r2_one_seat_is_refused_with_a_clear_message(ana_client: Client) -> None:
    response = post(ana_client, {n: ("", "") for n in range(2, 11)})
    assert response.status_code == 200
    assert (
        "A match needs 2 to 10 players: choose at least one more seat." in response.content.decode()
    )
    assert not Match.objects.exists()


def test_r2_ten_seats_is_the_most_and_an_eleventh_row_is_ignored(ana_client: Client) -> None:
    kinds = ["human", "local", "casual", "expert", "human", "local", "casual", "expert", "casual"]
    rows = {
        n: (kind, f"Guest {n}" if kind == "local" else "")
        for n, kind in zip(range(2, 11), kinds, strict=True)
    }
    response = post(ana_client, rows, seat_11_kind="casual", seat_11_name="Intruder")
    assert response.status_code == 302
    match = Match.objects.get()
    assert match.players == 10
    assert match.seats.count() == 10
    assert not match.seats.filter(name="Intruder").exists()
    assert match.status == Match.Status.WAITING  # two invited seats are free
    assert list(
        match.seats.filter(kind="human", user__isnull=True).values_list("index", flat=True)
    ) == [1, 5]


def test_empty_rows_are_skipped_and_seats_numbered_in_order(ana_client: Client) -> None:
    post(ana_client, {2: ("", ""), 3: ("", ""), 4: ("casual", ""), 7: ("local", "Ben")})
    match = Match.objects.get()
    assert [(s.index, s.kind, s.display_name) for s in match.seats.order_by("index")] == [
        (0, "human", "ana"),
        (1, "computer", "Computer 2"),
        (2, "local", "Ben"),
    ]


@pytest.mark.parametrize(
    "seed, message",
    [
        ("-1", "The seed cannot be negative"),
        ("1.5", "Enter the seed as a whole number"),
        ("abc", "Enter the seed as a whole number"),
        (str(2**63), "That seed is too large"),
    ],
)
def test_r4_bad_seeds_are_refused(ana_client: Client, seed: str, message: str) -> None:
    response = post(ana_client, {2: ("casual", "")}, seed=seed)
    assert response.status_code == 200
    assert message in errors_of(response)
    assert not Match.objects.exists()


def test_r4_seed_zero_and_the_largest_seed_are_kept(ana_client: Client) -> None:
    post(ana_client, {2: ("casual", "")}, seed="0", listed="")
    post(ana_client, {2: ("casual", "")}, seed=str(2**63 - 1), listed="")
    assert sorted(Match.objects.values_list("seed", flat=True)) == [0, 2**63 - 1]


def test_r4_a_blank_seed_deals_a_random_one(ana_client: Client) -> None:
    for _ in range(3):
        post(ana_client, {2: ("casual", "")}, seed="")
    seeds = list(Match.objects.values_list("seed", flat=True))
    assert len(seeds) == 3 and all(s >= 0 for s in seeds)
    assert len(set(seeds)) == 3


def test_unticked_list_in_lobby_is_kept(ana_client: Client) -> None:
    post(ana_client, {2: ("human", "")}, listed="")
    assert Match.objects.get().listed is False


@pytest.mark.parametrize(
    "rows, message",
    [
        ({2: ("local", "")}, "A pass-and-play seat needs a name"),
        ({2: ("human", "Ben")}, "An invited player brings their own user name"),
        ({2: ("", "Ben")}, "Choose who sits at this seat"),
        ({2: ("local", "Ben"), 3: ("casual", "ben")}, "Two seats cannot share the name"),
        ({2: ("local", "ANA")}, "Two seats cannot share the name"),
        ({2: ("casual", ""), 3: ("local", "Computer 2")}, "Two seats cannot share the name"),
        ({2: ("robot", "")}, "Select a valid choice"),
        ({2: ("casual", "x" * 25)}, "A name has at most 24 characters (this one has 25)."),
    ],
)
def test_bad_seats_are_refused_with_clear_errors(
    ana_client: Client, rows: dict, message: str
) -> None:
    response = post(ana_client, rows)
    assert response.status_code == 200
    assert message in errors_of(response)
    assert not Match.objects.exists()
    assert 'aria-invalid="true"' in response.content.decode()


def test_a_pass_and_play_name_too_long_gets_one_error_saying_so(ana_client: Client) -> None:
    assert 'maxlength="24"' in ana_client.get(reverse("games:create")).content.decode()
    response = post(ana_client, {2: ("local", "Bartholomew_Featherstones")})
    errors = errors_of(response)
    assert "A name has at most 24 characters (this one has 25)." in errors
    assert "needs a name" not in errors and "Ensure this value" not in errors
    assert not Match.objects.exists()
    assert post(ana_client, {2: ("local", "Bartholomew_Featherstone")}).status_code == 302
    assert Match.objects.get().seats.get(index=1).name == "Bartholomew_Featherstone"


def test_errors_in_the_folded_rows_open_them(ana_client: Client) -> None:
    page = post(ana_client, {2: ("casual", ""), 6: ("local", "")}).content.decode()
    assert '<details class="more-seats" open>' in page


def test_a_waiting_match_shows_its_invitation_and_spectator_links(ana_client: Client) -> None:
    response = post(ana_client, {2: ("human", ""), 3: ("casual", "")}, follow=True)
    match = Match.objects.get()
    assert match.status == Match.Status.WAITING
    page = response.content.decode()
    assert reverse("games:join", args=[match.pk, match.invite_token]) in page
    assert reverse("games:watch", args=[match.pk, match.watch_token]) in page
    detail = ana_client.get(reverse("games:detail", args=[match.pk])).content.decode()
    assert reverse("games:join", args=[match.pk, match.invite_token]) in detail


def test_the_form_object_builds_the_creators_seat_first() -> None:
    form = MatchCreateForm(
        {"seat_2_kind": "local", "seat_2_name": "Ben", "seat_3_kind": "expert", "seed": ""},
        creator_name="ana",
    )
    assert form.is_valid(), form.errors
    specs = form.seat_specs()
    assert [(s.kind, s.name, s.level) for s in specs] == [
        ("me", "", ""),
        ("local", "Ben", ""),
        ("computer", "", "expert"),
    ]
    assert form.cleaned_data["seed"] is None


def test_r25_the_lobby_shows_each_computer_level_with_one_line_about_it(ana_client: Client) -> None:
    page = ana_client.get(reverse("games:create")).content.decode()
    for value, label, line in [
        ("beginner", "Computer (beginner)", "Plays carelessly"),
        ("casual", "Computer (casual)", "Gets rid of its heaviest tile"),
        ("expert", "Computer (expert)", "Plans its first train"),
    ]:
        assert f'name="seat_2_kind" value="{value}"' in page
        assert f"<dt>{label}</dt>" in page and line in page
    assert 'value="basic"' not in page and 'value="strong"' not in page
    for pace in ("relaxed", "normal", "fast", "instant"):
        assert f'<option value="{pace}"' in page
    with __import__("django").utils.translation.override("es"):
        es = ana_client.get(reverse("games:create"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Ordenador (principiante)" in es and "Ritmo de los ordenadores" in es


def test_r25_a_beginner_at_a_chosen_pace_and_each_level_by_its_name(
    ana_client: Client,
) -> None:
    post(
        ana_client,
        {2: ("beginner", ""), 3: ("casual", ""), 4: ("expert", "")},
        seed="7",
        listed="",
        pace="instant",
    )
    match = Match.objects.get()
    assert match.pace == "instant"
    assert [s.level for s in match.seats.order_by("index")] == ["", "beginner", "casual", "expert"]


def test_r25_a_level_name_the_lobby_does_not_offer_is_refused(ana_client: Client) -> None:
    response = post(ana_client, {2: ("strong", "")})
    assert response.status_code == 200 and not Match.objects.exists()


def test_an_unknown_pace_is_refused_and_creates_nothing(ana_client: Client) -> None:
    response = post(ana_client, {2: ("casual", "")}, pace="ludicrous")
    assert response.status_code == 200 and not Match.objects.exists()
    assert "pace" in response.context["form"].errors
