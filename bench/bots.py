"""Strong against basic (issue 2, R25): seeded 4-seat computer matches, levels alternating.

    python bench/bots.py [--matches 300] [--players 4] [--levels strong,basic]

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
from typing import NamedTuple, cast

# Run as `python bench/bots.py`, this file's folder is first on sys.path, and
# bench/engine.py would shadow the `engine` package: look in the repository instead.
ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from engine.bots import LEVELS, Level, choose  # noqa: E402
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
    """Play match `match` (seed match // 2) to its end; the bots only ever get a view."""
    seats = seating(match, players, levels)
    state = new_match_round(players, match // 2)
    while state.phase != "match_over":
        turn = state.turn
        state = apply(state, NEXT if turn is None else choose(view(state, turn), seats[turn]))
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


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--matches", type=int, default=300, help="matches to play (two per seed)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--levels", default="strong,basic", help="the two levels to compare")
    args = p.parse_args(argv)
    names: list[str] = args.levels.split(",")
    if len(names) != 2 or any(name not in LEVELS for name in names) or names[0] == names[1]:
        p.error(f"give two different levels out of {', '.join(LEVELS)}")
    if args.matches < 2 or args.players < 2:
        p.error("play at least 2 matches of at least 2 players")
    levels = (cast(Level, names[0]), cast(Level, names[1]))

    started = time.perf_counter()
    outcomes = [play(m, args.players, levels) for m in range(args.matches)]
    took = time.perf_counter() - started
    print(f"{args.matches} matches of {args.players} seats from {(args.matches + 1) // 2} seeds, "
          f"levels alternating and swapped every other match ({took:.1f} s)")
    print(f"{'level':8} {'points per round':>17}   {'95% CI':>15}   {'wins':>6}")
    for level in levels:
        m, lo, hi = mean_ci([o.per_round[level] for o in outcomes])
        share = sum(o.wins[level] for o in outcomes) / len(outcomes)
        print(f"{level:8} {m:17.2f}   [{lo:5.2f}, {hi:5.2f}]   {share:6.1%}")
    a, b = levels
    pairs = [outcomes[i : i + 2] for i in range(0, len(outcomes) - 1, 2)]
    diffs = [statistics.fmean(o.per_round[a] - o.per_round[b] for o in pair) for pair in pairs]
    m, lo, hi = mean_ci(diffs)
    print(f"{a} - {b}: {m:+.2f} points per round, 95% CI [{lo:+.2f}, {hi:+.2f}] (paired by deal, "
          f"{len(diffs)} deals)")


if __name__ == "__main__":
    main()
