"""The expert's choices beside the people's moves of an ended round (engine.review), worked
out off the request path and kept (`RoundReview`).

- Which decisions: each effective action of the round that a person took (its log entry
  is not a computer's) when the seat had more than one legal action. Each is looked back
  at from that seat's view before the action (`engine.views.view`), never from the state.
- Queued: by the computer worker's process for the rounds that ended lately with such a
  decision (`queue_ended`, every `SCAN_EVERY` seconds; not with ``EXPERT_REVIEWS=asked``),
  or when a reader asks for them on the replay page (`ask`, a POST: a reader's GET never
  writes).
- Worked out: by one thread of the worker's process (`on_worker_pass` starts it when work
  waits and none runs), the asked rounds first, then the oldest queued. One decision per
  transaction on the locked review row, skipping a row another process holds, so two
  processes never compute the same decision and a stopped process leaves what it did.
- Read: `review_of(replay)` says where a round's review stands and gives its decisions.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone

from engine.review import review
from engine.views import view
from games import log
from games.history.models import RoundReview
from games.history.replays import RoundReplay, Step, round_steps
from games.models import LogEntry, Round

logger = logging.getLogger(__name__)

#: seconds between two looks for rounds that ended with a person's decision, in one process
SCAN_EVERY = 5.0
#: rounds that ended longer ago than this are reviewed only when a reader asks
RECENT = timedelta(hours=6)
#: the thread's name (its database connection is its own)
THREAD_NAME = "reviews"
#: seconds the thread rests between two decisions: in a server process it shares the
#: interpreter with the tables, which then get it back at once
REST = 0.05

#: when this process last looked for ended rounds (monotonic seconds), and its thread
_scan: dict[str, float] = {"at": float("-inf")}
_thread: dict[str, threading.Thread | None] = {"thread": None}
#: reviews whose round could not be replayed in this process (logged once, not tried again)
_failed: set[int] = set()


@dataclass(frozen=True)
class Decision:
    step: int
    seat: int
    before: Step
    taken: Step


def decisions(steps: list[Step]) -> list[Decision]:
    """The people's decisions with a choice among the round's steps (a computer's are not
    looked back at; nor a move that was the only one possible)."""
    out: list[Decision] = []
    for k in range(1, len(steps)):
        step = steps[k]
        entry, action = step.entry, step.action
        if entry is None or action is None or entry.by_computer or action.seat is None:
            continue
        before = steps[k - 1]
        if before.state.turn != action.seat:
            continue
        if len(view(before.state, action.seat).legal) > 1:
            out.append(Decision(k, action.seat, before, step))
    return out


def _effective(rnd: Round) -> list[LogEntry]:
    return list(log.fold(list(LogEntry.objects.filter(round=rnd).order_by("seq"))).effective)


def _last_version(steps: list[Step]) -> int:
    return steps[-1].version


@dataclass(frozen=True)
class ReviewState:
    """Where a round's review stands for the replay page: "none" (no decision of a person
    to look back at), "ask" (not queued yet), "computing" or "done"; `moves` when done."""

    status: str
    moves: tuple[dict[str, Any], ...] = ()


def review_of(replay: RoundReplay) -> ReviewState:
    """The review of the replayed round as it stands (a read: queues nothing)."""
    if not decisions(replay.steps):
        return ReviewState("none")
    row = RoundReview.objects.filter(round=replay.round).first()
    if row is None:
        return ReviewState("ask")
    if row.version != _last_version(replay.steps):
        # The round's log changed since: reviewed again once asked (or already queued).
        return ReviewState("computing" if row.status == RoundReview.Status.QUEUED else "ask")
    if row.status != RoundReview.Status.DONE:
        return ReviewState("computing")
    return ReviewState("done", tuple(row.moves))


def ask(rnd: Round) -> RoundReview:
    """A reader asked for the round's review: queue it first in line (a review already done
    for the round's log as it is stays as it is)."""
    now = timezone.now()
    row, created = RoundReview.objects.get_or_create(round=rnd, defaults={"asked_at": now})
    if created:
        return row
    steps = round_steps(rnd, _effective(rnd))
    if row.status == RoundReview.Status.DONE and row.version == _last_version(steps):
        return row
    RoundReview.objects.filter(pk=row.pk).update(
        status=RoundReview.Status.QUEUED, asked_at=row.asked_at or now
    )
    row.refresh_from_db()
    return row


