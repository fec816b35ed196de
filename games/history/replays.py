"""The steps of an ended round, for the replay viewer (players and admin alike).

A round is replayed from its deal (`Round.start`) and its effective actions (the
log with undo, redo and restart folded in, `games.log`), through the engine: step 0
is the round as dealt (engine search done, R5, R6), step k the state after the k-th
effective action. Only a round that has ended may be replayed (`Round.ended_by`
set): its hands were face up for everyone at its end (R21), so the viewer shows them
at every step. A round still being played is never replayed, for anyone, staff
included: its hands are secret (R24).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine import rules
from engine.replay import parse_action
from engine.serialize import start_from_json
from engine.state import Action, RoundState
from games import log
from games.models import LogEntry, Match, Round


class NotReplayable(LookupError):
    """The round asked for does not exist or has not ended (its hands are still secret)."""


@dataclass(frozen=True)
class Step:
    #: 0 = the round as dealt; k = after the k-th effective action
    index: int
    #: the log entry of the action that led here (None at step 0)
    entry: LogEntry | None
    action: Action | None
    state: RoundState
    #: the match version after this step (the live board showed this state at this version)
    version: int


@dataclass(frozen=True)
class RoundReplay:
    match: Match
    round: Round
    steps: list[Step]
    #: the rounds of the match that may be replayed (ended), by number
    ended: list[int]
    #: penalty points of the ended rounds before this one, oldest first (R21)
    earlier_points: tuple[tuple[int, ...], ...]
    #: the log entry that was the match's last line when this round was dealt
    before: LogEntry | None

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    def step(self, k: int) -> Step:
        return self.steps[max(0, min(k, self.last))]


def ended_rounds(match: Match) -> list[Round]:
    """The rounds of `match` that have ended (R21), oldest first: the ones a replay may show."""
    return list(Round.objects.filter(match=match).exclude(ended_by="").order_by("number"))


def round_steps(rnd: Round, entries: Sequence[LogEntry]) -> list[Step]:
    """Every state of `rnd` from its deal through its effective actions `entries`."""
    state = rules.start_round(start_from_json(rnd.start))
    first_version = entries[0].version - 1 if entries else 0
    steps = [Step(0, None, None, state, first_version)]
    for k, entry in enumerate(entries, start=1):
        action = parse_action(entry.action)
        state = rules.apply(state, action)
        steps.append(Step(k, entry, action, state, entry.version))
    return steps


def round_replay(match: Match, number: int | None) -> RoundReplay:
    """The replay of round `number` of `match` (None: the latest ended round).

    Raises `NotReplayable` for a round that does not exist or has not ended — whoever
    asks (R24)."""
    ended = ended_rounds(match)
    if not ended:
        raise NotReplayable("no round of this match has ended yet")
    by_number = {r.number: r for r in ended}
    if number is None:
        number = ended[-1].number
    rnd = by_number.get(number)
    if rnd is None:
        raise NotReplayable(f"round {number} has not ended")
    entries = list(
        log.fold(
            list(LogEntry.objects.filter(round=rnd).select_related("user").order_by("seq"))
        ).effective
    )
    steps = round_steps(rnd, entries)
    if not steps[-1].state.over:
        # The stored result says ended, the log says otherwise: show nothing rather than a live hand.
        raise NotReplayable(f"round {number}'s log does not reach its end")
    before = None
    if number > 1:
        before = (
            LogEntry.objects.filter(round__match=match, round__number=number - 1)
            .select_related("user")
            .order_by("-seq")
            .first()
        )
    earlier = tuple(tuple(r.points or ()) for r in ended if r.number < number)
    return RoundReplay(
        match=match,
        round=rnd,
        steps=steps,
        ended=[r.number for r in ended],
        earlier_points=earlier,
        before=before,
    )


def parse_position(raw_round: Any, raw_step: Any) -> tuple[int | None, int]:
    """`?round=5&step=42` read leniently: a missing or malformed value means the default
    (the latest ended round, step 0); out-of-range steps are clamped by `RoundReplay.step`."""

    def number(raw: Any) -> int | None:
        if not isinstance(raw, str) or not raw.isdigit() or len(raw) > 6:
            return None
        return int(raw)

    return number(raw_round), number(raw_step) or 0
