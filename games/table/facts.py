"""What every board of a match at one version shares whoever looks: worked out once per
version, before any board of it is made (the table's hub does it right after it reads or
derives the version, games.table.hub), and handed to each viewer's board.

`Facts` holds what the boards used to ask the database for viewer by viewer or language by
language: who is at the table (games.attendance.presence, one read), the seats away longer than the
table's limit (games.attendance.standin), the latest request when it was just declined or expired
(told to its asker, with who declined it) and what the match's phase allows whoever asks
(restart, next round). With them and the viewer's own powers
(games.permissions.powers), a board asks the database nothing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from games.attendance import presence
from games.models import ChangeRequest, Match
from games.reads import selectors
from games.table import away

#: how long what was read of the table's presence and requests is carried to the versions
#: derived from it (moves only) before it is read again: the dots by the names follow a
#: connection's coming and going by the table's own notice (a re-read), and what only time
#: changes (a server that died without closing its connections) within this
CARRIED_SECONDS = 15.0


@dataclass(frozen=True)
class Facts:
    #: for each user ever seen at the table: (there now, last seen); None when the match is
    #: not being played (no dot by a name then)
    seen: dict[int, tuple[bool, datetime]] | None
    #: the seats away longer than the table's limit now (games.attendance.standin)
    due: tuple[int, ...]
    #: the latest request, declined or expired within its showing time (its asker is told)
    answered: ChangeRequest | None
    #: restart the round, start the next round: allowed by the match's phase (each viewer's
    #: permission is asked apart)
    restart: bool
    next_round: bool
    #: when `seen` and `answered` were read (time.monotonic)
    read_at: float = field(default_factory=time.monotonic, compare=False)


def of(reads: Any) -> Facts:
    """The facts of the version `reads` (games.table.board_reads.BoardReads) holds, worked
    out by the first to ask and kept on the reads for every other board of that version."""
    facts: Facts = reads.once("facts", lambda: _work_out(reads))
    return facts


def carry(derived: Any, before: Any) -> None:
    """`derived` (reads made from `before` by applying moves, games.table.board_reads.advance)
    takes `before`'s reading of who is at the table and of the last closed request, read
    under `CARRIED_SECONDS` ago: moves change neither (a connection coming or going, and a
    request closing, make versions of their own, read afresh), so a move's version asks the
    database nothing. A closed request still shown is read again (its showing time ends)."""
    held = before.shared.get("facts")
    if (
        isinstance(held, Facts)
        and held.answered is None
        and time.monotonic() - held.read_at < CARRIED_SECONDS
    ):
        derived.shared["facts before"] = held


def _work_out(reads: Any) -> Facts:
    match = reads.match
    seats = selectors.match_seats(match)
    playing = match.status == Match.Status.PLAYING
    before = reads.shared.get("facts before")
    if isinstance(before, Facts) and reads.ask is None and playing:
        seen, answered, read_at = before.seen, None, before.read_at
    else:
        seen = presence.at_table(match.pk) if playing else None
        answered = selectors.last_closed_request(match.pk) if reads.ask is None else None
        read_at = time.monotonic()
    # The names the boards say are loaded now (the rows are shared by every board of the
    # version; a related row is read on first use and kept on its instance).
    if answered is not None and answered.declined_by_id is not None:
        answered.declined_by  # noqa: B018
    if reads.ask is not None:
        reads.ask.asked_by  # noqa: B018
    return Facts(
        seen=seen,
        due=away.due_seats(match, seats, seen) if seen is not None else (),
        answered=answered,
        restart=selectors.restart_open(match),
        next_round=selectors.next_round_open(match),
        read_at=read_at,
    )
