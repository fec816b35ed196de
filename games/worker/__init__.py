"""Computer players at work (R25, R26): a loop outside request handlers, driven by the database.

Its jobs, a module each:

- games.worker.computers: the loop (`ComputerWorker`): a computer acts in each match where
  it is due at the match's pace; expired pauses, presence rows and requests are closed on
  the same beat;
- games.worker.leader: which process runs the computers (`enabled`), and the advisory lock
  that lets one server only run on a database without a shared layer (`claim_at_start`);
- games.worker.startup: the loop started with the server (daphne, or an ASGI lifespan) and
  woken by each committed change (`on_match_moved`).
"""

from games.worker.computers import (
    DEFAULT_DELAY,
    DEFAULT_POLL,
    EXPIRE_EVERY,
    FAILURE_BACKOFF,
    IDLE_POLL,
    POKED_GAP,
    REQUESTS_EVERY,
    THREAD_NAME,
    ComputerWorker,
    awaiting_computer,
    computer_delay,
    pace_delay,
    paused_until,
    step_when_due,
)
from games.worker.leader import (
    LOCK_KEY,
    LOST,
    REFUSED_ALONE,
    REFUSED_SHARED,
    _lock,
    _running,
    claim,
    claim_at_start,
    enabled,
    keep_claim,
    lock_holder,
    release,
    shared_layer,
)
from games.worker.startup import (
    WithComputerWorker,
    lifespan,
    on_match_moved,
    poke,
    run_by_daphne,
    start_in_process,
    start_with_daphne,
    stop_in_process,
)

__all__ = [
    "DEFAULT_DELAY",
    "DEFAULT_POLL",
    "EXPIRE_EVERY",
    "FAILURE_BACKOFF",
    "IDLE_POLL",
    "LOCK_KEY",
    "LOST",
    "POKED_GAP",
    "REFUSED_ALONE",
    "REFUSED_SHARED",
    "REQUESTS_EVERY",
    "THREAD_NAME",
    "ComputerWorker",
    "WithComputerWorker",
    "_lock",
    "_running",
    "awaiting_computer",
    "claim",
    "claim_at_start",
    "computer_delay",
    "enabled",
    "keep_claim",
    "lifespan",
    "lock_holder",
    "on_match_moved",
    "pace_delay",
    "paused_until",
    "poke",
    "release",
    "run_by_daphne",
    "shared_layer",
    "start_in_process",
    "start_with_daphne",
    "step_when_due",
    "stop_in_process",
]
