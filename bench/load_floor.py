"""The floor: what one action costs PostgreSQL at the very least, in a bare psycopg loop.

One action must, at minimum, be stored as one transaction that appends its log
row and moves the match row on: ``INSERT`` into ``games_logentry`` (the site's own
table, its indexes and constraints) and ``UPDATE games_match`` (version, the engine
snapshot, updated_at), then ``COMMIT``. No locking read, no request id, no undo
point, no rendering, no Python around it: one connection, statements prepared,
as fast as the server commits. The site's persisted actions per second are
compared with this rate.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.types.json import Jsonb


@dataclass(frozen=True)
class Floor:
    actions: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0


INSERT = """
INSERT INTO games_logentry (round_id, seq, kind, seat, action, user_id, by_computer, version, created_at)
VALUES (%s, %s, 'action', %s, %s, %s, false, %s, now())
"""
UPDATE = "UPDATE games_match SET version = %s, state = %s, updated_at = now() WHERE id = %s"


def measure_floor(
    database_url: str,
    *,
    match_id: int,
    round_id: int,
    user_id: int,
    state: dict[str, Any],
    seconds: float = 3.0,
    max_actions: int = 100_000,
) -> Floor:
    """Run the minimal action transaction on one match for `seconds` (or `max_actions`)."""
    action = {"act": "draw", "seat": 0}
    snapshot = json.loads(json.dumps(state))
    with psycopg.connect(database_url, prepare_threshold=0) as conn:
        with conn.cursor() as cur:
            cur.execute(
                "SELECT coalesce(max(seq), 0) FROM games_logentry WHERE round_id = %s", (round_id,)
            )
            row = cur.fetchone()
            seq = int(row[0]) if row else 0
            cur.execute("SELECT version FROM games_match WHERE id = %s", (match_id,))
            row = cur.fetchone()
            version = int(row[0]) if row else 0
        conn.commit()
        done = 0
        started = time.perf_counter()
        deadline = started + seconds
        while done < max_actions and time.perf_counter() < deadline:
            seq += 1
            version += 1
            with conn.transaction(), conn.cursor() as cur:
                cur.execute(INSERT, (round_id, seq, 0, Jsonb(action), user_id, version))
                cur.execute(UPDATE, (version, Jsonb(snapshot), match_id))
            done += 1
        elapsed = time.perf_counter() - started
    return Floor(actions=done, seconds=elapsed)
