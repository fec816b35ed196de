"""Who may do what at a match (games.permissions), as one table: role × action.

The table below is the contract; each cell is one parametrized test. The roles:

- owner: created the match and has no seat at it (match M: two invited players and a computer);
- seated: a signed-in player at M, with another person (seated2) at the table;
- holder: the holder of pass-and-play seats (match P: two of them and a computer, R24);
- spectator: nobody signed in, with M's watch token;
- anonymous: nobody signed in, no token;
- staff: staff without any permission; staff+perm: staff with ``games.watch_private_table``
  and the admin's ``games.view_match``; superuser.

Columns: watch; act for seat 0; undo; restart (R28: the creator, or a player alone with
computers); pause the computers (R26); export while the match is played and once it is
finished; see every hand while the round is played and once it is over (R24); see the
seed while the match is played and once it is over (the seed is every deal: nobody,
staff included, while it is live); look back at its ended rounds (the players'
replay page and the admin's); let a computer play seat 1 of M (seated2's seat; for the holder, seat 0 of P,
their own, which is not theirs to hand over) and take seat 0 back from the computer
(games.attendance.standin: its owner only); answer an undo or restart request (no request named:
whether they are a person at the table); follow M's spectator link (with the token each
role brings: only the spectator has it); end the match after this round (R32: a feature's
own rule, declared by games.table.commands.last_round: any player); start the next round
(the creator or a player: games.services.moves) and set the computers' pace (a player:
games.table.commands.pace). The feature's rules are asked by their names, as the
board and the services ask them by their `Rule`s. A feature may keep its rules' columns in
its own test instead, in a ``PERMISSIONS`` table of this form (Play again's:
tests/games/table/test_play_again.py); tests/games/permission_matrix.py holds the world
and the cells both read. *When* a seat may be handed over (its owner away past
the table's limit) is tested in tests/games/attendance/test_standin.py.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import consent, permissions
from games.errors import GameError
from games.models import ChangeRequest, Match
from games.permissions import Action
from tests.games.permission_matrix import allowed, cells, columns_in_tests, who, world

__all__ = ["world"]  # the fixture, for the tests below

MATRIX = """
role        watch act undo restart pause export export_done hands hands_over seed seed_done look_back stand_in take_back answer watch_link last_round next_round pace
owner         1    0    0     1      0      0        1        0        1       0      1         1         0        0        0        0          0          1       0
seated        1    1    1     0      1      0        1        0        1       0      1         1         1        1        1        0          1          1       1
holder        1    1    1     1      1      0        1        0        1       0      1         1         0        1        1        0          1          1       1
spectator     1    0    0     0      0      0        0        0        1       0      0         0         0        0        0        1          0          0       0
anonymous     0    0    0     0      0      0        0        0        0       0      0         0         0        0        0        0          0          0       0
staff         0    0    0     0      0      0        0        0        0       0      0         0         0        0        0        0          0          0       0
staff+perm    1    0    0     0      0      0        1        0        1       0      1         1         0        0        0        0          0          0       0
superuser     1    0    0     0      0      0        1        0        1       0      1         1         0        0        0        0          0          0       0
"""


CELLS = cells(MATRIX)


@pytest.mark.django_db
@pytest.mark.parametrize(("role", "column", "yes"), CELLS, ids=[f"{r}-{c}" for r, c, _ in CELLS])
def test_permission_matrix(world: dict[str, Any], role: str, column: str, yes: bool) -> None:
    assert allowed(world, role, column) is yes


def test_every_features_rule_has_its_column() -> None:
    """A rule a feature declares (games.permissions.RULES) is a column of the table above or
    of its feature's own table (a ``PERMISSIONS`` in its test), so each of its cells is
    tested too; a column names a rule or an action."""
    columns = columns_in_tests()
    assert set(permissions.RULES) <= columns
    assert {c for _r, c, _y in CELLS} <= columns
    assert "again_seat" in columns - {c for _r, c, _y in CELLS}  # a feature's own table


@pytest.mark.django_db
def test_a_player_acts_only_for_their_own_seats(world: dict[str, Any]) -> None:
    users, m, p = world["users"], world["M"], world["P"]
    assert permissions.may(users["seated"], Action.ACT, m, seat=0)
    assert not permissions.may(users["seated"], Action.ACT, m, seat=1)  # seated2's seat
    assert not permissions.may(users["seated"], Action.ACT, m, seat=2)  # the computer's
    assert permissions.may(users["holder"], Action.ACT, p, seat=1) and not permissions.may(
        users["holder"], Action.ACT, p, seat=2
    )


@pytest.mark.django_db
def test_consent_is_needed_only_with_other_people_at_the_table(world: dict[str, Any]) -> None:
    users, m, p = world["users"], world["M"], world["P"]
    assert permissions.people(m) == {users["seated"].pk, users["seated2"].pk}
    assert permissions.needs_consent(m, users["seated"]) and permissions.needs_consent(
        m, users["owner"]
    )
    # Pass-and-play seats on one device count as that device's user: alone with computers.
    assert permissions.people(p) == {users["holder"].pk} and not permissions.needs_consent(
        p, users["holder"]
    )


@pytest.mark.django_db
def test_staff_see_a_table_live_only_with_the_named_permission_and_are_logged(
    world: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    users, m = world["users"], world["M"]
    url = reverse("games:table", args=[m.pk])
    plain, allowed = Client(), Client()
    plain.force_login(users["staff"])
    allowed.force_login(users["staffperm"])
    assert plain.get(url).status_code == 404
    assert plain.get(reverse("games:detail", args=[m.pk])).status_code == 404
    with caplog.at_level(logging.WARNING, logger="games.permissions"):
        assert allowed.get(url).status_code == 200
    assert any(
        "staffperm" in r.getMessage() and str(m.pk) in r.getMessage() for r in caplog.records
    )
    # A player's own watch is not a staff watch: nothing logged.
    player = Client()
    player.force_login(users["seated"])
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="games.permissions"):
        assert player.get(url).status_code == 200
    assert not [r for r in caplog.records if r.name == "games.permissions"]


@pytest.mark.django_db
def test_the_replay_page_opens_as_the_look_back_column_says(world: dict[str, Any]) -> None:
    """games.history.views asks the permission: a role the table refuses finds no such match
    (404; nobody signed in is sent to sign in first), a role it allows gets the page (here:
    no round has ended yet, so it says there is nothing to replay). Plain staff are refused."""
    column = {role: yes for role, name, yes in CELLS if name == "look_back"}
    assert set(column.values()) == {True, False}
    for role, yes in column.items():
        match, user, _token = who(world, role)
        client = Client()
        if user is not None:
            client.force_login(user)
        status = client.get(reverse("history:replay", args=[match.pk])).status_code
        assert status == (200 if yes else 404 if user is not None else 302), role


def same_page(content: bytes, match_id: int) -> str:
    """A page with its match id and its (per-response) CSRF token taken out."""
    text = content.decode().replace(f"/m/{match_id}/", "/m/#/")
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", text)


@pytest.mark.django_db
def test_a_private_match_and_a_missing_one_look_the_same_to_anyone_who_may_not_see_it(
    world: dict[str, Any],
) -> None:
    """No id oracle (anonymous requests got 302 for an existing match
    and 404 for a missing one)."""
    m = world["M"]
    missing = Match.objects.order_by("-pk").first().pk + 100
    anonymous = Client()
    stranger = Client()
    stranger.force_login(world["users"]["staff"])
    for client in (anonymous, stranger):
        for name in ("games:table", "games:detail", "games:table_log"):
            there = client.get(reverse(name, args=[m.pk]))
            not_there = client.get(reverse(name, args=[missing]))
            assert there.status_code == not_there.status_code == 404, (name, there.status_code)
            assert same_page(there.content, m.pk) == same_page(
                not_there.content, missing
            )  # not even the page
    # The 404 page offers a visitor who is not signed in the way back to their match.
    page = anonymous.get(reverse("games:table", args=[m.pk])).content.decode()
    assert f"/accounts/login/?next=/m/{m.pk}/" in page


@pytest.mark.django_db
def test_the_asker_does_not_answer_their_own_request(world: dict[str, Any]) -> None:
    """An undo or restart request is the others' to answer: asked of
    permissions with the request, the asker may not, another person at the table may."""
    users, m = world["users"], world["M"]
    request = ChangeRequest(
        match=m, change=consent.kind("undo").name, asked_by=users["seated"], round_number=1
    )
    assert not permissions.may(users["seated"], "answer", m, request=request)
    assert permissions.may(users["seated2"], "answer", m, request=request)
    assert not permissions.may(users["owner"], "answer", m, request=request)  # no seat
    with pytest.raises(GameError, match="The others answer your request, not you."):
        permissions.require(users["seated"], "answer", m, request=request)


@pytest.mark.django_db
def test_only_a_superuser_clears_a_pause_left_behind(world: dict[str, Any]) -> None:
    users = world["users"]
    assert permissions.may_clear_pauses(users["superuser"])
    assert not any(
        permissions.may_clear_pauses(users[name])
        for name in ("staff", "staffperm", "seated", "owner")
    )
    assert not permissions.may_clear_pauses(None)
