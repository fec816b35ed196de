"""Computer players and hints (R25): limited heuristics over a seat's view only.

A bot is a function of a `SeatView` — its own hand and public information — and
of a number, its `luck`, and never sees the state, so it cannot cheat. The same view
and luck always give the same choice. Three levels, weakest first (their strength is
measured by ``bench/bots.py``):

- ``beginner``: plays like a careless person: it never plans, often plays its
  lightest tile and keeps the heavy ones for later, picks a tile on a whim
  otherwise, and often ends its first turn after a tile or two although it could
  go on (R9). It only ever takes a legal action; its whims come from
  ``random.Random(luck)``, and the site derives the luck from the match's seed, the
  round, the seat and the match's version (`luck`), so a match stays reproducible.
- ``casual``: places the heaviest tile it can, one at a
  time, and never plans.
- ``expert``: plans its first-turn chain (the longest,
  then heaviest, run from its own hand), sheds high tiles, plays doubles only when
  it can follow them, prefers its own train while it carries a marker, and keeps
  its options open.

A computer player decides once per action, so this module is on the hot path of
every computer match: the expert level works on bitmasks of hand positions rather
than copies of the hand (see ``bench/engine.py``).
"""

from __future__ import annotations

import hashlib
import random
from collections import OrderedDict
from typing import Literal, NamedTuple, TypeAlias, cast

from .state import MEXICAN, Action
from .tiles import FULL_SET, HIGHEST, Tile
from .views import SeatView

Level = Literal["beginner", "casual", "expert"]
#: weakest first: each level beats the one before it (bench/bots.py --ladder)
LEVELS: tuple[Level, ...] = ("beginner", "casual", "expert")

#: how often the beginner ends its first turn after a tile although it could go on (R9)
BEGINNER_STOPS = 0.4
#: how often the beginner plays its lightest playable tile (the heavy ones "later");
#: otherwise it picks any playable tile on a whim
BEGINNER_LIGHT = 0.5

#: how many chain extensions the first-turn planner may try (keeps a turn cheap).
#: A search over at most 8 tiles that are not doubles never needs more than 239,
#: so the plan is exact for such hands; larger hands get the best chain found.
PLAN_BUDGET = 250


class Choice(NamedTuple):
    """A decision and why (immutable; a NamedTuple: one is made for every computer action)."""

    action: Action
    #: a short machine-readable reason the site turns into words (hints, R23)
    reason: str


def canonical(level: str) -> Level:
    """The level called `level`; ValueError for anything else."""
    if level not in LEVELS:
        raise ValueError(f"no computer level {level!r}")
    return cast(Level, level)  # one of LEVELS: checked just above


def luck(seed: int, round_number: int, seat: int, step: int) -> int:
    """A computer's luck for one decision: a number fixed by the match's seed, the round,
    the seat and the step (the site uses the match's version), so replaying a match
    replays every whim. Stable across processes and Python versions (BLAKE2b, not hash())."""
    text = f"{seed}:{round_number}:{seat}:{step}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


def choose(view: SeatView, level: str = "expert", luck: int = 0) -> Action:
    """The action a computer player of `level` takes in `view` (it must be its turn)."""
    return decide(view, level, luck).action


#: the reason for an action that is the only one on offer
_ONLY = {"engine": "engine", "draw": "draw", "pass": "pass", "end": "end"}


def decide(view: SeatView, level: str = "expert", luck: int = 0) -> Choice:
    """The action and its reason; `luck` matters only to the beginner (see `luck`)."""
    known = canonical(level)
    legal = view.legal
    if not legal:
        raise ValueError("it is not this seat's turn")
    only = legal[0]
    if len(legal) == 1 and only.act != "play":
        return Choice(only, _ONLY[only.act])
    if known == "casual":
        return _casual(view)
    if known == "beginner":
        return _beginner(view, luck)
    return _expert(view)


# ---------------------------------------------------------------- beginner


def _weight(action: Action) -> int:
    tile = action.tile
    assert tile is not None
    return tile[0] + tile[1]