def queue_ended(since: datetime) -> int:
    """Queue every round that ended since `since` with a person's action and no review yet."""
    person = LogEntry.objects.filter(round=OuterRef("pk"), kind=log.ACTION, by_computer=False)
    ids = list(
        Round.objects.filter(ended_at__gte=since)
        .exclude(ended_by="")
        .filter(Exists(person))
        .exclude(Exists(RoundReview.objects.filter(round=OuterRef("pk"))))
        .values_list("pk", flat=True)
    )
    RoundReview.objects.bulk_create([RoundReview(round_id=pk) for pk in ids], ignore_conflicts=True)
    return len(ids)


def work_one(round_id: int) -> bool:
    """Look back at the next decision of the round's queued review, or mark it done when none
    is left. False when the row is not queued or another process holds it."""
    with transaction.atomic():
        row = (
            RoundReview.objects.select_for_update(skip_locked=True)
            .filter(pk=round_id, status=RoundReview.Status.QUEUED)
            .select_related("round__match")
            .first()
        )
        if row is None:
            return False
        rnd = row.round
        steps = round_steps(rnd, _effective(rnd))
        version = _last_version(steps)
        if row.version != version:
            row.version, row.moves = version, []
        done = {m["step"] for m in row.moves}
        for d in decisions(steps):
            if d.step in done:
                continue
            assert d.taken.action is not None
            got = review(
                view(d.before.state, d.seat), d.taken.action, seed=rnd.match.seed, step=d.step
            )
            row.moves = sorted(
                [
                    *row.moves,
                    {
                        "step": d.step,
                        "seat": d.seat,
                        "taken": got.taken.to_json(),
                        "expert": got.expert.to_json(),
                        "reason": got.reason,
                        "taken_points": got.taken_points,
                        "expert_points": got.expert_points,
                        "playouts": got.playouts,
                    },
                ],
                key=lambda m: m["step"],
            )
            row.save(update_fields=["version", "moves"])
            return True
        row.status, row.done_at = RoundReview.Status.DONE, timezone.now()
        row.save(update_fields=["version", "moves", "status", "done_at"])
        return True


def next_queued() -> list[int]:
    """The queued reviews in the order they are worked on: asked first (oldest ask first),
    then as queued."""
    return list(
        RoundReview.objects.filter(status=RoundReview.Status.QUEUED)
        .exclude(pk__in=_failed)
        .order_by(F("asked_at").asc(nulls_last=True), "queued_at")
        .values_list("pk", flat=True)[:20]
    )


def work(budget: float | None = None, rest: float = 0.0) -> int:
    """Work on queued reviews until none is left (or `budget` seconds passed), resting `rest`
    seconds after each decision; how many decisions were done."""
    started = time.monotonic()
    count = 0
    while budget is None or time.monotonic() - started < budget:
        progressed = False
        for pk in next_queued():
            if pk in _failed:
                continue
            try:
                while work_one(pk):
                    count += 1
                    progressed = True
                    if rest:
                        time.sleep(rest)
                    if budget is not None and time.monotonic() - started >= budget:
                        return count
            except Exception:
                logger.exception("reviews: round %s could not be looked back at", pk)
                _failed.add(pk)
            # a row done (or held by another process): the next one
        if not progressed:
            break
    return count


def _drain() -> None:
    try:
        work(rest=REST)
    except Exception:
        logger.exception("reviews: working out the expert's choices failed")
    finally:
        connection.close()  # this thread's own connection


def when_ended() -> bool:
    """Whether rounds are queued as they end (``EXPERT_REVIEWS``: ``ended``, the default) or
    only when a reader asks (``asked``: a test server, or a site that spares the CPU)."""
    return os.environ.get("EXPERT_REVIEWS", "ended").strip().lower() != "asked"


def on_worker_pass(sender: object, **kwargs: object) -> None:
    """Receiver of `games.signals.worker_pass` (connected in HistoryConfig.ready): queue the
    rounds that ended lately (every `SCAN_EVERY` seconds) and, when reviews wait, start the
    thread that works them out if none runs. Quick: the work is the thread's."""
    now = time.monotonic()
    if now - _scan["at"] < SCAN_EVERY:
        return
    _scan["at"] = now
    if when_ended():
        queue_ended(timezone.now() - RECENT)
    running = _thread["thread"]
    if running is not None and running.is_alive():
        return
    if not RoundReview.objects.filter(status=RoundReview.Status.QUEUED).exists():
        return
    _thread["thread"] = start_thread()


def start_thread() -> threading.Thread:
    """Start the thread that works the queue out until it is empty (`work`)."""
    thread = threading.Thread(target=_drain, name=THREAD_NAME, daemon=True)
    thread.start()
    return thread
