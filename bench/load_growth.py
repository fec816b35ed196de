"""Cost growth: does an action late in a match cost more than one near its start?

A 4-seat match (one user per seat) is played through the service the websocket
calls, `services.action_submit`, always with the first legal action
(`engine.rules.legal_actions`), rounds moved on with `services.round_next`. Each
timed action is timed on its own, and so is what the server does next for each of
the four connections: the consumer's board for that seat
(`TableConsumer.board_message`, each read afresh) — by the wall clock (the
database's part included) and by this thread's CPU time. Queries are counted.

The same seed gives the same match, action for action. So one copy is played
(untimed, services only) to action 1,000 and a fresh copy is started, and then
the two take turns: action 1 of the fresh copy, action 1,001 of the old one,
action 2, action 1,002, … Both windows are timed in the same seconds, so a shared
machine getting busier or quieter meanwhile sways neither more than the other.
Because an action costs more while the hands are full, a round's first actions are
compared too: the old copy moves on to the first round that starts after action
1,000 and takes turns with another fresh copy's round 1. The service stores a
snapshot and never replays the match, so neither ratio should grow.
"""

from __future__ import annotations

import statistics
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.utils import translation

from engine import rules
from engine.serialize import state_from_json
from engine.state import RoundState


@dataclass
class Sample:
    """Timed actions: the service alone, and the four boards after it (seconds, queries)."""

    service: list[float] = field(default_factory=list)
    boards: list[float] = field(default_factory=list)
    service_cpu: list[float] = field(default_factory=list)
    boards_cpu: list[float] = field(default_factory=list)
    service_queries: list[int] = field(default_factory=list)
    board_queries: list[int] = field(default_factory=list)

    def median(self, name: str) -> float:
        return float(statistics.median(getattr(self, name)))


@dataclass
class Growth:
    size: int
    after: int
    #: the fresh copy's first actions and the old copy's actions after+1 .. after+size
    start: Sample = field(default_factory=Sample)
    late: Sample = field(default_factory=Sample)
    #: another fresh copy's first actions and the old copy's first of round `round`
    round_start: Sample = field(default_factory=Sample)
    late_round_start: Sample = field(default_factory=Sample)
    #: the round whose first actions were compared, and the first one's number in the match
    round: int | None = None
    round_first_action: int | None = None


class _Counter:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        self.count += 1
        return execute(sql, params, many, context)


class Copy:
    """One copy of the seeded match, played one action at a time."""

    def __init__(self, users: list[Any], seed: int, counter: _Counter) -> None:
        from bench.consumers import table_consumer
        from games import services
        from tests import seeded

        self.users = users
        self.counter = counter
        self.match = seeded.match_create(
            creator=users[0],
            seed=seed,
            listed=False,
            seats=[services.SeatSpec("me")] + [services.SeatSpec("human")] * (len(users) - 1),
        )
        for user in users[1:]:
            services.seat_join(match_id=self.match.pk, user=user, token=self.match.invite_token)
        self.actions = 0
        self.consumers = [table_consumer(self.match.pk, user) for user in users]

    def next_state(self) -> tuple[Any, RoundState] | None:
        """The match row and state the next action is played on (past a round's end); None at the end."""
        from games import services
        from games.models import Match

        while True:
            row = Match.objects.get(pk=self.match.pk)
            state = state_from_json(row.state)
            if state.phase == "match_over":
                return None
            if state.phase != "round_over":
                return row, state
            services.round_next(
                match_id=self.match.pk,
                user=self.users[0],
                expected_version=row.version,
                request_id=uuid.uuid4().hex,
            )

    def step(self, sample: Sample | None) -> bool:
        """Play the next action (timed into `sample`, with the four boards after it); False at the end."""
        from games import services

        found = self.next_state()
        if found is None:
            return False
        row, state = found
        action = rules.legal_actions(state)[0]
        assert action.seat is not None
        submit = {
            "match_id": self.match.pk,
            "user": self.users[action.seat],
            "seat": action.seat,
            "action": action.to_json(),
            "expected_version": row.version,
            "request_id": uuid.uuid4().hex,
        }
        self.actions += 1
        if sample is None:
            services.action_submit(**submit)
            return True
        self.counter.count = 0
        started, cpu = time.perf_counter(), time.thread_time()
        services.action_submit(**submit)
        sample.service.append(time.perf_counter() - started)
        sample.service_cpu.append(time.thread_time() - cpu)
        sample.service_queries.append(self.counter.count)
        self.counter.count = 0
        started, cpu = time.perf_counter(), time.thread_time()
        for consumer in self.consumers:
            consumer.board_message()  # each reads afresh, as without the shared reads
        sample.boards.append(time.perf_counter() - started)
        sample.boards_cpu.append(time.thread_time() - cpu)
        sample.board_queries.append(self.counter.count)
        return True

    def round_of_next(self) -> int | None:
        found = self.next_state()
        return found[1].round if found is not None else None


def measure_growth(*, users: list[Any], seed: int, after: int, size: int) -> Growth:
    """Time actions 1..size against after+1..after+size of the seeded match, taking turns,
    then a round's first `size` actions (round 1 against the first round after `after`)."""
    out = Growth(size=size, after=after)
    counter = _Counter()
    with translation.override("en"), connection.execute_wrapper(counter):
        # Warm up (templates compiled, catalogues loaded) on a copy of another seed.
        warm = Copy(users, seed + 1, counter)
        for _ in range(min(30, size * 3)):
            warm.step(Sample())
        old = Copy(users, seed, counter)
        while old.actions < after and old.step(None):
            pass
        fresh = Copy(users, seed, counter)
        for _ in range(size):
            if not (fresh.step(out.start) and old.step(out.late)):
                return out  # the match ended first
        # The same place in a round: move the old copy on to the next round's first action.
        current = old.round_of_next()
        while current is not None and old.round_of_next() == current:
            old.step(None)
        out.round = old.round_of_next()
        out.round_first_action = old.actions + 1
        fresh = Copy(users, seed, counter)
        for _ in range(size):
            if not (fresh.step(out.round_start) and old.step(out.late_round_start)):
                out.round = None
                break
    return out
