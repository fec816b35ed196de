"""Every change to a match: create, join, play, undo/redo, restart, next round, new match,
the table's settings and its pauses.

Each service runs in one transaction with the match row locked
(`SELECT ... FOR UPDATE`), so two requests for one match are applied one after
the other, never interleaved. The checks come in a fixed order, and every refusal
is a `games.errors.GameError` that changes nothing:

1. the match exists (not_found);
2. the user may act for the seat (forbidden: a stranger, or someone else's seat);
3. the request id was seen already: the stored result comes back with
   ``duplicate=True`` and nothing is applied again;
4. the client saw the current version (stale: refresh first);
5. the match has started (not_started);
6. the action is well formed (bad_request) and is the seat's own (forbidden);
7. it is that seat's turn (not_your_turn);
8. the rules allow it (illegal: the engine's reason, with its rule id).

A change then appends to the round's append-only log, stores the new engine
snapshot on the match (loaded, one action applied, stored back: never a replay
from the start), bumps the version and, after commit, tells the match's
channel-layer group (`games.notify`). Rules served here: R2, R4 (seeds), R5 and
R21–R22 (round and match ends), R26 (pauses), R27 (undo/redo), R28 (restart),
R29 (a new match at the same table).

A small kernel and a module per noun:

- `store`: the kernel: the lock, the checks every service shares (1, 3, 4, 5), the log,
  the snapshot, commit and announce, `Result`;
- `matches`: creating and joining (`match_create` with its `SeatSpec`, `seat_join`) and
  the next match at the same table (`table_next_match`, once games.table.commands.play_again
  has its seats);
- `moves`: a person's action (`action_submit`: checks 2 and 6–8), a computer player's
  (`computer_step`) and the next round (`round_next`);
- `asking`: a change asked of the others at the table and their answers (`asked_or_done`,
  `change_answer`, `requests_expire`);
- `table_settings`: the kernel of a change of the table by a person at it (`seated_change`,
  `setting_set`: the pace, skip, away limit and stand-in features build on it) and a
  player's "draw and pass for me" (`autodraw_set`, `autodraw_of`);
- `pauses`: the rules or the log open, the computers waiting (`pause_open`, `pause_close`,
  `pauses_expire`).

Each imports `store`, which imports none of them, and none imports another. A feature's own
service lives in its module of games/table/commands/ on this kernel (undo, redo, restart,
play again), with `asking` for a change asked of the others. Their public names are
imported here, so callers say `services.match_create(...)`. A module's own globals are
looked up in it: a test replaces `_apply` or `PAUSE_TIMEOUT` on the module that reads it
(`services.moves`, `services.pauses`), not on this package.
"""

from __future__ import annotations

from games.services.asking import REQUEST_LIFETIME, asked_or_done, change_answer, requests_expire
from games.services.matches import (
    MAX_NAME,
    SEED_LIMIT,
    SeatKind,
    SeatSpec,
    match_create,
    seat_join,
    table_next_match,
)
from games.services.moves import action_submit, computer_step, round_next
from games.services.pauses import pause_close, pause_open, pauses_expire
from games.services.store import (
    MAX_REQUEST_ID,
    Result,
    log_entry,
    refused_by_engine,
    store_state,
)
from games.services.table_settings import (
    TableSetting,
    autodraw_of,
    autodraw_set,
    seated_change,
    setting_set,
)

__all__ = [
    "MAX_NAME",
    "MAX_REQUEST_ID",
    "REQUEST_LIFETIME",
    "SEED_LIMIT",
    "Result",
    "SeatKind",
    "SeatSpec",
    "TableSetting",
    "action_submit",
    "asked_or_done",
    "autodraw_of",
    "autodraw_set",
    "change_answer",
    "computer_step",
    "log_entry",
    "match_create",
    "pause_close",
    "pause_open",
    "pauses_expire",
    "refused_by_engine",
    "requests_expire",
    "round_next",
    "seat_join",
    "seated_change",
    "setting_set",
    "store_state",
    "table_next_match",
]