def _beginner(view: SeatView, luck: int) -> Choice:
    """A careless player: no plan, light tiles first, whims, short first turns (R9)."""
    legal = view.legal
    plays = [a for a in legal if a.act == "play"]
    if not plays:
        return Choice(legal[0], legal[0].act)
    rng = random.Random(luck)
    if view.phase == "first" and view.placed > 0 and rng.random() < BEGINNER_STOPS:
        # R9: after a tile the first turn may end; the beginner forgets the rest of its chain.
        return Choice(next(a for a in legal if a.act == "end"), "end")
    if rng.random() < BEGINNER_LIGHT:
        # The lightest tile; the legal list's order breaks ties (it is the engine's, stable).
        return Choice(min(plays, key=_weight), "lightest")
    return Choice(plays[rng.randrange(len(plays))], "whim")


# ---------------------------------------------------------------- casual


def _casual(view: SeatView) -> Choice:
    best: Action | None = None
    best_key = (-1, 0)
    for a in view.legal:
        if a.act == "play":
            tile, train = a.tile, a.train
            assert tile is not None and train is not None
            # The heaviest tile; among equals the Mexican train, then lower seats' trains.
            key = (tile[0] + tile[1], -1 if train == MEXICAN else -int(train) - 2)
            if key > best_key:
                best, best_key = a, key
    if best is None:
        # Only "end" (first turn, nothing fits) or draw/pass remain.
        return Choice(view.legal[0], view.legal[0].act)
    return Choice(best, "heaviest")


# ---------------------------------------------------------------- expert


#: a bit for each tile of the set, either way round: a hand is the sum of its tiles'
#: bits, a cheap key that does not depend on the order of the tiles
_BIT: dict[Tile, int] = {t: 1 << i for i, (a, b) in enumerate(FULL_SET) for t in ((a, b), (b, a))}
_bit = _BIT.__getitem__

#: first-turn plans by (the hand at the start of the turn, the engine number): the
#: chain, and the same tiles as they lie on the train. A pure cache of `best_chain`,
#: so a bot stays a function of its view.
_PLANS: OrderedDict[tuple[int, int], tuple[tuple[Tile, ...], tuple[Tile, ...]]] = OrderedDict()
_PLANS_KEPT = 512


def forget_plans() -> None:
    """Empty the plan caches (benchmarks start every repeat cold)."""
    _PLANS.clear()
    _NEXT.clear()


def _plan(
    bits: int, tiles: tuple[Tile, ...], end: int
) -> tuple[tuple[Tile, ...], tuple[Tile, ...]]:
    """`best_chain` for the hand `tiles` (whose bits are `bits`), remembered, with the chain as laid."""
    key = (bits, end)
    entry = _PLANS.get(key)
    if entry is None:
        hand = tuple(sorted((a, b) if a <= b else (b, a) for a, b in tiles))
        plan = tuple(best_chain(hand, end))
        laid, at = [], end
        for a, b in plan:
            laid.append((a, b) if a == at else (b, a))
            at = laid[-1][1]
        entry = _PLANS[key] = (plan, tuple(laid))
        while len(_PLANS) > _PLANS_KEPT:
            _PLANS.popitem(last=False)
    return entry


def planned_chain(hand: tuple[Tile, ...], end: int) -> tuple[Tile, ...]:
    """`best_chain(hand, end)`, remembered: one search serves a whole first turn."""
    return _plan(sum(map(_bit, hand)), hand, end)[0]


#: the answers of `next_in_chain` by (hand, tiles placed this turn, the number the
#: turn started from), written down for every later step of a plan when the plan is
#: read, so the rest of a first turn costs one lookup per step. It holds only the
#: answers the plan gives anyway: it never changes a choice.
_NEXT: OrderedDict[tuple[tuple[Tile, ...], tuple[Tile, ...], int], Tile | None] = OrderedDict()
_NEXT_KEPT = 8192
_UNKNOWN = (-1, -1)


