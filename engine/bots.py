"""Computer players and hints (R25): limited heuristics over a seat's view only.

A bot is a function of a `SeatView` — its own hand and public information — and
never sees the state, so it cannot cheat. Nothing here is random: the same view
always gives the same choice. Two levels:

- ``basic``: places the heaviest tile it can, one at a time, and never plans.
- ``strong``: plans its first-turn chain (the longest, then heaviest, run from its
  own hand), sheds high tiles, plays doubles only when it can follow them, prefers
  its own train while it carries a marker, and keeps its options open.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Literal

from .state import MEXICAN, Action
from .tiles import Tile, is_double, points
from .views import SeatView

Level = Literal["basic", "strong"]
LEVELS: tuple[Level, ...] = ("basic", "strong")

#: how many chain extensions the first-turn planner may try (keeps a turn cheap)
PLAN_BUDGET = 1500


@dataclass(frozen=True, slots=True)
class Choice:
    action: Action
    #: a short machine-readable reason the site turns into words (hints, R23)
    reason: str


def choose(view: SeatView, level: Level = "strong") -> Action:
    """The action a computer player of `level` takes in `view` (it must be its turn)."""
    return decide(view, level).action


def decide(view: SeatView, level: Level = "strong") -> Choice:
    if not view.legal:
        raise ValueError("it is not this seat's turn")
    only = view.legal[0]
    if len(view.legal) == 1 and only.act != "play":
        return Choice(only, {"engine": "engine", "draw": "draw", "pass": "pass", "end": "end"}[only.act])
    if level == "basic":
        return _basic(view)
    return _strong(view)


# ---------------------------------------------------------------- basic


def _basic(view: SeatView) -> Choice:
    plays = [a for a in view.legal if a.act == "play"]
    if not plays:
        # Only "end" (first turn, nothing fits) or draw/pass remain.
        return Choice(view.legal[0], view.legal[0].act)
    best = max(plays, key=lambda a: (points(a.tile), _train_order(a)))  # type: ignore[arg-type]
    return Choice(best, "heaviest")


def _train_order(action: Action) -> int:
    return -1 if action.train == MEXICAN else -int(action.train or 0) - 2


# ---------------------------------------------------------------- strong


#: recent plans by (hand, end); a pure cache, so the bot stays a function of its view
_PLANS: OrderedDict[tuple[tuple[Tile, ...], int], tuple[Tile, ...]] = OrderedDict()
_PLANS_KEPT = 512


def forget_plans() -> None:
    """Empty the plan cache (benchmarks start every repeat cold)."""
    _PLANS.clear()


def planned_chain(hand: tuple[Tile, ...], end: int) -> tuple[Tile, ...]:
    """`best_chain`, remembered step by step: the rest of a best chain is a best chain
    for the rest of the hand, so one search serves a whole first turn."""
    key = (tuple(sorted(hand)), end)
    plan = _PLANS.get(key)
    if plan is None:
        plan = tuple(best_chain(key[0], end))
        rest, at = list(key[0]), end
        for i, tile in enumerate(plan):
            _PLANS[(tuple(rest), at)] = plan[i:]
            rest.remove(tile)
            at = tile[1] if tile[0] == at else tile[0]
        while len(_PLANS) > _PLANS_KEPT:
            _PLANS.popitem(last=False)
    return plan


def best_chain(hand: tuple[Tile, ...], end: int, budget: int = PLAN_BUDGET) -> list[Tile]:
    """The longest run from `end` using tiles of `hand`, heaviest among equals (R8 planning).

    A depth-first search over the tiles that touch each number, cut off after
    `budget` extensions so that a turn stays cheap; the cut makes it a heuristic.
    """
    touching: dict[int, list[int]] = {}
    for i, (a, b) in enumerate(hand):
        touching.setdefault(a, []).append(i)
        if b != a:
            touching.setdefault(b, []).append(i)
    used = [False] * len(hand)
    path: list[int] = []
    best: list[int] = []
    best_key = (0, 0)
    left = budget

    def walk(at: int, weight: int) -> None:
        nonlocal best, best_key, left
        key = (len(path), weight)
        if key > best_key:
            best, best_key = path[:], key
        for i in touching.get(at, ()):
            if used[i] or left <= 0:
                continue
            left -= 1
            a, b = hand[i]
            used[i] = True
            path.append(i)
            walk(b if a == at else a, weight + a + b)
            path.pop()
            used[i] = False

    walk(end, 0)
    return [hand[i] for i in best]


def _strong(view: SeatView) -> Choice:
    assert view.hand is not None and view.seat is not None
    plays = [a for a in view.legal if a.act == "play"]
    if view.phase == "first":
        own = view.train(view.seat)
        plan = planned_chain(view.hand, own.end)
        if plan:
            for a in plays:
                if a.tile == plan[0]:
                    return Choice(a, "chain")
        end = next((a for a in view.legal if a.act in ("end", "pass")), None)
        if end is not None:
            return Choice(end, end.act)
    if not plays:
        return Choice(view.legal[0], view.legal[0].act)
    if view.open_doubles and not view.owes:
        # R19: every legal play satisfies the oldest double; shed the heaviest.
        best = max(plays, key=lambda a: (points(a.tile), a.tile))  # type: ignore[arg-type]
        return Choice(best, "satisfy")
    scored = [(_score(view, a), a) for a in plays]
    score, best = max(scored, key=lambda sa: (sa[0], sa[1].tile, str(sa[1].train)))
    return Choice(best, _reason(view, best))


def _score(view: SeatView, action: Action) -> float:
    assert view.hand is not None and view.seat is not None and action.tile is not None
    tile = action.tile
    rest = list(view.hand)
    rest.remove(tile)
    own = action.train == view.seat
    target = view.train(action.train)  # type: ignore[arg-type]
    new_end = tile[1] if tile[0] == target.end else tile[0]
    score = float(points(tile))
    if own and view.train(view.seat).marker:
        score += 12  # taking the marker back closes our train (R16)
    if is_double(tile):
        # R17: a double is followed by another play; worth it when we can follow.
        follow = any(new_end in t for t in rest) or _playable_elsewhere(view, rest, action)
        score += 10 if follow else -15
        if not rest:
            score += 100  # R18: out on a double
    if not rest:
        score += 100
    # Keep options: count tiles still playable on the trains open to us afterwards.
    ends = {t.end for t in view.trains if t.owner == view.seat or t.marker}
    ends.discard(target.end)
    if own or target.marker:
        ends.add(new_end)
    score += 0.8 * sum(1 for t in rest if t[0] in ends or t[1] in ends)
    # Leaving our own end on a number we hold keeps our train growing privately.
    if own:
        score += 1.5 * sum(1 for t in rest if new_end in t)
    elif action.train != MEXICAN:
        score -= 1  # playing on another's open train helps its owner keep their options
    return score


def _playable_elsewhere(view: SeatView, rest: list[Tile], action: Action) -> bool:
    ends = {t.end for t in view.trains if (t.owner == view.seat or t.marker) and t.key != action.train}
    return any(t[0] in ends or t[1] in ends for t in rest)


def _reason(view: SeatView, action: Action) -> str:
    assert action.tile is not None
    if view.seat is not None and action.train == view.seat and view.train(view.seat).marker:
        return "close_train"
    if is_double(action.tile):
        return "double"
    if view.hand is not None and len(view.hand) == 1:
        return "go_out"
    return "shed"
