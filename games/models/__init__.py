"""What the site stores: tables, matches, seats, rounds and the append-only log.

The engine state of the current round is cached on the match row (`Match.state`);
the log can always rebuild it: a round's deal (`Round.start`) plus its effective
actions (the log with undo, redo and restart folded in, see `games.log`) replayed
through the engine give the same state. Undo points keep the state before each
human action so Undo (R27) never replays from the start.

A module per group of rows, all imported here (Django finds the models through this
package, and callers say `from games.models import Match`):

- `matches`: `Table`, `Match`, `Seat`, and the pace and away limit in seconds;
- `rounds`: `Round`, its log (`LogEntry`) and its `UndoPoint`s;
- `requests`: `ClientRequest` (request ids seen) and `ChangeRequest` (games.consent);
- `attendance`: `Pause`, `Presence` and `StandIn`: who is at the table, who plays for whom;
- `processes`: `Server`, the site's running processes;
- `rows`: `from_row`, an instance from a row read in SQL written out.
"""

from __future__ import annotations

from games.models.attendance import Pause, Presence, StandIn
from games.models.matches import AWAY_SECONDS, MAX_SEATS, PACE_SECONDS, Match, Seat, Table
from games.models.processes import Server
from games.models.requests import ChangeRequest, ClientRequest
from games.models.rounds import LogEntry, Round, UndoPoint
from games.models.rows import from_row

__all__ = [
    "AWAY_SECONDS",
    "MAX_SEATS",
    "PACE_SECONDS",
    "ChangeRequest",
    "ClientRequest",
    "LogEntry",
    "Match",
    "Pause",
    "Presence",
    "Round",
    "Seat",
    "Server",
    "StandIn",
    "Table",
    "UndoPoint",
    "from_row",
]
