"""Cost growth: does an action late in a match cost more than one near its start?

One 4-seat match is played (past action 1,000 and into the next round) through the service the
websocket calls, `services.action_submit`, each seat by its own user, always the
first legal action (`engine.rules.legal_actions`); rounds are moved on with
`services.round_next` (not timed). Each action is timed on its own, and so is what
the server does next for each of the four connections: the consumer's board for
that seat (`TableConsumer.board_message`, each read afresh). Both by the wall clock
(the database's part included) and by this thread's CPU time (which a busy shared
machine disturbs less), after a short warm-up match so the first window does not
pay for compiling templates. The queries of both are counted. The result compares
the actions in a window near the start with those after 1,000 actions of the same
match (medians, so a stray pause does not decide it), and — since an action costs
more while the hands are full — also a round's first actions: round 1's against
those of the first round that starts after action 1,000. The service stores a
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


@dataclass
class Growth:
    #: per action (1-based index -> seconds): the service alone, and the four boards after it,
    #: wall clock (database included) and this thread's CPU time (less disturbed by a busy machine)
    service: list[float] = field(default_factory=list)
    boards: list[float] = field(default_factory=list)
    service_cpu: list[float] = field(default_factory=list)
    boards_cpu: list[float] = field(default_factory=list)
    service_queries: list[int] = field(default_factory=list)
    board_queries: list[int] = field(default_factory=list)
    #: the round of each action, and where each round's first action is (1-based)
    round_of: list[int] = field(default_factory=list)
    round_starts: dict[int, int] = field(default_factory=dict)
    rounds: int = 0
    finished: bool = False

    @property
    def actions(self) -> int:
        return len(self.service)

    def next_round_start(self, after: int) -> int | None:
        """The first action of the first round that starts after action `after`."""
        return min((start for start in self.round_starts.values() if start > after), default=None)

    def complete(self, after: int, size: int) -> bool:
        """Both windows are played: actions after+1.. and the first of the next round's."""
        start = self.next_round_start(after)
        return self.actions >= after + size and start is not None and self.actions >= start + size - 1

    def window(self, series: list[float], start: int, size: int) -> list[float]:
        return series[start - 1:start - 1 + size]

    def median(self, series: list[float], start: int, size: int) -> float | None:
        part = self.window(series, start, size)
        return statistics.median(part) if len(part) == size else None


class _Counter:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        self.count += 1
        return execute(sql, params, many, context)


def warm_up(users: list[Any], seed: int, actions: int = 30) -> None:
    """A few actions and boards of another match first, so the first window does not pay
    for what every process pays once (templates compiled, catalogues loaded, caches)."""
    from games import services
    from games.consumers import TableConsumer
    from games.models import Match

    match = services.match_create(creator=users[0], seed=seed, listed=False,
                                  seats=[services.SeatSpec("me")] + [services.SeatSpec("human")] * (len(users) - 1))
    for user in users[1:]:
        services.seat_join(match_id=match.pk, user=user, token=match.invite_token)
    with translation.override("en"):
        for _ in range(actions):
            row = Match.objects.get(pk=match.pk)
            state = state_from_json(row.state)
            if state.over:
                break
            action = rules.legal_actions(state)[0]
            assert action.seat is not None
            services.action_submit(match_id=match.pk, user=users[action.seat], seat=action.seat,
                                   action=action.to_json(), expected_version=row.version,
                                   request_id=uuid.uuid4().hex)
            for user in users:
                consumer = TableConsumer()
                consumer.match_id, consumer.user, consumer.revealed = match.pk, user, None
                consumer.board_message()


def measure_growth(*, users: list[Any], seed: int, after: int, size: int) -> Growth:
    """Play one match of `users` (4 seats, the first creates it) and time every action, until
    action after + size and the first `size` actions of the next round to start are played
    (a round's first actions meet full hands: compared with round 1's, that is the same
    place in a round), or the match ends."""
    from games import services
    from games.consumers import TableConsumer
    from games.models import Match

    warm_up(users, seed + 1)
    creator = users[0]
    match = services.match_create(creator=creator, seed=seed, listed=False,
                                  seats=[services.SeatSpec("me")] + [services.SeatSpec("human")] * (len(users) - 1))
    for user in users[1:]:
        services.seat_join(match_id=match.pk, user=user, token=match.invite_token)
    consumers = []
    for user in users:
        consumer = TableConsumer()
        consumer.match_id = match.pk
        consumer.user = user
        consumer.revealed = None
        consumers.append(consumer)

    out = Growth()
    counter = _Counter()
    with translation.override("en"), connection.execute_wrapper(counter):
        while not out.complete(after, size):
            row = Match.objects.get(pk=match.pk)
            state = state_from_json(row.state)
            if state.phase == "match_over":
                out.finished = True
                break
            if state.phase == "round_over":
                services.round_next(match_id=match.pk, user=creator, expected_version=row.version,
                                    request_id=uuid.uuid4().hex)
                out.rounds += 1
                continue
            action = rules.legal_actions(state)[0]
            assert action.seat is not None
            out.round_starts.setdefault(state.round, out.actions + 1)
            out.round_of.append(state.round)
            counter.count = 0
            started, cpu = time.perf_counter(), time.thread_time()
            services.action_submit(match_id=match.pk, user=users[action.seat], seat=action.seat,
                                   action=action.to_json(), expected_version=row.version,
                                   request_id=uuid.uuid4().hex)
            out.service.append(time.perf_counter() - started)
            out.service_cpu.append(time.thread_time() - cpu)
            out.service_queries.append(counter.count)
            counter.count = 0
            started, cpu = time.perf_counter(), time.thread_time()
            for consumer in consumers:
                consumer.board_message()  # each reads afresh, as without the shared reads
            out.boards.append(time.perf_counter() - started)
            out.boards_cpu.append(time.thread_time() - cpu)
            out.board_queries.append(counter.count)
    return out
