"""The computer levels against each other (R25): seeded 4-seat matches.

    python bench/bots.py [--matches 300] [--players 4] [--levels expert,casual]
    python bench/bots.py --ladder [--matches 200]    # beginner < casual < expert

`--ladder` plays every level against the next stronger one (LEVELS, weakest first)
and says for each pair whether the stronger level wins clearly: its points per
round lower with the two 95% intervals apart, or the paired difference's interval
excluding 0. 200 matches are 2,600 rounds.

Match m is dealt from seed m // 2, and the two levels sit alternately around the
table: the first level on the even seats in even matches and on the odd seats in
odd ones. So every deal is played both ways round and neither level keeps the
better seats (the engine holder, who starts, or the seat after it).

Prints, for each level, the mean penalty points per round (R21) with a 95%
confidence interval, and its share of the wins (R22: tied winners share a win).
The unit of the statistics is the match: a level's mean per round in that match
(the seats and rounds of one match are not independent). The difference between
the levels is paired on the deal: the two matches of a seed are one observation.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path
from typing import NamedTuple

# Run as `python bench/bots.py`, this file's folder is first on sys.path, and
# bench/engine.py would shadow the `engine` package: look in the repository instead.
ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from engine.bots import LEVELS, Level, canonical, choose, luck  # noqa: E402
from engine.rules import apply, new_match_round  # noqa: E402
from engine.state import Action  # noqa: E402
from engine.views import view  # noqa: E402

NEXT = Action("next_round")
ROUNDS = 13


class Outcome(NamedTuple):
    #: mean penalty points per round of each level's seats in this match
    per_round: dict[Level, float]
    #: each level's share of this match's win (tied winners share it)
    wins: dict[Level, float]


def seating(match: int, players: int, levels: tuple[Level, Level]) -> tuple[Level, ...]:
    """The level of each seat in match `match`: alternating, swapped every other match."""
    first, second = levels if match % 2 == 0 else (levels[1], levels[0])
    return tuple(first if seat % 2 == 0 else second for seat in range(players))


def play(match: int, players: int, levels: tuple[Level, Level]) -> Outcome:
    """Play match `match` (seed match // 2) to its end; the bots only ever get a view.

    A computer's luck comes from the seed, the round, its seat and the number of
    actions so far, as the site derives it from the match's version."""
    seats = seating(match, players, levels)
    seed = match // 2
    state = new_match_round(players, seed)
    step = 0
    while state.phase != "match_over":
        turn = state.turn
        step += 1
        state = apply(
            state,
            NEXT
            if turn is None
            else choose(view(state, turn), seats[turn], luck(seed, state.round, turn, step)),
        )
    winners = state.winners()
    assert winners
    per_round: dict[Level, float] = {}
    wins: dict[Level, float] = {}
    for level in levels:
        mine = [s for s in range(players) if seats[s] == level]
        per_round[level] = sum(state.totals[s] for s in mine) / len(mine) / ROUNDS
        wins[level] = sum(1 for s in winners if seats[s] == level) / len(winners)
    return Outcome(per_round, wins)


def mean_ci(values: list[float]) -> tuple[float, float, float]:
    """Mean and a 95% confidence interval (normal approximation: there are hundreds of values)."""
    m = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return m, m - half, m + half


def compare(matches: int, players: int, levels: tuple[Level, Level]) -> bool:
    """Play and print one pair of levels; True when the first is clearly the stronger
    (fewer points per round: the intervals apart, or the paired difference below 0)."""
    started = time.perf_counter()
    outcomes = [play(m, players, levels) for m in range(matches)]
    took = time.perf_counter() - started
    print(
        f"{matches} matches ({matches * ROUNDS} rounds) of {players} seats from {(matches + 1) // 2} "
        f"seeds, levels alternating and swapped every other match ({took:.1f} s)"
    )
    print(f"{'level':8} {'points per round':>17}   {'95% CI':>15}   {'wins':>6}")
    cis = {}
    for level in levels:
        m, lo, hi = cis[level] = mean_ci([o.per_round[level] for o in outcomes])
        share = sum(o.wins[level] for o in outcomes) / len(outcomes)
        print(f"{level:8} {m:17.2f}   [{lo:5.2f}, {hi:5.2f}]   {share:6.1%}")
    a, b = levels
    pairs = [outcomes[i : i + 2] for i in range(0, len(outcomes) - 1, 2)]
    diffs = [statistics.fmean(o.per_round[a] - o.per_round[b] for o in pair) for pair in pairs]
    m, lo, hi = mean_ci(diffs)
    print(
        f"{a} - {b}: {m:+.2f} points per round, 95% CI [{lo:+.2f}, {hi:+.2f}] (paired by deal, "
        f"{len(diffs)} deals)"
    )
    return cis[a][2] < cis[b][1] or hi < 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument(
        "--matches", type=int, default=300, help="matches to play per pair of levels (two per seed)"
    )
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--levels", default="expert,casual", help="the two levels to compare")
    p.add_argument(
        "--ladder",
        action="store_true",
        help=f"each level against the next stronger one ({' < '.join(LEVELS)})",
    )
    args = p.parse_args(argv)
    names: list[str] = args.levels.split(",")
    known = set(LEVELS)
    if (
        len(names) != 2
        or any(name not in known for name in names)
        or canonical(names[0]) == canonical(names[1])
    ):
        p.error(f"give two different levels out of {', '.join(LEVELS)}")
    if args.matches < 2 or args.players < 2:
        p.error("play at least 2 matches of at least 2 players")
    if not args.ladder:
        compare(args.matches, args.players, (canonical(names[0]), canonical(names[1])))
        return 0
    ordered = True
    for weaker, stronger in zip(LEVELS, LEVELS[1:], strict=False):
        clear = compare(args.matches, args.players, (stronger, weaker))
        print(f"{stronger} beats {weaker}: {'yes' if clear else 'NOT CLEARLY'}\n")
        ordered = ordered and clear
    print("the ladder is strictly ordered" if ordered else "the ladder is NOT strictly ordered")
    return 0 if ordered else 1


if __name__ == "__main__":
    sys.exit(main())
