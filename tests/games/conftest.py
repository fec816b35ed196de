"""Fixtures for the games app's models, services and selectors (PostgreSQL).

- `alice`, `bob`, `carol`: signed-up users;
- `make_match(...)`: a match from seat kinds ("me", "human", "local", "computer:casual");
- `Driver`: plays a match through its services, choosing among the engine's legal
  actions (`engine.rules.legal_actions`) for the seats people control and letting
  `computer_step` play the computer seats;
- from tests/games/matches.py: `make_user`, `ana`, `ben`, `ana_client`, `admin_client_`
  (users and signed-in clients for the pages) and its helpers `create`, `step`, `play`.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from typing import Any

import pytest

from engine.rules import legal_actions
from engine.serialize import state_from_json
from engine.state import Action, RoundState
from games import services
from games.models import LogEntry, Match, Seat
from games.services import SeatSpec
from tests import seeded
from tests.games.matches import (  # noqa: F401  (the pages' fixtures, for every folder below)
    _back_to_english,
    admin_client_,
    ana,
    ana_client,
    ben,
    make_user,
)

SEED = 20261202


def rid() -> str:
    """A fresh client request id."""
    return uuid.uuid4().hex


def spec(kind: str, computer_level: str = "expert") -> SeatSpec:
    """ "me", "human", "local", "local:Ana", "computer", "computer:casual" -> SeatSpec
    (a computer without a level gets `computer_level`)."""
    base, _, extra = kind.partition(":")
    if base == "computer":
        return SeatSpec("computer", level=extra or computer_level)
    if base == "local":
        return SeatSpec("local", name=extra)
    return SeatSpec(base)  # type: ignore[arg-type]


def state_of(match: Match) -> RoundState:
    match.refresh_from_db()
    return state_from_json(match.state)


def snapshot(match: Match) -> tuple[int, int, Any, int]:
    """What must not change when a request is refused: version, log size, state, rounds."""
    match.refresh_from_db()
    return (
        match.version,
        LogEntry.objects.filter(round__match=match).count(),
        match.state,
        match.rounds.count(),
    )


@pytest.fixture
def alice(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("alice")  # no password: hashing one costs ~0.3 s


@pytest.fixture
def bob(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("bob")


@pytest.fixture
def carol(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("carol")


@pytest.fixture
def make_match(alice: Any) -> Callable[..., Match]:
    def make(
        *kinds: str, creator: Any = None, seed: int | None = SEED, listed: bool = True
    ) -> Match:
        return seeded.match_create(
            creator=creator or alice,
            seats=[spec(k) for k in kinds or ("me", "computer")],
            seed=seed,
            listed=listed,
        )

    return make


class Driver:
    """Plays a match through the services as its people and computers would."""

    def __init__(self, match: Match, users: dict[int, Any], rng_seed: int = 0) -> None:
        self.match = match
        #: seat index -> the user who acts for it (people's seats only)
        self.users = users
        self.rng = random.Random(rng_seed)
        self.kinds = {s.index: s.kind for s in Seat.objects.filter(match=match)}

    @property
    def state(self) -> RoundState:
        return state_of(self.match)

    @property
    def version(self) -> int:
        self.match.refresh_from_db(fields=["version"])
        return self.match.version

    def submit(self, action: Action, **kwargs: Any) -> services.Result:
        """Send `action` as the user of its seat, at the version last read."""
        assert action.seat is not None
        return services.action_submit(
            match_id=self.match.pk,
            user=self.users[action.seat],
            seat=action.seat,
            action=action.to_json(),
            expected_version=self.match.version,
            request_id=rid(),
            **kwargs,
        )

    def human_action(self, state: RoundState) -> Action:
        return self.rng.choice(legal_actions(state))

    def step(self, state: RoundState | None = None) -> bool:
        """One action by whoever is to act (in `state`, freshly read); False when the round is over."""
        state = state or self.state
        if state.over:
            return False
        if self.kinds[state.turn] == Seat.Kind.COMPUTER:
            assert services.computer_step(match_id=self.match.pk) is not None
        else:
            self.submit(self.human_action(state))
        return True

    def until(self, done: Callable[[RoundState], bool], limit: int = 2000) -> RoundState:
        """Step until `done(state)` (checked before each step) or the round ends."""
        for _ in range(limit):
            state = self.state
            if done(state) or not self.step(state):
                return state
        raise AssertionError("the round did not get there")

    def to_human_turn(self) -> RoundState:
        """Let the computers play until a person's seat is to act (or the round is over)."""
        return self.until(lambda s: s.turn is not None and self.kinds[s.turn] != Seat.Kind.COMPUTER)

    def finish_round(self) -> RoundState:
        return self.until(lambda s: s.over, limit=5000)

    def next_round(self, user: Any) -> services.Result:
        return services.round_next(
            match_id=self.match.pk, user=user, expected_version=self.version, request_id=rid()
        )


@pytest.fixture
def driver() -> Callable[..., Driver]:
    return Driver
