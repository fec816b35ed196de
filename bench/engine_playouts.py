"""Random playouts of one engine, for bench/engine.py's side-by-side comparison.

    python bench/engine_playouts.py ROOT [--matches 40] [--players 4] [--seed 0]

Imports ``engine`` from the folder ROOT (this repository, or an older commit's
``engine/`` unpacked elsewhere) and plays seeded 13-round matches in which every
seat takes a uniformly random legal action (`random.Random(seed)` per match):
``legal_actions``, then ``apply``, and ``next_round`` between rounds — the loop a
search over playouts runs. Prints one JSON line: CPU seconds, actions, and a digest
of every round's points and action count, equal for two engines that play the same
matches. Only what every engine version has is used (``new_match_round``,
``legal_actions``, ``apply``, ``Action``).
"""

from __future__ import annotations

import gc
import json
import random
import sys
import time
import zlib


def main(argv: list[str]) -> None:
    root = argv[0]
    opts = dict(zip(argv[1::2], argv[2::2], strict=True))
    matches, players, seed0 = (
        int(opts.get("--matches", 40)),
        int(opts.get("--players", 4)),
        int(opts.get("--seed", 0)),
    )
    sys.path.insert(0, root)
    from engine.rules import apply, legal_actions, new_match_round
    from engine.state import Action

    assert sys.modules["engine"].__file__.startswith(root), sys.modules["engine"].__file__
    nxt = Action("next_round")
    digest = 0
    actions = 0
    gc.collect()
    cpu = time.process_time()
    for seed in range(seed0, seed0 + matches):
        rng = random.Random(seed)
        state = new_match_round(players, seed)
        count = 0
        while True:
            if state.turn is None:
                digest = zlib.crc32(repr((state.round, state.round_points, count)).encode(), digest)
                if state.phase == "match_over":
                    break
                state = apply(state, nxt)
            else:
                legal = legal_actions(state)
                state = apply(state, legal[rng.randrange(len(legal))])
            count += 1
        actions += count
    cpu = time.process_time() - cpu
    print(json.dumps({"cpu": cpu, "actions": actions, "digest": digest, "matches": matches}))


if __name__ == "__main__":
    main(sys.argv[1:])
