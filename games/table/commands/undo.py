"""``undo``: R27: take back the user's last action with every computer action that answered
it (``version``, ``request_id``); ``redo`` (redo.py) restores what it took back. The feature
whole: its consent kind (asked of the others at a shared table, games.consent), its service
(`match_undo`) and what an accepted request does (`consent_undo`). Only within the current
round, and only when nobody else has acted since; an agreed last round (R32) stands
through an undo."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from engine.serialize import state_from_json
from engine.tiles import BadTile, parse_tile, spoken
from games import consent, log, permissions
from games.commands import Spec
from games.commands.fields import REQUEST_ID, VERSION
from games.errors import ILLEGAL, NO_UNDO, GameError
from games.models import LogEntry, Match, Round, UndoPoint
from games.reads.selectors import round_over
from games.services.asking import _ask
from games.services.store import (
    Result,
    _append,
    _commit,
    _current_round,
    _fresh,
    _lock,
    _seats,
    _seen,
    _started,
    _store,
)
from games.words import refusal, sentence

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command

# ---------------------------------------------------------------- its words

#: what taking back says to players, by key (a feature's words live in its module)
WORDS: dict[str, Promise] = {
    "label": _("Undo"),
    # its line in the round's log
    "log_line": ngettext_lazy(
        "%(name)s took back %(count)s action (undo)",
        "%(name)s took back %(count)s actions (undo)",
        "count",
    ),
    "log_line_mine": ngettext_lazy(
        "You took back %(count)s action (undo)",
        "You took back %(count)s actions (undo)",
        "count",
    ),
    # the Undo button's words: what it takes back ("Undo your 6-4 and 3 computer moves")
    "button": _("Undo %(what)s"),
    "with_computers": ngettext_lazy(
        "%(mine)s and %(count)s computer move",
        "%(mine)s and %(count)s computer moves",
        "count",
    ),
    "your_play": _("your %(tile)s"),
    "their_play": _("%(name)s's %(tile)s"),
    "your_draw": _("your draw"),
    "their_draw": _("%(name)s's draw"),
    "your_pass": _("your pass"),
    "their_pass": _("%(name)s's pass"),
    "your_end": _("the end of your first turn"),
    "their_end": _("the end of %(name)s's first turn"),
    "your_engine": _("your engine double"),
    "their_engine": _("%(name)s's engine double"),
    "an_action": _("an action"),
    # the refusals only taking back has
    "hands_shown": _("The round is over and every hand has been shown: its moves stand."),
    "nothing_to_undo": _(
        "There is nothing of yours to take back: someone else has played "
        "since, or you have not played in this round."
    ),
    # asked of the others at a shared table: the banners, the log's lines, the answer
    "mine": _("You asked to take back your last move."),
    "theirs": _("%(name)s asks to take back their last move."),
    "log_ask": _("%(name)s asks to take back their last move (undo)"),
    "log_accept": _("%(name)s accepted the undo"),
    "log_decline": _("%(name)s declined the undo"),
    "log_expire": _("Nobody answered the undo request in time"),
    "log_void": _("The undo request is no longer possible"),
    "declined": _("%(name)s declined your request to take back your last move."),
    "expired": _("Nobody answered your request to take back your last move in time."),
}


def log_line(line: log.Line) -> str:
    """R27: its line in the round's log: who took back how many actions (you, the viewer)."""
    count = line.action.get("count")
    count = count if isinstance(count, int) and count > 0 else 1
    return line.said(WORDS, count=count)


#: its entry in the round's log (the fold takes its count of actions back: games.log)
LOG = log.register(log.Kind(log.UNDO, WORDS["label"], log_line))


def _taken_back(action: dict[str, Any], names: Sequence[str], you: bool) -> str:
    """One person's action as Undo names it ("your 6-4", "Ben's draw")."""
    act = action.get("act")
    seat = action.get("seat")
    name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
    try:
        tile = spoken(parse_tile(action.get("tile")))
    except BadTile:
        tile = "?"
    if act not in ("play", "draw", "pass", "end", "engine"):
        return str(WORDS["an_action"])
    return str(WORDS[f"{'your' if you else 'their'}_{act}"]) % {"name": name, "tile": tile}


