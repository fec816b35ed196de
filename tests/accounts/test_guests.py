"""Guest play: one click from the front page to a table, keeping the account, and
`remove_guests`, which removes only unused guests and never a seat's history."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from accounts import guests
from accounts.models import Guest
from games.lobby import quick
from games.models import LogEntry, Match, Round, Seat
from tests.games.matches import create, play

pytestmark = pytest.mark.django_db

User = get_user_model()


def guest_client() -> tuple[Client, Any]:
    """A visitor who clicked "Play now against computers": their client and their guest."""
    client = Client()
    response = client.post("/play/computers/")
    assert response.status_code == 302
    return client, Guest.objects.latest("created_at").user


def test_play_now_makes_a_guest_and_a_private_table_with_three_computers() -> None:
    client = Client()
    response = client.post("/play/computers/")
    match = Match.objects.get()
    assert response["Location"] == f"/m/{match.pk}/"
    guest = Guest.objects.get().user
    assert (
        match.created_by == guest and match.listed is False and match.status == Match.Status.PLAYING
    )
    seats = list(match.seats.order_by("index"))
    assert [(s.kind, s.user, s.level) for s in seats] == [
        (Seat.Kind.HUMAN, guest, ""),
        *[(Seat.Kind.COMPUTER, None, quick.COMPUTER_LEVEL)] * 3,
    ]
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert guest.get_username() in page.content.decode()


def test_a_guest_name_is_readable_and_valid() -> None:
    name = guests.new_name()
    assert name.isalnum() and name[0].isupper() and 8 <= len(name) <= 20


def test_play_now_when_signed_in_uses_the_account(ana: Any, ana_client: Client) -> None:
    ana_client.post("/play/computers/")
    assert Match.objects.get().created_by == ana
    assert not Guest.objects.exists()


def test_play_now_is_a_post_only() -> None:
    assert Client().get("/play/computers/").status_code == 405
    assert not User.objects.exists()


def test_play_with_friends_shows_the_invitation_link_of_a_private_table(ana_client: Client) -> None:
    response = ana_client.post("/play/friends/", {"friends": "2"}, follow=True)
    match = Match.objects.get()
    assert match.listed is False and match.status == Match.Status.WAITING
    assert match.seats.filter(kind=Seat.Kind.HUMAN, user__isnull=True).count() == 2
    assert f"/m/{match.pk}/join/{match.invite_token}/" in response.content.decode()


def test_play_with_friends_leads_to_the_choice_of_computers_and_length() -> None:
    """The front page's "Play with friends" made a table with no choice of computers, length or
    pace: its "More choices" leads a visitor (a guest by then) to the create form, the friends'
    seats filled in, and makes no table yet."""
    visitor = Client()
    home = visitor.get("/").content.decode()
    assert 'name="choose"' in home and "More choices" in home
    response = visitor.post("/play/friends/", {"friends": "2", "choose": "1"})
    assert response.status_code == 302 and response["Location"] == "/lobby/new/?friends=2"
    assert not Match.objects.exists()
    form = visitor.get(response["Location"]).content.decode()
    for n, kind in ((2, "human"), (3, "human"), (4, "")):
        assert re.search(rf'name="seat_{n}_kind" value="{kind}"[^>]*checked', form), n
    assert 'name="length"' in form and 'name="pace"' in form and 'value="expert"' in form


@pytest.mark.parametrize("friends", ["0", "10", "x"])
def test_play_with_friends_refuses_a_bad_count(ana_client: Client, friends: str) -> None:
    response = ana_client.post("/play/friends/", {"friends": friends})
    assert response.status_code == 400
    assert "Choose 1 to 9 friends." in response.content.decode()
    assert not Match.objects.exists()


def test_a_friend_joins_by_the_invitation_link_as_a_guest(ana: Any) -> None:
    match = create(ana, "human", listed=False)
    friend = Client()
    url = f"/m/{match.pk}/join/{match.invite_token}/"
    page = friend.get(url)
    assert page.status_code == 200 and "play as a guest" in page.content.decode()
    response = friend.post(url, {"seat": "1"})
    assert response["Location"] == f"/m/{match.pk}/"
    match.refresh_from_db()
    guest = Guest.objects.get().user
    assert match.status == Match.Status.PLAYING
    assert match.seats.get(index=1).user == guest


def test_guests_do_not_list_tables(ana: Any) -> None:
    client, guest = guest_client()
    page = client.get("/lobby/").content.decode()
    assert 'name="listed"' not in page
    client.post("/lobby/new/", {"seat_2_kind": "casual", "listed": "on", "seed": ""})
    assert (
        Match.objects.filter(created_by=guest).values_list("listed", flat=True).distinct().get()
        is False
    )


def test_guests_do_not_watch_private_tables(ana: Any) -> None:
    private = create(ana, "casual", listed=False)
    listed = create(ana, "casual", listed=True)
    client, _guest = guest_client()
    assert client.get(f"/m/{private.pk}/watch/{private.watch_token}/").status_code == 404
    assert client.get(f"/m/{private.pk}/?watch={private.watch_token}").status_code == 404
    assert client.get(f"/m/{listed.pk}/?watch={listed.watch_token}").status_code == 200
    # a full account still watches a private table with its link
    assert Client().get(f"/m/{private.pk}/?watch={private.watch_token}").status_code == 200


def test_a_guest_keeps_the_account_and_its_matches() -> None:
    client, guest = guest_client()
    match = Match.objects.get()
    response = client.post(
        "/accounts/keep/",
        {"username": "carmen", "password1": "a long secret 42", "password2": "a long secret 42"},
    )
    assert response["Location"] == "/matches/"
    user = User.objects.get(pk=guest.pk)
    assert user.get_username() == "carmen" and user.check_password("a long secret 42")
    assert not Guest.objects.exists()
    mine = client.get("/matches/").content.decode()  # still signed in after the password change
    assert f"/m/{match.pk}/" in mine
    other = Client()
    other.post("/accounts/login/", {"username": "carmen", "password": "a long secret 42"})
    assert f"/m/{match.pk}/" in other.get("/matches/").content.decode()


def test_keeping_refuses_a_taken_name(ana: Any) -> None:
    client, guest = guest_client()
    response = client.post(
        "/accounts/keep/",
        {"username": "ANA", "password1": "a long secret 42", "password2": "a long secret 42"},
    )
    assert "That name is taken" in response.content.decode()
    assert Guest.objects.filter(user=guest).exists()


def test_a_guest_signing_up_is_sent_to_keep_the_account() -> None:
    client, _guest = guest_client()
    assert client.get("/accounts/signup/")["Location"] == "/accounts/keep/"


# ---------------------------------------------------------------- remove_guests


def age(user: Any, days: int) -> None:
    """Make `user` look unused for `days` days."""
    then = timezone.now() - timedelta(days=days)
    Guest.objects.filter(user=user).update(last_seen=then)
    User.objects.filter(pk=user.pk).update(last_login=then)
    LogEntry.objects.filter(user=user).update(created_at=then)


def test_remove_guests_removes_only_guests_unused_for_30_days(ana: Any) -> None:
    _c1, old = guest_client()
    _c2, recent = guest_client()
    _c3, playing = guest_client()
    age(old, 31)
    age(recent, 29)
    age(playing, 31)
    match = Match.objects.get(created_by=playing)
    for _n in range(80):  # until the guest's own move is logged
        if LogEntry.objects.filter(user=playing).exists():
            break
        play(match, 1)
    assert LogEntry.objects.filter(
        user=playing, created_at__gte=timezone.now() - timedelta(days=1)
    ).exists()
    age(ana, 400)  # a full account is never removed
    call_command("remove_guests")
    assert set(User.objects.values_list("pk", flat=True)) == {recent.pk, playing.pk, ana.pk}


def test_a_removed_guest_leaves_a_former_guest_seat_and_all_history(ana: Any) -> None:
    match = create(ana, "human", "casual")
    client = Client()
    client.post(f"/m/{match.pk}/join/{match.invite_token}/", {"seat": "1"})
    guest = Guest.objects.get().user
    name = guest.get_username()
    match = play(match, 30)
    entries = list(
        LogEntry.objects.filter(round__match=match).values_list("pk", "seat", "action", "kind")
    )
    rounds = list(Round.objects.filter(match=match).values_list("pk", "start", "points", "totals"))
    assert LogEntry.objects.filter(user=guest).exists()
    age(guest, 31)
    assert guests.remove_unused() == 1
    assert not User.objects.filter(pk=guest.pk).exists()
    seat = Seat.objects.get(match=match, index=1)
    assert (seat.kind, seat.user, seat.name) == (Seat.Kind.HUMAN, None, name)
    assert seat.display_name == f"{name} (former guest)"
    assert (
        list(
            LogEntry.objects.filter(round__match=match).values_list("pk", "seat", "action", "kind")
        )
        == entries
    )
    assert (
        list(Round.objects.filter(match=match).values_list("pk", "start", "points", "totals"))
        == rounds
    )
    assert Seat.objects.get(match=match, index=0).user == ana
    # the match is still listed as Ana's, and its board still renders for her
    ana_client = Client()
    ana_client.force_login(ana)
    page = ana_client.get(f"/m/{match.pk}/").content.decode()
    assert f"{name} (former guest)" in page


def test_a_removed_guests_own_table_stays_with_its_history() -> None:
    _client, guest = guest_client()
    match = play(Match.objects.get(), 5)
    entries = LogEntry.objects.filter(round__match=match).count()
    age(guest, 31)
    call_command("remove_guests")
    match.refresh_from_db()
    assert match.created_by is None and match.table.created_by is None
    assert LogEntry.objects.filter(round__match=match).count() == entries
    assert Seat.objects.get(match=match, index=0).display_name.endswith("(former guest)")


def test_a_removed_guests_seat_at_a_waiting_match_is_free_again(ana: Any) -> None:
    match = create(ana, "human", "human")
    client = Client()
    client.post(f"/m/{match.pk}/join/{match.invite_token}/", {"seat": "1"})
    guest = Guest.objects.get().user
    age(guest, 31)
    call_command("remove_guests")
    seat = Seat.objects.get(match=match, index=1)
    assert (seat.user, seat.name) == (None, "")
    assert seat.display_name == "Free seat 2"


def test_a_page_view_keeps_a_guest(ana: Any) -> None:
    client, guest = guest_client()
    age(guest, 31)
    session = client.session
    session.pop("guest_seen", None)
    session.save()
    client.get("/")
    assert guests.remove_unused() == 0


# ---------------------------------------------------------------- the lobby


def test_a_new_table_is_private_unless_listed_and_the_seed_is_an_advanced_option(
    ana_client: Client,
) -> None:
    page = ana_client.get("/lobby/new/").content.decode()
    assert 'name="listed"' in page and not re.search(
        r'<input type="checkbox" name="listed"[^>]*checked', page
    )
    advanced = page[page.index('<details class="advanced"') :]
    assert 'name="seed"' in advanced[: advanced.index("</details>")]
    # a rule id, not two letters of the random CSRF token
    assert not re.search(r"\bR\d{1,2}\b", page)
    ana_client.post("/lobby/new/", {"seat_2_kind": "casual", "seed": ""})
    assert Match.objects.get().listed is False


def test_the_lobby_lists_players_round_and_free_seats_with_join_and_watch(
    ana: Any, ana_client: Client
) -> None:
    waiting = create(ana, "human", "casual")
    playing = play(create(ana, "casual", "expert"), 2)
    private = create(ana, "casual", listed=False)
    page = Client().get("/lobby/").content.decode()
    assert f"/m/{waiting.pk}/join/{waiting.invite_token}/" in page
    assert "1 free seat" in page
    assert f"/m/{playing.pk}/watch/{playing.watch_token}/" in page
    assert "Round 1 / 13" in page and "ana" in page
    assert f"/m/{private.pk}/" not in page


def test_the_table_websocket_lets_guests_watch_only_listed_tables(ana: Any) -> None:
    from games.table.access import may_watch

    private = create(ana, "casual", listed=False)
    listed = create(ana, "casual", listed=True)
    _client, guest = guest_client()
    assert not may_watch(private, guest, private.watch_token)
    assert may_watch(listed, guest, listed.watch_token)
    assert may_watch(private, ana, "")  # a player needs no link
    other = User.objects.create_user("ben")
    assert may_watch(private, other, private.watch_token)


def test_the_waiting_page_asks_for_its_seats_instead_of_reloading(
    ana: Any, ana_client: Client
) -> None:
    """The host's page of a match waiting for friends reloads nothing: static/js/waiting.js
    asks for the seats card alone, which says when the match has started."""
    match = create(ana, "human", listed=False)
    page = ana_client.get(f"/m/{match.pk}/about/").content.decode()
    assert 'http-equiv="refresh"' not in page
    assert f'data-waiting="/m/{match.pk}/about/seats/"' in page and "js/waiting.js" in page
    card = ana_client.get(f"/m/{match.pk}/about/seats/")
    assert card.status_code == 200 and card["X-Match-Status"] == "waiting"
    assert (
        'class="card match-card"' in card.content.decode() and "<html" not in card.content.decode()
    )
    assert (
        Client().get(f"/m/{match.pk}/about/seats/").status_code == 404
    )  # not a stranger's business
    Client().post(
        f"/m/{match.pk}/join/{match.invite_token}/", {"seat": "1"}
    )  # a friend, as a guest
    assert ana_client.get(f"/m/{match.pk}/about/seats/")["X-Match-Status"] == "playing"
    assert "js/waiting.js" not in ana_client.get(f"/m/{match.pk}/about/").content.decode()


def test_watch_a_game_says_when_only_private_tables_are_played_and_offers_play_now(
    ana: Any,
) -> None:
    page = Client().get("/lobby/").content.decode()
    assert "Nobody is playing a listed match right now." in page
    play(create(ana, "casual", listed=False), 1)
    page = Client().get("/lobby/").content.decode()
    live = page[page.index('id="live"') :]
    assert "Only private tables are being played right now." in live
    assert 'action="/play/computers/"' in live
    play(create(ana, "casual"), 1)  # a listed one: it is shown, and nothing needs saying
    live = Client().get("/lobby/").content.decode()
    live = live[live.index('id="live"') :]
    assert "Only private tables" not in live and 'action="/play/computers/"' not in live


def test_the_leaderboard_is_linked_from_the_site_menu_and_the_front_page_for_those_who_may_open_it() -> (
    None
):
    signed_in = Client()
    signed_in.force_login(User.objects.create_user("lea", password="pw-lea-12345"))
    page = signed_in.get("/").content.decode()
    nav = page[page.index('class="mainnav"') : page.index("</nav>")]
    assert 'href="/players/"' in nav
    assert page.count('href="/players/"') == 2
    assert signed_in.get("/players/").status_code == 200
    # A visitor would only be sent to sign in (the leaderboard is for players, guests included).
    assert 'href="/players/"' not in Client().get("/").content.decode()
    assert Client().get("/players/").status_code == 302
