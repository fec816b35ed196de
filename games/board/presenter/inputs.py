"""What the presenter is given beside the view: each seat's public metadata (`SeatInfo`)
and what the caller knows beyond the view (`Flags`, with a change asked of the others: `Ask`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class SeatInfo:
    """Public metadata of a seat: what the table shows next to its train."""

    index: int
    name: str
    #: "human", "local" (pass-and-play) or "computer"
    kind: str = "human"
    #: the level of the computer playing it, in words ("Strong"), "" when a person plays
    level: str = ""
    #: a person's seat at a match being played (games.attendance.presence): "here" or "away"
    #: ("" otherwise), and since when away (None: never at this table)
    presence: str = ""
    away_since: datetime | None = None


@dataclass(frozen=True)
class Flags:
    """What the caller knows beyond the view: versions, offers and history."""

    match_id: int = 0
    version: int = 0
    undo: bool = False
    redo: bool = False
    #: restart the round (R28), next round
    restart: bool = False
    next_round: bool = False
    #: someone at the table has the rules or the log open: computers wait (R26)
    paused: bool = False
    #: penalty points of each finished round of this match, oldest first (R21)
    history: tuple[tuple[int, ...], ...] = ()
    #: the latest log line, for the live region
    last_event: str = ""
    #: the current round's latest restart (R28): which one (its log line's number, "" if none)
    #: and who restarted it, in words, for every page to announce once
    restarted: str = ""
    restarted_text: str = ""
    #: the train the last move played on ("0", "mexican"), "" when the last move was no play
    last_train: str = ""
    #: after a new match at this table (R29): where it is (games.table.commands.play_again)
    next_match_url: str = ""
    #: how many tiles the round's engine search drew (R6: nobody was dealt the engine double)
    searched: int = 0
    #: the computers' pace (games.models.Match.Pace) and whether they hurry to a person's turn
    pace: str = "normal"
    hurry: bool = False
    #: the viewer is seated at a match still being played: may change the pace, skip to their turn
    may_pace: bool = False
    #: what Undo would take back, in words ("" when there is no Undo)
    undo_text: str = ""
    #: an undo or restart waiting for the others' answers: `Ask`
    ask: Ask | None = None
    #: to the asker of a request just declined or expired: who declined, or that time ran out
    answered: str = ""
    #: the commands the table's menu offers this viewer (games.commands.Offer)
    offers: tuple[Any, ...] = ()
    #: R32: the players agreed that this round is the match's last
    final: bool = False
    #: seats handed to a computer while their owners are away (games.table.away.Away)
    away: Any = None


@dataclass(frozen=True)
class Ask:
    """An undo or restart asked of the others at a shared table, as one viewer sees it."""

    id: int
    #: "undo" or "restart"
    change: str
    #: "Ana asks to restart the round."
    text: str
    #: this viewer asked: "waiting for the others"
    mine: bool
    #: this viewer is one of the others and has not accepted yet: Accept / Decline
    answer: bool
    #: when it expires (ISO 8601), so the page asks for a fresh board then
    expires: str
    #: "Answers close at <time>12:04:31 UTC</time>." (HTML; the page shows its own time zone)
    until: str = ""
