"""`python -m engine replay FILE|-`: print the state a replay reaches (replay-format.md)."""

from __future__ import annotations

import json
import secrets
import sys

from .replay import BadReplay, run_replay

USAGE = "usage: python -m engine replay FILE   (FILE may be - for standard input)"


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] != "replay":
        print(USAGE, file=sys.stderr)
        return 2
    try:
        if argv[1] == "-":
            text = sys.stdin.read()
        else:
            with open(argv[1], encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        print(f"cannot read {argv[1]}: {e.strerror}", file=sys.stderr)
        return 2
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        print(f"not a valid replay: bad JSON ({e.msg} at line {e.lineno})", file=sys.stderr)
        return 2
    try:
        out = run_replay(doc, random_seed=secrets.randbelow(2**63))
    except BadReplay as e:
        print(f"not a valid replay: {e}", file=sys.stderr)
        return 2
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
