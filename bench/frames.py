"""Update frames against whole boards, measured on one played round.

    DATABASE_URL=... python -m pytest bench/frames.py -q -s   (uses the test database)

A 4-seat table of people and one spectator play a round through the services (random
legal actions, seeded). After every action each of the five connections is given what
the table's websocket sends it: an update frame (games/board/parts.py) from the version
shared reads, the shared parts rendered once; and, for comparison, the whole board
each one was once sent (every part rendered for every connection). Prints
the bytes per connection per action (median, p95; and apart for the players and the
spectator) and the server CPU (process time) to make the five boards of one action,
both ways.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from typing import Any

import pytest
from django.utils import translation

from games.board.draw import board_html
from games.table import board, board_reads
from tests.games.table.test_updates import Connection, act, seated

pytestmark = pytest.mark.django_db


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def test_frames_against_whole_boards(django_user_model: Any) -> None:
    match, users = seated(django_user_model, 4, 5)
    rng = random.Random(5)
    connections = [Connection(users[i], i) for i in range(4)] + [Connection(None, None)]
    updates: list[int] = []
    players: list[int] = []
    spectators: list[int] = []
    wholes: list[int] = []
    cpu_updates: list[float] = []
    cpu_wholes: list[float] = []
    version = -1
    with translation.override("en"):
        for _ in range(400):
            reads = board_reads.current(match.pk, at_least=None if version < 0 else version + 1)
            assert reads is not None
            version = reads.version
            # before: every connection's whole board, every part rendered for each
            start = time.process_time()
            for c in connections:
                b = board.board_context(match=reads.match, viewer=c.viewer(), reads=reads)
                whole = {
                    "type": "board",
                    "version": b.version,
                    "html": str(board_html(b)),
                    "title": b.title,
                    "your_turn": b.your_turn,
                }
                wholes.append(len(json.dumps(whole)))
            cpu_wholes.append(time.process_time() - start)
            start = time.process_time()
            for c in connections:
                c.receive(reads)
            cpu_updates.append(time.process_time() - start)
            if version > 0:
                for c in connections:
                    if c.frames[-1]["type"] == "update":
                        size = len(json.dumps(c.frames[-1]))
                        updates.append(size)
                        (players if c.seat is not None else spectators).append(size)
            if reads.match.state["phase"] in ("round_over", "match_over"):
                break
            act(match.pk, users, rng)
    print(
        f"\nwhole boards: median {statistics.median(wholes) / 1024:.1f} kB, p95 {pct(wholes, 0.95) / 1024:.1f} kB"
        f" per connection; CPU for the five {statistics.median(cpu_wholes) * 1000:.1f} ms (median)"
    )
    print(
        f"update frames: median {statistics.median(updates) / 1024:.2f} kB, p95 {pct(updates, 0.95) / 1024:.2f} kB"
        f" per connection; CPU for the five {statistics.median(cpu_updates) * 1000:.1f} ms (median)"
        f" over {len(cpu_updates)} actions"
    )
    for who, sizes in (("players", players), ("spectator", spectators)):
        print(
            f"  {who}: median {statistics.median(sizes) / 1024:.2f} kB, p95 {pct(sizes, 0.95) / 1024:.2f} kB"
        )
