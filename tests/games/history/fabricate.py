"""Finished matches written straight into the tables, as the services would leave them,
without a service call per action (a 13-round match through the services takes a
minute; the stats tests need hundreds). The rounds are played by the engine's bots
from the seed (R4), every action is logged, and the stats hook is called in the
transaction that marks the match finished, as `games.services` does."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from engine import bots, rules
from engine.serialize import start_to_json, state_to_json
from engine.views import view
from games.history.stats import match_finished
from games.models import LogEntry, Match, Round, Seat, Table


def finished_match(
    seats: Sequence[Any], seed: int, *, count: bool = True, undo_rng: random.Random | None = None
) -> Match:
    """A finished match; `seats`: a user (a person's seat) or a computer level ("casual", "expert", …).

    With `undo_rng`, now and then an action is logged, then undone (R27), then played
    differently or the same again, so the stats must fold the log rather than read it raw."""
    creator = next(s for s in seats if not isinstance(s, str))
    table = Table.objects.create(created_by=creator)
    state = rules.new_match_round(len(seats), seed)
    with transaction.atomic():
        match = Match.objects.create(
            table=table,
            seed=seed,
            players=len(seats),
            status=Match.Status.PLAYING,
            invite_token=secrets.token_hex(8),
            watch_token=secrets.token_hex(8),
            state=state_to_json(state),
            created_by=creator,
        )
        for i, s in enumerate(seats):
            if isinstance(s, str):
                Seat.objects.create(match=match, index=i, kind=Seat.Kind.COMPUTER, level=s)
            else:
                Seat.objects.create(match=match, index=i, kind=Seat.Kind.HUMAN, user=s)
        version = 0
        entries: list[LogEntry] = []
        for number in range(1, 14):
            rnd = Round.objects.create(match=match, number=number, start=start_to_json(state.start))
            seq = 0
            while not state.over:
                action = bots.choose(view(state, state.turn), "casual")
                if undo_rng is not None and undo_rng.random() < 0.05:
                    seq += 1
                    version += 1
                    entries.append(
                        LogEntry(
                            round=rnd,
                            seq=seq,
                            kind="action",
                            seat=action.seat,
                            action=action.to_json(),
                            version=version,
                        )
                    )
                    seq += 1
                    version += 1
                    entries.append(
                        LogEntry(
                            round=rnd, seq=seq, kind="undo", action={"count": 1}, version=version
                        )
                    )
                state = rules.apply(state, action)
                seq += 1
                version += 1
                entries.append(
                    LogEntry(
                        round=rnd,
                        seq=seq,
                        kind="action",
                        seat=action.seat,
                        action=action.to_json(),
                        version=version,
                    )
                )
            rnd.ended_by = state.ended_by or ""
            rnd.points = list(state.round_points or ())
            rnd.totals = list(state.totals)
            rnd.ended_at = timezone.now()
            rnd.save()
            if number < 13:
                state = rules.next_round(state)
                version += 1
        LogEntry.objects.bulk_create(entries)
        match.status = Match.Status.FINISHED
        match.finished_at = timezone.now()
        match.state = state_to_json(state)
        match.round_number = 13
        match.version = version
        match.save()
        if count:
            match_finished(match)
    return match