def undo_words(taken: Sequence[Any], names: Sequence[str], viewer_seat: int | None) -> str:
    """What one Undo takes back, in words, from the effective log entries it would take back
    (R27: a person's action and the computers' actions after it): "Undo your 6-4 and 3
    computer moves". Entries have `seat`, `action` and `by_computer` (LogEntry or its rows);
    games.reads.selectors.undo_takes_back finds them."""
    if not taken:
        return ""
    first, computers = taken[0], sum(1 for e in taken[1:] if e.by_computer)
    action = first.action if isinstance(first.action, dict) else {}
    mine = _taken_back(action, names, viewer_seat is not None and first.seat == viewer_seat)
    what = str(WORDS["with_computers"] % {"mine": mine, "count": computers}) if computers else mine
    return str(WORDS["button"]) % {"what": what}


#: who may take back (and redo): a player of the match, for the seats they play
MAY = permissions.rule(
    "undo",
    lambda can, seat, request: bool(can.mine),
    lambda: sentence("players_only"),
)


def _round_over_error() -> GameError:
    return GameError(ILLEGAL, refusal("round_over"), rule="R20", reason="round_over")


def _may_undo(
    match: Match, user: object, request_id: object, expected_version: object, empty: str
) -> tuple[Result | None, list[int], Round | None]:
    """The checks Undo and Redo share; the seats the user controls and the current round."""
    seats = _seats(match)
    permissions.require(user, MAY, match, seats=seats)
    mine = permissions.seats_controlled(match, user, seats=seats)
    seen = _seen(match, user, request_id)
    if seen is not None:
        return seen, mine, None
    _fresh(match, expected_version)
    _started(match)
    if match.status == Match.Status.FINISHED:
        raise GameError(empty, refusal("match_over"))
    if round_over(match):
        # R27 within a round only: once it is over every hand has been shown (R21, R24).
        raise GameError(empty, str(WORDS["hands_shown"]))
    return None, mine, _current_round(match)


def match_undo(*, match_id: int, user: object, expected_version: int, request_id: str) -> Result:
    """R27: take back the user's last action with every computer action that answered it.

    Only within the current round, and only when nobody else has acted since. The
    state comes back from the undo point of that action (no replay). At a table shared
    with other people it is asked of them first (`change_answer` does it once they all
    accept)."""
    with transaction.atomic():
        match = _lock(match_id)
        seen, mine, rnd = _may_undo(match, user, request_id, expected_version, NO_UNDO)
        if seen is not None:
            return seen
        assert rnd is not None
        found = _undo_count(
            rnd, mine
        )  # something to take back, or no_undo before anything is asked
        if permissions.needs_consent(match, user):
            return _ask(match, rnd, user, "undo", request_id)
        version = match.version + 1
        _undo(match, rnd, version, user, found)
        return _commit(match, version, user=user, request_id=request_id)


def _undo_count(rnd: Round, mine: list[int]) -> tuple[log.Folded[LogEntry], int]:
    folded = log.fold(LogEntry.objects.filter(round=rnd).order_by("seq"))
    count = log.undo_group(folded.effective, mine)
    if count is None:
        raise GameError(NO_UNDO, str(WORDS["nothing_to_undo"]))
    return folded, count


def _undo(
    match: Match, rnd: Round, version: int, user: object, found: tuple[log.Folded[LogEntry], int]
) -> None:
    """Take back `found` (`_undo_count`): the state before it comes from its undo point."""
    folded, count = found
    target = folded.effective[-count]
    before = state_from_json(UndoPoint.objects.get(entry=target).state)
    if match.state and match.state["start"].get("final") and not before.start.final:
        before = before._replace(
            start=replace(before.start, final=True)
        )  # R32 stands through an undo
    _append(rnd, kind=LOG.name, version=version, action={"count": count}, user=user)
    _store(match, rnd, before)


def consent_undo(p: consent.Pending) -> None:
    """What an accepted undo request does (the consent kind "undo"): R27 for the asker."""
    if round_over(p.match):
        raise _round_over_error()
    mine = permissions.seats_controlled(p.match, p.asker, seats=p.seats)
    _undo(p.match, p.round, p.version, p.asker, _undo_count(p.round, mine))


#: asked of the others at a shared table (games.consent)
KIND = consent.register(
    consent.Kind(
        name="undo",
        label=WORDS["label"],
        **consent.words_of(WORDS),
        done=consent_undo,
    )
)


async def handle(t: Connection, c: Command) -> None:
    result = await t.call(
        match_undo,
        match_id=t.match_id,
        user=t.user,
        expected_version=c.version,
        request_id=c.request_id,
    )
    await t.ack(c, result)


command = Spec(
    "undo",
    (VERSION, REQUEST_ID),
    handle,
    says="take back the last moves (R27; consent at a shared table)",
)
