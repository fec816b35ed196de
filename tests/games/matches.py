"""Users, clients and matches played through the services, for the tests of the site's pages
(lobby, my matches, join/watch, the admin, history, table talk, guests): its fixtures are
registered by tests/games/conftest.py and tests/accounts/conftest.py.

Matches are built and played only through the services (`games.services`), the
way the site does it: `play(match, n)` makes n moves, a human seat's move chosen by
the casual computer player from that seat's own view, a computer's by `computer_step`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone, translation

from engine import bots
from engine.serialize import state_to_json
from games import services
from games.models import Match, Presence, Seat
from games.reads import selectors
from games.services import SeatSpec
from tests import seeded

_request_ids = itertools.count(1)


def request_id() -> str:
    return f"site-games-{next(_request_ids)}"


@pytest.fixture
def make_user(db: Any) -> Callable[..., Any]:
    def make(username: str, **extra: Any) -> Any:
        # No password (force_login signs in): hashing one costs a second per user.
        return get_user_model().objects.create_user(username, **extra)

    return make


@pytest.fixture
def ana(make_user: Callable[..., Any]) -> Any:
    return make_user("ana")


@pytest.fixture
def ben(make_user: Callable[..., Any]) -> Any:
    return make_user("ben")


@pytest.fixture
def ana_client(ana: Any) -> Client:
    client = Client()
    client.force_login(ana)
    return client


@pytest.fixture
def admin_client_(make_user: Callable[..., Any]) -> Client:
    boss = make_user("boss", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(boss)
    return client


def create(creator: Any, *kinds: str, seed: int | None = 7, listed: bool = True) -> Match:
    """A match with the creator at seat 1 and one seat per kind: "human" (free), "local", "casual", "expert"."""
    seats = [SeatSpec(kind="me")]
    for n, kind in enumerate(kinds, start=2):
        if kind in ("beginner", "casual", "expert"):  # a computer level
            seats.append(SeatSpec(kind="computer", name=f"Computer {n}", level=kind))
        elif kind == "local":
            seats.append(SeatSpec(kind="local", name=f"Guest {n}"))
        else:
            seats.append(SeatSpec(kind=kind))
    return seeded.match_create(creator=creator, seats=seats, seed=seed, listed=listed)


def step(match: Match, *, beside_a_server: bool = False) -> bool:
    """One move of whoever is to act (the next round started when one is over). False when finished.

    `beside_a_server`: a test server's computer worker plays the same match's computers, so a
    computer's turn may already have been taken when this asks for it (both take the match's
    lock; the second finds nothing to do); otherwise a computer that does not act fails."""
    match.refresh_from_db()
    if match.status != Match.Status.PLAYING:
        return False
    state = selectors.match_state(match)
    if state.phase == "match_over":
        return False
    seats = list(match.seats.select_related("user").order_by("index"))
    if state.phase == "round_over":
        user = next(s.user for s in seats if s.user is not None)
        services.round_next(
            match_id=match.pk, user=user, expected_version=match.version, request_id=request_id()
        )
        return True
    seat = seats[state.turn]
    if seat.kind == Seat.Kind.COMPUTER:
        acted = services.computer_step(match_id=match.pk)
        assert acted is not None or beside_a_server
        return True
    action = bots.choose(selectors.seat_view(match, seat.index), "casual")
    services.action_submit(
        match_id=match.pk,
        user=seat.user,
        seat=seat.index,
        action=action.to_json(),
        expected_version=match.version,
        request_id=request_id(),
    )
    return True


def play(match: Match, moves: int, *, beside_a_server: bool = False) -> Match:
    for _ in range(moves):
        if not step(match, beside_a_server=beside_a_server):
            break
    match.refresh_from_db()
    return match


def near_the_rounds_end(match: Match, *, tiles: int = 3, beside_a_server: bool = False) -> Match:
    """Play on until a hand holds `tiles` tiles or fewer: the round ends a few moves later
    (or sooner, blocked). Stops at the round's end should it come first."""
    for _ in range(500):
        state = selectors.match_state(match)
        if state.phase not in ("engine", "first", "play") or min(map(len, state.hands)) <= tiles:
            break
        play(match, 1, beside_a_server=beside_a_server)
    return match


def play_rounds(match: Match, rounds: int, *, beside_a_server: bool = False) -> Match:
    """Play until round `rounds` has started (or the match is over); `beside_a_server`: as
    `step`'s."""
    while match.round_number < rounds and step(match, beside_a_server=beside_a_server):
        match.refresh_from_db()
    match.refresh_from_db()
    return match


def finish(match: Match, totals: tuple[int, ...]) -> Match:
    """Store `match` as finished after round 13 with these totals (R22), the way the services
    leave it, without playing the whole match (13 rounds take a minute or more)."""
    state = selectors.match_state(match)
    over = state._replace(
        phase="match_over",
        turn=None,
        totals=totals,
        round_points=(0,) * len(totals),
        ended_by="blocked",
    )
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED, finished_at=timezone.now(), state=state_to_json(over)
    )
    match.refresh_from_db()
    return match


def left(match: Match, user: Any, minutes: float) -> None:
    """`user` closed their last table page at `match` `minutes` ago."""
    Presence.objects.filter(match=match, user=user).delete()
    Presence.objects.create(
        match=match,
        user=user,
        channel=f"gone-{user.pk}",
        closed=True,
        alive_at=timezone.now() - timedelta(minutes=minutes),
    )


@pytest.fixture(autouse=True)
def _back_to_english() -> Any:
    """Requests in Spanish or German leave that language active in the thread: reset it,
    so later tests (in any folder) read the default language."""
    yield
    translation.deactivate()
