"""What one viewer's board offers about seats whose owners are away (games.attendance.standin).

`for_viewer` gives an `Away` for the board's private ``banner`` and ``tools`` parts:
the seats this viewer may let a computer play now (their owners away longer than the
table's limit), the viewer's own seats a computer plays ("Take my seat back"), and,
for a seated person, the table's away limit to choose from the menu. Which seats
a computer plays shows to everyone in the shared parts: the seat's name says so
(games.board.words `standin_name`, games.board.draw.seat_infos).

The seats away past the limit (`due_seats`) are worked out once per version of the match
for all its viewers (games.table.facts); a seat's limit passing changes no version, so the
computer worker tells the table then (games.notify.match_seats) and its pages read afresh.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.utils import timezone

from games import permissions
from games.attendance import presence, standin
from games.board.jinja_env import active_language
from games.models import AWAY_SECONDS, Match
from games.permissions import Action as Can
from games.table import words


@dataclass(frozen=True)
class Away:
    #: (seat index, "Let a computer play for ana") for each seat this viewer may hand over now
    hand_over: tuple[tuple[int, str], ...] = ()
    #: (seat index, "While you were away, a computer has been playing ana's seat.") for the viewer's own
    take_back: tuple[tuple[int, str], ...] = ()
    #: the table's away limit for the menu ({value, label, current}); empty for watchers
    limits: tuple[tuple[str, str, bool], ...] = ()


def limit_words() -> dict[str, str]:
    """The away limits' names in the active language (Match.AwayLimit)."""
    return dict(_limit_words(active_language()))


@lru_cache(maxsize=64)
def _limit_words(language: str | None) -> tuple[tuple[str, str], ...]:
    # Every seated person's menu shows them on every board: looked up once per language
    # (`language` is the active one).
    return tuple((value, str(label)) for value, label in Match.AwayLimit.choices)


def for_viewer(
    match: Match,
    user: Any,
    names: list[str],
    reads: Any = None,
    *,
    powers: permissions.Powers | None = None,
    due: tuple[int, ...] | None = None,
) -> Away | None:
    """The viewer's `Away` (None when there is nothing to show: a watcher, a match not
    being played); `names`: the seats' names as the board shows them. `powers`: what the
    viewer may do (games.permissions.powers), `due`: the seats away past the table's limit
    (`due_seats`), when the caller worked them out already; else worked out now (`reads`:
    the version's reads, whose presence is read once for all its viewers)."""
    if (
        match.status != Match.Status.PLAYING
        or user is None
        or not getattr(user, "is_authenticated", False)
    ):
        return None
    from games.reads import selectors
    from games.table.commands import pace, stand_in

    seats = selectors.match_seats(match)
    can = powers if powers is not None else permissions.powers(user, match, seats=seats)
    # The seats a computer plays for the viewer, which they may take back (games.attendance.standin)
    back = [s for s in seats if s.standin and can.can(stand_in.MAY_TAKE_BACK, seat=s.index)]
    plays = can.can(Can.ACT)  # a seat the viewer plays themselves
    if not plays and not back:
        return None
    people = {s.user_id for s in seats if s.kind != "computer"}
    if due is None:
        if reads is not None and getattr(reads, "match", None) is match:
            # What every viewer of this version shares is worked out for the first one only.
            due = reads.once("away", lambda: due_seats(match, seats))
        else:
            due = due_seats(match, seats)
    hand = [i for i in due if can.can(stand_in.MAY_STAND_IN, seat=i)]
    limits: tuple[tuple[str, str, bool], ...] = ()
    if len(people) >= 2 and can.can(pace.MAY):
        # the limit (a table setting, as the pace: games.table.commands.away_limit) matters
        # only where another person could hand a seat over
        limit_names = limit_words()
        limits = tuple(
            (value, limit_names[value], value == match.away_limit) for value in AWAY_SECONDS
        )
    return Away(
        hand_over=tuple((i, words.hand_over(names[i])) for i in hand),
        take_back=tuple((s.index, words.played_while_away(s.display_name)) for s in back),
        limits=limits,
    )


def due_seats(
    match: Match, seats: list[Any], seen: dict[int, tuple[bool, Any]] | None = None
) -> tuple[int, ...]:
    """The seats away longer than the table's limit now (any viewer's candidates to hand to a
    computer); `seen`: who is at the table (games.attendance.presence.at_table), read now if not
    given."""
    people = {s.user_id for s in seats if s.kind != "computer"}
    if len(people) < 2:
        return ()  # alone with computers: nobody to hand a seat over to a computer, no read
    if seen is None:
        seen = presence.at_table(match.pk)
    now = timezone.now()
    return tuple(s.index for s in seats if standin.may_hand_over(match, s, seen, now))