def next_in_chain(view: SeatView) -> Tile | None:
    """The next tile of the first-turn chain planned from the view (R8), None to stop.

    The plan is made for the hand the seat held when its turn began: the view shows
    it, as the hand plus the tiles already placed on the own train this turn. So
    every step of the turn reads the same plan, and the choice depends on the view
    only, never on what was searched before. A turn that left the plan (a hint
    followed in part) is planned afresh from where it stands.
    """
    hand, seat = view.hand, view.seat
    assert hand is not None and seat is not None
    tiles = view.trains[seat].tiles
    placed = min(view.placed, len(tiles))
    played = tiles[len(tiles) - placed :]
    start = tiles[-placed - 1][1] if len(tiles) > placed else view.engine
    step = _NEXT.get((hand, played, start), _UNKNOWN)
    if step is not _UNKNOWN:
        return step
    plan, laid = _plan(sum(map(_bit, hand)) + sum(map(_bit, played)), hand + played, start)
    if laid[:placed] != played:
        rest = planned_chain(hand, tiles[-1][1] if tiles else view.engine)
        return rest[0] if rest else None
    # The hands of the later steps: the engine takes a played tile out of the hand
    # and keeps the order of the others (a different order only misses the cache).
    left = list(hand)
    for k in range(placed, len(plan)):
        _NEXT[(tuple(left), laid[:k], start)] = plan[k]
        left.remove(plan[k])
    _NEXT[(tuple(left), laid, start)] = None
    while len(_NEXT) > _NEXT_KEPT:
        _NEXT.popitem(last=False)
    return plan[placed] if placed < len(plan) else None


#: a chain as nested pairs: (its last tile, the chain before that tile)
_Chain: TypeAlias = "tuple[Tile, _Chain] | None"

#: a chain's value: its length first, then its points (a hand never holds 2048 points)
_LONGER = 2048


def best_chain(hand: tuple[Tile, ...], end: int, budget: int = PLAN_BUDGET) -> list[Tile]:
    """The longest run from `end` using tiles of `hand`, heaviest among equals (R8 planning).

    A depth-first search over the tiles that are not doubles; a double joins the
    chain when the chain first reaches its number (that costs nothing and never
    blocks a longer chain), which keeps the search small. Cut off after `budget`
    extensions so that a turn stays cheap; the cut makes it a heuristic for big
    hands, so the numbers the chain can go on from are tried first.
    """
    size = max(HIGHEST, end) + 1
    degree = [0] * size
    doubles: list[Tile | None] = [None] * size
    for tile in hand:
        a, b = tile
        if a == b:
            doubles[a] = tile
        else:
            degree[a] += 1
            degree[b] += 1
    # Try first the numbers we can leave again (an even number of tiles touch it),
    # then busier numbers, then heavier tiles: the best chain then comes early.
    rank = [(0 if d and d % 2 == 0 else 64 * _LONGER) - _LONGER * d for d in degree]
    links: list[list[tuple[int, int, int, Tile, int]]] = [[] for _ in range(size)]
    for i, tile in enumerate(hand):
        a, b = tile
        if a != b:
            value = _LONGER + a + b
            links[a].append((rank[b] - value, 1 << i, b, tile, value))
            links[b].append((rank[a] - value, 1 << i, a, tile, value))
    for at_links in links:
        if len(at_links) > 1:
            at_links.sort()
    # A chain is kept as nested pairs (last tile, the chain before it): extending
    # one costs a pair, and the best so far is kept without copying it.
    best: _Chain = None
    best_value = -1
    left = budget

    def walk(at: int, used: int, seen: int, value: int, chain: _Chain) -> None:
        nonlocal best, best_value, left
        if value > best_value:
            best, best_value = chain, value
        for _, bit, to, tile, tile_value in links[at]:
            if used & bit:
                continue
            if left <= 0:
                return
            left -= 1
            double = doubles[to]
            if double is not None and not seen >> to & 1:
                walk(
                    to,
                    used | bit,
                    seen | 1 << to,
                    value + tile_value + _LONGER + to + to,
                    (double, (tile, chain)),
                )
            else:
                walk(to, used | bit, seen | 1 << to, value + tile_value, (tile, chain))

    first = doubles[end]
    walk(end, 0, 1 << end, _LONGER + end + end if first else 0, (first, None) if first else None)
    out: list[Tile] = []
    while best is not None:
        out.append(best[0])
        best = best[1]
    out.reverse()
    return out


