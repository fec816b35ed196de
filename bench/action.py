"""Server CPU of one action at a 4-seat table with one spectator, in this process.

    DATABASE_URL=... DEBUG=true .venv/bin/python -m pytest bench/action.py -q -s
    ... ACTION_PROFILE=1 ...   (also prints a cProfile of the measured actions, top 40;
                                 =service or =boards: of that step only;
                                 ACTION_DUMP=FILE also saves it for pstats)

What the daphne process does for one action, without the websocket transport (bench/load.py
measures the whole server): the acting connection's session check, the command's service
(`services.action_submit`, less its notice: see below), its ack, the table's hub deriving the
version from the notice's public entries (`board_reads.advance`, games.table.hub; a fresh
read when it cannot), then every seat's and the spectator's board (`TableConsumer.board_message`
from the version's shared reads) and each frame's JSON. Four people play a round (the first legal action of the seat to act, as
bench/load.py's clients do), committed for real (a transactional test database). Prints the
process CPU per action (median, p90) split into its steps, and the queries per action.
"""

from __future__ import annotations

import cProfile
import json
import os
import pstats
import statistics
import time
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from bench.consumers import table_consumer
from bench.load import session_cookie
from engine.rules import legal_actions
from engine.serialize import state_from_json
from games import notify, services
from games.models import Match
from games.services import SeatSpec
from games.table import board_reads
from games.table.consumers import TableConsumer
from tests import seeded

pytestmark = pytest.mark.django_db(transaction=True)

SEATS = 4
ACTIONS = 150
WARM_UP = 20


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def consumer(match_id: int, user: Any) -> TableConsumer:
    """A connection as `connect` leaves it (its socket aside), signed in as there."""
    return table_consumer(
        match_id, user, session_key=session_cookie(user) if user.is_authenticated else None
    )


def frame(c: TableConsumer, **kwargs: Any) -> int:
    message = c.board_message(**kwargs)
    if message is None:
        return 0
    c.sent_version = max(c.sent_version, c.sent.version)
    return len(json.dumps(message))


def test_cpu_per_action(django_user_model: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    users = [django_user_model.objects.create_user(f"cpu{i}") for i in range(SEATS)]
    match = seeded.match_create(
        creator=users[0],
        seed=21,
        listed=False,
        seats=[SeatSpec("me")] + [SeatSpec("human")] * (SEATS - 1),
    )
    for user in users[1:]:
        services.seat_join(match_id=match.pk, user=user, token=match.invite_token)
    board_reads.forget()
    conns = [consumer(match.pk, u) for u in users] + [consumer(match.pk, AnonymousUser())]
    steps: dict[str, list[float]] = {
        "session": [],
        "service": [],
        "hub update": [],
        "acting board": [],
        "other boards": [],
    }
    totals: list[float] = []
    queries: list[int] = []
    left_out: list[float] = []
    profile = cProfile.Profile(time.process_time) if os.environ.get("ACTION_PROFILE") else None
    # The notice after commit: here there is no event loop for async_to_sync to hand it to, so
    # it makes one each time, which the server does not; its CPU is left out (and printed).
    notices: list[float] = []
    tell = notify.match_changed

    def timed_notice(*args: Any, **kwargs: Any) -> bool:
        start = time.process_time()
        try:
            return tell(*args, **kwargs)
        finally:
            notices.append((time.process_time() - start) * 1000)

    monkeypatch.setattr(notify, "match_changed", timed_notice)
    told: list[dict[str, Any]] = []  # what the service hands this process's hub (games.table.hub)
    monkeypatch.setattr(notify, "hub_sink", lambda match_id, message: told.append(message))
    held = board_reads.current(match.pk, at_least=None)
    derived = 0

    def hub_update() -> None:
        """What the hub does with the notice: derive the version, or read it once."""
        nonlocal held, derived
        for message in told:
            made = board_reads.advance(held, message) if held is not None else None
            if made is not None:
                board_reads.keep(made)
                derived += 1
            held = made or board_reads.current(match.pk, at_least=message["version"])
        told.clear()

    with translation.override("en"):
        for c in conns:
            frame(c, whole=True)
        for n in range(WARM_UP + ACTIONS):
            row = Match.objects.get(pk=match.pk)
            state = state_from_json(row.state)
            if state.phase == "round_over":
                services.round_next(
                    match_id=match.pk,
                    user=users[0],
                    expected_version=row.version,
                    request_id=uuid.uuid4().hex,
                )
                hub_update()
                for c in conns:
                    frame(c)
                continue
            action = legal_actions(state)[0]
            me = conns[action.seat]
            measured = n >= WARM_UP
            only = os.environ.get("ACTION_PROFILE", "")
            if profile is not None and measured and only in ("1", "all"):
                profile.enable()
            with CaptureQueriesContext(connection) as captured:
                t0 = time.process_time()
                assert me.session.user_id() == me.user.pk  # what `call` checks before a command
                t1 = time.process_time()
                if profile is not None and measured and only == "service":
                    profile.enable()
                result = services.action_submit(
                    match_id=match.pk,
                    user=me.user,
                    seat=action.seat,
                    action=action.to_json(),
                    expected_version=row.version,
                    request_id=uuid.uuid4().hex,
                )
                json.dumps(
                    {
                        "type": "ack",
                        "request_id": "x",
                        "version": result.version,
                        "duplicate": result.duplicate,
                        "asked": result.asked,
                    }
                )
                t2 = time.process_time()
                if profile is not None and measured and only == "service":
                    profile.disable()
                if profile is not None and measured and only == "boards":
                    profile.enable()
                hub_update()
                t25 = time.process_time()
                frame(me, at_least=result.version)
                t3 = time.process_time()
                for c in conns:
                    if c is not me:
                        frame(c, at_least=result.version)
                t4 = time.process_time()
            if profile is not None and measured:
                profile.disable()
            notice = notices.pop() if notices else 0.0
            notices.clear()
            if measured:
                for name, took in zip(
                    steps,
                    (t1 - t0, t2 - t1 - notice / 1000, t25 - t2, t3 - t25, t4 - t3),
                    strict=True,
                ):
                    steps[name].append(took * 1000)
                totals.append((t4 - t0) * 1000 - notice)
                left_out.append(notice)
                queries.append(len(captured.captured_queries))
    print(
        f"\nCPU per action, {len(totals)} actions, 4 seats + 1 spectator: median {statistics.median(totals):.2f} ms,"
        f" p90 {pct(totals, 0.9):.2f} ms"
    )
    for name, values in steps.items():
        print(f"  {name}: median {statistics.median(values):.2f} ms")
    print(f"  queries per action: median {statistics.median(queries)}, max {max(queries)}")
    print(
        f"  (left out: the notice through a fresh event loop, median {statistics.median(left_out):.2f} ms)"
    )
    print(f"  versions derived by the hub from the notices: {derived}")
    if profile is not None:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
        pstats.Stats(profile).sort_stats("tottime").print_stats(30)
        if os.environ.get("ACTION_DUMP"):
            profile.dump_stats(os.environ["ACTION_DUMP"])
