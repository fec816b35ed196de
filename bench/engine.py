"""Engine benchmark: full 13-round computer matches from fixed seeds.

    python bench/engine.py [--matches 40] [--repeats 5] [--players 4] [--levels expert,casual]
    python bench/engine.py --playouts [--compare 63a5a6e] [--matches 40] [--repeats 5] [--players 4]

Every action goes the way a computer seat's does on the site: the seat gets its
view (R24), the bot chooses from that view only (R25), and `apply` validates the
choice before making it (no shortcut past either). Rounds are chained with the
`next_round` action. The bots' first-turn plan cache is emptied before every
repeat, so a repeat never profits from the one before.

Times are CPU time of this process (one core: the engine is single-threaded), so
other work on a shared machine disturbs them less than the wall clock; the wall
clock rates are printed too, with the load average. Prints the best of several
repeats (the run least disturbed), then the cost in microseconds of each step on
the hot path, measured over the states of real matches.

``--playouts`` compares engines side by side in one run: random playouts (every
seat takes a seeded random legal action, bench/engine_playouts.py) with this
tree's engine and with the engine of ``--compare`` (a commit, default 63a5a6e:
the engine before its hot paths were reworked), unpacked with ``git archive`` into a temporary
folder. Each repeat runs both, one after the other in fresh processes, alternating
which goes first, so both meet the same machine load; the matches must be the
same, action for action (a digest of every round's points and length), or the run
fails. Prints each engine's actions per CPU second (best and median of the
repeats) and the ratio.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import cast

# Run as `python bench/engine.py`, this file's folder is first on sys.path, and
# this very file would shadow the `engine` package: look in the repository instead.
ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from engine import bots  # noqa: E402
from engine.bots import Level, choose  # noqa: E402
from engine.rules import apply, legal_actions, new_match_round  # noqa: E402
from engine.state import Action, RoundState  # noqa: E402
from engine.views import view  # noqa: E402

NEXT = Action("next_round")


def play_match(
    seed: int,
    players: int,
    levels: tuple[Level, ...],
    record: list[tuple[RoundState, Action]] | None = None,
) -> tuple[RoundState, int]:
    """Play one seeded match of computer seats; return the final state and the action count."""
    state = new_match_round(players, seed)
    count = 0
    while True:
        turn = state.turn
        if turn is None:
            if state.phase == "match_over":
                return state, count
            action = NEXT
        else:
            action = choose(view(state, turn), levels[turn % len(levels)])
        if record is not None:
            record.append((state, action))
        state = apply(state, action)
        count += 1


def run_matches(seeds: range, players: int, levels: tuple[Level, ...]) -> tuple[float, float, int]:
    """Play the seeded matches once: (CPU seconds, wall seconds, actions)."""
    bots.forget_plans()
    wall, cpu = time.perf_counter(), time.process_time()
    actions = 0
    for seed in seeds:
        actions += play_match(seed, players, levels)[1]
    return time.process_time() - cpu, time.perf_counter() - wall, actions


def per_call(
    samples: list[tuple[RoundState, Action]], repeats: int, levels: tuple[Level, ...]
) -> dict[str, float]:
    """Best-of-repeats microseconds per call of each hot-path step, over recorded states.

    Each level's bot is timed on the views of the seats that played at that level,
    so its first-turn plans are used the way they are in a match.
    """
    turns = [(s, s.turn, a) for s, a in samples if s.turn is not None]
    views = {
        level: [view(s, seat) for s, seat, _ in turns if levels[seat % len(levels)] == level]
        for level in levels
    }

    # Results are dropped at once, as in a match: keeping them would make the
    # garbage collector walk an ever longer list.
    def legal_step() -> None:
        for s, _, _ in turns:
            legal_actions(s)

    def view_step() -> None:
        for s, seat, _ in turns:
            view(s, seat)

    def apply_step() -> None:
        for s, _, a in turns:
            apply(s, a)

    def bot_step(level: Level) -> None:
        for v in views[level]:
            choose(v, level)

    steps: dict[str, tuple[Callable[[], None], int]] = {
        "legal_actions": (legal_step, len(turns)),
        "view": (view_step, len(turns)),
        "apply": (apply_step, len(turns)),
    }
    for level in dict.fromkeys(levels):
        steps[f"bot {level}"] = (functools.partial(bot_step, level), len(views[level]))
    out: dict[str, float] = {}
    for name, (step, calls) in steps.items():
        best = float("inf")
        for _ in range(repeats):
            bots.forget_plans()
            t = time.process_time()
            step()
            best = min(best, time.process_time() - t)
        out[name] = best / calls * 1e6
    return out


def playouts_once(root: Path, matches: int, players: int) -> dict[str, float]:
    """One process of bench/engine_playouts.py with the engine of `root`."""
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "engine_playouts.py"),
            str(root),
            "--matches",
            str(matches),
            "--players",
            str(players),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return cast(dict[str, float], json.loads(out.stdout.strip().splitlines()[-1]))


def compare_playouts(rev: str, matches: int, players: int, repeats: int) -> dict[str, float]:
    """Random playouts with the engine of `rev` and this tree's, alternating; returns the
    actions per CPU second of each (best) and the ratio."""
    with tempfile.TemporaryDirectory(prefix="engine-") as tmp:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", rev, "engine"], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        engines = {rev: Path(tmp), "this tree": ROOT}
        rates: dict[str, list[float]] = {name: [] for name in engines}
        digests: dict[str, set[float]] = {name: set() for name in engines}
        for r in range(repeats):
            order = list(engines) if r % 2 == 0 else list(engines)[::-1]
            for name in order:
                got = playouts_once(engines[name], matches, players)
                rates[name].append(got["actions"] / got["cpu"])
                digests[name].add(got["digest"])
    if len(digests[rev] | digests["this tree"]) != 1:
        raise SystemExit(f"the engines played different matches: digests {digests}")
    for name, values in rates.items():
        print(
            f"{name:>10}: random playouts {max(values):9.0f} actions per CPU second best, "
            f"{statistics.median(values):9.0f} median ({', '.join(f'{v:.0f}' for v in values)})"
        )
    best_ratio = max(rates["this tree"]) / max(rates[rev])
    median_ratio = statistics.median(rates["this tree"]) / statistics.median(rates[rev])
    print(
        f"this tree / {rev}: {best_ratio:.2f}x (best), {median_ratio:.2f}x (median) "
        f"[target >= 1.3: {'met' if best_ratio >= 1.3 else 'MISSED'}]; same matches (digest "
        f"{next(iter(digests[rev]))})"
    )
    return {"old": max(rates[rev]), "new": max(rates["this tree"]), "ratio": best_ratio}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--matches", type=int, default=40, help="matches per repeat (seeds 0..N-1)")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--players", type=int, default=4)
    p.add_argument(
        "--levels",
        default="expert,casual",
        help="levels by seat, repeated around the table (default: expert,casual)",
    )
    p.add_argument(
        "--playouts",
        action="store_true",
        help="random playouts of this tree's engine and --compare's, side by side",
    )
    p.add_argument(
        "--compare", default="63a5a6e", help="the commit whose engine --playouts compares with"
    )
    args = p.parse_args(argv)
    if args.playouts:
        print(
            f"python {sys.version.split()[0]}, {os.cpu_count()} cores, "
            f"load average before {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
        )
        print(
            f"{args.matches} matches x {args.repeats} repeats, {args.players} seats, random legal actions"
        )
        compare_playouts(args.compare, args.matches, args.players, args.repeats)
        print(f"load average after {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        return
    names: list[str] = args.levels.split(",")
    for name in names:
        if name not in bots.LEVELS:
            p.error(f"unknown level {name!r} (choose from {', '.join(bots.LEVELS)})")
    levels = tuple(cast(Level, name) for name in names)

    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores, "
        f"load average before {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print(
        f"{args.matches} matches x {args.repeats} repeats, {args.players} seats, levels {','.join(levels)}"
    )
    seeds = range(args.matches)
    runs = [run_matches(seeds, args.players, levels) for _ in range(args.repeats)]
    actions = runs[0][2]
    assert all(n == actions for _, _, n in runs), "seeded matches must be reproducible"
    best = min(cpu for cpu, _, _ in runs)
    print(
        f"matches/s  best {args.matches / best:7.1f} per CPU second   "
        f"(repeats: {', '.join(f'{args.matches / cpu:.1f}' for cpu, _, _ in runs)}; "
        f"by the wall clock: {', '.join(f'{args.matches / wall:.1f}' for _, wall, _ in runs)})"
    )
    print(
        f"actions/s  best {actions / best:7.0f} per CPU second   ({actions / args.matches:.0f} actions per match)"
    )

    samples: list[tuple[RoundState, Action]] = []
    for seed in range(min(args.matches, 5)):
        play_match(seed, args.players, levels, samples)
    for name, us in per_call(samples, args.repeats, levels).items():
        print(f"{name:14} {us:6.2f} us per call")
    print(f"load average after {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
