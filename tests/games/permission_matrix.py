"""The permission matrix's world and its cells (games.permissions: role × action).

tests/games/test_permissions.py holds the matrix of the site's actions and says what its
roles and columns are; a feature's test holds its own rules' columns in a ``PERMISSIONS``
table of the same form (tests/games/table/test_play_again.py) and asks `allowed` for each
cell. Every rule a feature declares has a column in one of them (test_permissions).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Permission

from games import permissions, services
from games.models import Match
from games.permissions import Action

TESTS = Path(__file__).resolve().parents[1]


def cells(matrix: str) -> list[tuple[str, str, bool]]:
    """A matrix's cells: (role, column, allowed)."""
    lines = [line.split() for line in matrix.strip().splitlines()]
    header, body = lines[0][1:], lines[1:]
    return [(row[0], column, row[1 + i] == "1") for row in body for i, column in enumerate(header)]


def columns_in_tests(root: Path = TESTS) -> set[str]:
    """Every column of every matrix in the tests (``MATRIX`` or a feature's ``PERMISSIONS``)."""
    found: set[str] = set()
    for path in root.rglob("test_*.py"):
        for node in ast.parse(path.read_text()).body:
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id in ("MATRIX", "PERMISSIONS")
                and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)
            ):
                found |= {column for _role, column, _yes in cells(node.value.value)}
    return found


@pytest.fixture
def world(django_user_model: Any) -> dict[str, Any]:
    make = django_user_model.objects.create_user
    users = {
        name: make(name) for name in ("owner", "seated", "seated2", "holder", "staff", "staffperm")
    }
    users["staff"].is_staff = True
    users["staff"].save()
    users["staffperm"].is_staff = True
    users["staffperm"].save()
    users["staffperm"].user_permissions.add(
        Permission.objects.get(codename="watch_private_table", content_type__app_label="games"),
        Permission.objects.get(codename="view_match", content_type__app_label="games"),
    )
    users["superuser"] = django_user_model.objects.create_superuser("root", password=None)
    m = services.match_create(
        creator=users["owner"],
        seats=[
            services.SeatSpec("human"),
            services.SeatSpec("human"),
            services.SeatSpec("computer", level="casual"),
        ],
    )
    services.seat_join(match_id=m.pk, user=users["seated"], token=m.invite_token, seat_index=0)
    services.seat_join(match_id=m.pk, user=users["seated2"], token=m.invite_token, seat_index=1)
    p = services.match_create(
        creator=users["holder"],
        seats=[
            services.SeatSpec("local", name="Ana"),
            services.SeatSpec("local", name="Ben"),
            services.SeatSpec("computer", level="casual"),
        ],
    )
    return {"users": users, "M": Match.objects.get(pk=m.pk), "P": Match.objects.get(pk=p.pk)}


def who(world: dict[str, Any], role: str) -> tuple[Match, Any, str]:
    """The match, the user (None: nobody signed in) and the token of a role."""
    users, m = world["users"], world["M"]
    return {
        "owner": (m, users["owner"], ""),
        "seated": (m, users["seated"], ""),
        "holder": (world["P"], users["holder"], ""),
        "spectator": (m, None, m.watch_token),
        "anonymous": (m, None, ""),
        "staff": (m, users["staff"], ""),
        "staff+perm": (m, users["staffperm"], ""),
        "superuser": (m, users["superuser"], ""),
    }[role]


def _answer(match: Match, user: Any, token: str, column: str) -> bool:
    match = Match.objects.get(pk=match.pk)  # fresh: no cached permissions or seats
    if column in ("export_done", "hands_over", "seed_done"):
        # The same match once finished / once the round is over (not saved: only asked).
        done = column in ("export_done", "seed_done")
        match.status = Match.Status.FINISHED if done else match.status
        match.state = {**match.state, "phase": "match_over" if done else "round_over"}
    action = {
        "act": Action.ACT,
        "export_done": Action.EXPORT,
        "hands": Action.SEE_HANDS,
        "hands_over": Action.SEE_HANDS,
        "seed": Action.SEE_SEED,
        "seed_done": Action.SEE_SEED,
    }.get(column, column)
    seat = {
        Action.ACT: 0,
        "take_back": 0,
        "stand_in": 0 if match.pk != _M_ID[0] else 1,
    }.get(action)
    return permissions.may(user, action, match, seat=seat, token=token)


#: the id of match M of the current test's world (its stand-in column asks for seat 1)
_M_ID: list[int] = [0]


def allowed(world: dict[str, Any], role: str, column: str) -> bool:
    """What the matrix's `role` may do in `column` (an action, or a feature's rule by name)."""
    _M_ID[0] = world["M"].pk
    match, user, token = who(world, role)
    return _answer(match, user, token, column)
