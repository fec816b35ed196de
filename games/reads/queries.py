"""Reads for the site pages, the admin and the replay commands.

`match_summary(match, user)` says what a list shows of a match — round, seats,
totals, whose turn — from public information only (R24: no hand is ever read
there). It reads the engine snapshot cached on the match (`Match.state`).

`replay_differences(match)` checks that the match's replay export reproduces that
snapshot (R4: the deal follows from the seed; the log holds every decision), and
`replay_json` writes the export file (`../shared/spec/replay-format.md`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.replay import run_replay, state_json
from engine.serialize import state_from_json
from games import length, permissions
from games.models import Match, Seat
from games.permissions import Action as Can
from games.reads.selectors import match_replay_doc


@dataclass(frozen=True)
class SeatRow:
    number: int
    name: str
    kind: str
    kind_label: str
    level_label: str
    free: bool
    mine: bool
    total: int | None
    turn: bool
    winner: bool


@dataclass(frozen=True)
class MatchSummary:
    match: Match
    seats: list[SeatRow]
    rounds: int
    free_seats: int
    #: who is to act, in words ("Waiting for 2 players", "ana's turn", "Round over" …)
    status_line: str
    #: the user is the one to act (one of their seats is on turn)
    your_turn: bool
    #: a shorter match's length in words ("7 rounds from 6-6", R31); "" for the standard match
    length_label: str = ""

    @property
    def round(self) -> int:
        return self.match.round_number


def _seat_name(seat: Seat) -> str:
    if seat.kind == Seat.Kind.HUMAN and seat.user_id is None and not seat.name:
        return _("Free seat")
    return seat.display_name


def match_summary(match: Match, user: Any = None) -> MatchSummary:
    """A list row for `match` (seats should be prefetched with their users)."""
    seats = sorted(match.seats.all(), key=lambda s: s.index)
    state = state_from_json(match.state) if match.state else None
    totals = state.totals if state is not None else None
    turn = state.turn if state is not None else None
    winners = set(state.winners() or ()) if state is not None else set()
    user_pk = getattr(user, "pk", None)
    rows = [
        SeatRow(
            number=s.index + 1,
            name=_seat_name(s),
            kind=s.kind,
            kind_label=str(s.get_kind_display()),
            level_label=str(s.get_level_display()) if s.level else "",
            free=s.kind == Seat.Kind.HUMAN and s.user_id is None and not s.name,
            mine=user_pk is not None and s.user_id == user_pk,
            total=totals[s.index] if totals is not None and s.index < len(totals) else None,
            turn=turn == s.index and match.status == Match.Status.PLAYING,
            winner=s.index in winners,
        )
        for s in seats
    ]
    free = sum(1 for r in rows if r.free)
    your_turn = False
    if match.status == Match.Status.WAITING:
        line = ngettext(
            "Waiting for %(count)s more player", "Waiting for %(count)s more players", free
        ) % {"count": free}
    elif match.status == Match.Status.FINISHED or (
        state is not None and state.phase == "match_over"
    ):
        names = ", ".join(r.name for r in rows if r.winner)
        line = _("Finished: %(names)s won") % {"names": names} if names else _("Finished")
    elif state is not None and state.phase == "round_over":
        line = _("Round %(round)s is over: next round to start") % {"round": state.round}
    elif turn is not None and 0 <= turn < len(rows):
        on_turn = rows[turn]
        your_turn = permissions.may(user, Can.ACT, match, seat=turn, seats=seats)
        line = _("Your turn") if your_turn else _("%(name)s to play") % {"name": on_turn.name}
    else:
        line = str(match.get_status_display())
    return MatchSummary(
        match=match,
        seats=rows,
        rounds=match.length,
        free_seats=free,
        status_line=line,
        your_turn=your_turn,
        length_label="" if length.is_standard(match.length) else length.label(match.length),
    )


# ------------------------------------------------------------------ replays (admin, commands)


def replay_json(doc: dict[str, Any]) -> str:
    """A replay document as the file the admin downloads and `export_replay` writes."""
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _diff(path: str, replayed: Any, stored: Any, out: list[str]) -> None:
    if isinstance(replayed, dict) and isinstance(stored, dict):
        for key in sorted(set(replayed) | set(stored), key=str):
            _diff(f"{path}.{key}", replayed.get(key), stored.get(key), out)
    elif (
        isinstance(replayed, list)
        and isinstance(stored, list)
        and len(replayed) == len(stored)
        and any(isinstance(x, (list, dict)) for x in replayed + stored)
    ):
        for i, (a, b) in enumerate(zip(replayed, stored, strict=True)):
            _diff(f"{path}[{i}]", a, b, out)
    elif replayed != stored:
        out.append(f"{path}: replay {json.dumps(replayed)} != stored {json.dumps(stored)}")


def replay_differences(match: Match) -> list[str] | None:
    """Run the match's replay (`selectors.match_replay_doc`) through `engine.replay.run_replay`
    and compare it with the stored snapshot (`Match.state`): hands, trains, boneyard, turn,
    phase, open doubles, points and totals. None for a match not started (nothing stored);
    otherwise the differences, empty when the replay reproduces the stored state.

    The snapshot and the log are read at one version: a match being played may move between
    the two reads (each move commits its log entry and its snapshot together, and a new
    version), so the version is read again after the log, and the reads repeated if it moved."""
    for _attempt in range(5):
        current = Match.objects.filter(pk=match.pk).values("state", "version").first()
        if current is None or current["state"] is None:
            return None
        doc = match_replay_doc(match)
        if Match.objects.filter(pk=match.pk, version=current["version"]).exists():
            break
    else:
        return ["the match moved on at each of five reads: check it again"]
    replayed = run_replay(doc)
    out: list[str] = []
    if replayed.get("error") is not None:
        out.append(
            f"error: the replay stops at action {replayed['error']['index']}: {replayed['error']['message']}"
        )
    stored = state_json(state_from_json(current["state"]), with_rounds="rounds" in replayed)
    for key in stored:
        if key != "error":
            _diff(key, replayed.get(key), stored[key], out)
    return out


# ------------------------------------------------------------------ the site's menu


def your_turn_count(user: Any) -> int:
    """How many matches being played wait for `user`'s move now (the count by "My
    matches" in the site's menu on every page): a seat they may act for is to play."""
    if not getattr(user, "is_authenticated", False):
        return 0
    from games.reads import selectors

    playing = (
        selectors.my_matches(user).filter(status=Match.Status.PLAYING).prefetch_related("seats")
    )
    count = 0
    for match in playing:
        state = state_from_json(match.state) if match.state else None
        if state is None or state.turn is None or state.phase in ("round_over", "match_over"):
            continue
        seats = sorted(match.seats.all(), key=lambda s: s.index)
        count += permissions.may(user, Can.ACT, match, seat=state.turn, seats=seats)
    return count