def _expert(view: SeatView) -> Choice:
    hand, seat, legal = view.hand, view.seat, view.legal
    assert hand is not None and seat is not None
    if view.phase == "first":
        step = next_in_chain(view)
        if step is not None:
            for a in legal:
                if a.tile == step:
                    return Choice(a, "chain")
        end = next((a for a in legal if a.act in ("end", "pass")), None)
        if end is not None:
            return Choice(end, end.act)
    plays = [a for a in legal if a.act == "play"]
    if not plays:
        return Choice(legal[0], legal[0].act)
    if view.open_doubles and not view.owes:
        # R19: every legal play satisfies the oldest double; shed the heaviest.
        best = max(plays, key=_satisfy_order)
        return Choice(best, "satisfy")
    if len(plays) > 1:
        best = _Scorer(view).best(plays)
    else:
        best = plays[0]
    return Choice(best, _reason(view, best))


def _satisfy_order(action: Action) -> tuple[int, Tile]:
    tile = action.tile
    assert tile is not None
    return tile[0] + tile[1], tile


class _Scorer:
    """Scores the expert level's candidate plays against one view.

    The hand is read once into bitmasks over hand positions (`touch[v]`: the tiles
    that show the number v), so each candidate costs a few bit operations instead
    of a copy of the hand.
    """

    def __init__(self, view: SeatView) -> None:
        hand, seat = view.hand, view.seat
        assert hand is not None and seat is not None
        self.hand, self.seat, self.trains = hand, seat, view.trains
        touch = [0] * 13
        for i, (a, b) in enumerate(hand):
            touch[a] |= 1 << i
            touch[b] |= 1 << i
        self.touch = touch
        self.full = (1 << len(hand)) - 1
        #: the trains open to us (R13): own, marked, Mexican
        self.open = [t for t in view.trains if t.owner == seat or t.marker]
        self.own_marked = view.trains[seat].marker
        self.n = view.players

    def best(self, plays: list[Action]) -> Action:
        scored = [(self.score(a), a.tile, str(a.train), a) for a in plays]
        return max(scored, key=lambda sa: sa[:3])[3]

    def score(self, action: Action) -> float:
        tile, key = action.tile, action.train
        assert tile is not None and key is not None
        touch, seat = self.touch, self.seat
        rest = self.full & ~(1 << self.hand.index(tile))
        own = key == seat
        target = self.trains[self.n if key == MEXICAN else int(key)]
        new_end = tile[1] if tile[0] == target.end else tile[0]
        score = float(tile[0] + tile[1])
        if own and self.own_marked:
            score += 12  # taking the marker back closes our train (R16)
        if tile[0] == tile[1]:
            # R17: a double is followed by another play; worth it when we can follow.
            follow = touch[new_end] & rest or any(
                touch[t.end] & rest for t in self.open if t.key != key
            )
            score += 10 if follow else -15
            if not rest:
                score += 100  # R18: out on a double
        if not rest:
            score += 100
        # Keep options: count tiles still playable on the trains open to us afterwards.
        reach = 0
        for t in self.open:
            if t.end != target.end:
                reach |= touch[t.end]
        if own or target.marker:
            reach |= touch[new_end]
        score += 0.8 * (reach & rest).bit_count()
        # Leaving our own end on a number we hold keeps our train growing privately.
        if own:
            score += 1.5 * (touch[new_end] & rest).bit_count()
        elif key != MEXICAN:
            score -= 1  # playing on another's open train helps its owner keep their options
        return score


def _reason(view: SeatView, action: Action) -> str:
    assert action.tile is not None
    if view.seat is not None and action.train == view.seat and view.trains[view.seat].marker:
        return "close_train"
    if action.tile[0] == action.tile[1]:
        return "double"
    if view.hand is not None and len(view.hand) == 1:
        return "go_out"
    return "shed"
