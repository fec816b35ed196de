"""The admin's step-by-step replay of a whole match, and the words for each action.

`replay_frames(doc)` runs a replay document (the export, `../shared/spec/replay-format.md`)
through the engine and keeps the state after every action, so the admin can step
forward and back across all rounds (the `next_round` actions separate them) and see
every hand — the admin sees what the replay command sees, never what a seat's view
would hide from a player. The state after each action is the engine's own
(`engine.rules.apply`), so the replay shows exactly what the match stored (R4, R5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.replay import parse_action, parse_start
from engine.rules import apply
from engine.state import Action, IllegalAction, RoundState
from engine.tiles import tile_str
from games import logtext

#: the engine's round phases in words
PHASES = {
    "engine": gettext_lazy("Engine to place"),
    "first": gettext_lazy("First turns"),
    "play": gettext_lazy("Later turns"),
    "round_over": gettext_lazy("Round over"),
    "match_over": gettext_lazy("Match over"),
}


@dataclass(frozen=True)
class Frame:
    """The state after `step` actions (step 0: round 1 dealt, engine search done)."""

    step: int
    #: the action taken to reach this state (None for step 0)
    action: Action | None
    state: RoundState


@dataclass(frozen=True)
class Replay:
    frames: list[Frame]
    #: the first illegal action of the document, if any: {"index", "action", "message"}
    error: dict[str, Any] | None

    @property
    def last(self) -> int:
        return len(self.frames) - 1

    def round_starts(self) -> list[tuple[int, int]]:
        """(round number, the step at which it was dealt) for every round reached."""
        starts = [(self.frames[0].state.round, 0)]
        for frame in self.frames[1:]:
            if frame.action is not None and frame.action.act == "next_round":
                starts.append((frame.state.round, frame.step))
        return starts


def replay_frames(doc: dict[str, Any]) -> Replay:
    """Every state of the replay `doc`; stops at the first illegal action (a broken log)."""
    state = parse_start(doc)
    frames = [Frame(0, None, state)]
    raw_actions = doc.get("actions", [])
    for k, raw in enumerate(raw_actions):
        action = parse_action(raw)
        try:
            after = apply(state, action)
        except IllegalAction as e:
            return Replay(frames, {"index": k, "action": raw, "message": e.message})
        frames.append(Frame(k + 1, action, after))
        state = after
    return Replay(frames, None)


def seat_label(names: Sequence[str], seat: int) -> str:
    name = names[seat] if 0 <= seat < len(names) and names[seat] else ""
    if name:
        return _("%(name)s (seat %(number)s)") % {"name": name, "number": seat + 1}
    return _("Seat %(number)s") % {"number": seat + 1}


def describe(frame: Frame, names: Sequence[str]) -> str:
    """The action that led to `frame`, in words. The table's log words (`games.logtext`)
    serve, except that the admin also reads which tile a draw took (R15)."""
    state = frame.state
    engine = tile_str((state.engine, state.engine))
    labels = [seat_label(names, s) for s in range(state.players)]
    if frame.action is None or frame.action.act == "next_round":
        return _("Round %(round)s dealt: %(holder)s holds the engine %(tile)s.") % {
            "round": state.round, "holder": labels[state.holder], "tile": engine}
    action = frame.action
    assert action.seat is not None
    if action.act == "draw":
        drawn = state.hands[action.seat][-1]
        return _("%(seat)s drew %(tile)s from the boneyard.") % {
            "seat": labels[action.seat], "tile": tile_str(drawn)}
    return logtext.describe(action.to_json(), labels, None, engine=state.engine)


def outcome(state: RoundState, names: Sequence[str]) -> str | None:
    """How the round (and the match) ended, once it has (R20–R22)."""
    if not state.over:
        return None
    if state.ended_by == "out":
        out = [s for s, hand in enumerate(state.hands) if not hand]
        text = _("Round %(round)s is over: %(seat)s went out.") % {
            "round": state.round, "seat": ", ".join(seat_label(names, s) for s in out)}
    else:
        text = _("Round %(round)s is over: blocked.") % {"round": state.round}
    winners = state.winners()
    if winners is not None:
        text += " " + _("Match over; winner(s): %(seats)s.") % {
            "seats": ", ".join(seat_label(names, s) for s in winners)}
    return text


def frame_table(frame: Frame, names: Sequence[str]) -> dict[str, Any]:
    """What the replay page shows for one frame: every hand and train, in plain values."""
    state = frame.state
    n = state.players
    open_at = {index: k for k, (_tile, index) in enumerate(state.open_doubles, start=1)}
    seats = []
    for s in range(n):
        train = state.trains[s]
        seats.append({
            "index": s,
            "label": seat_label(names, s),
            "hand": [tile_str(t) for t in state.hands[s]],
            "hand_points": sum(a + b for a, b in state.hands[s]),
            "train": [tile_str(t) for t in train.tiles],
            "marker": train.marker,
            "open_double": open_at.get(s),
            "total": state.totals[s],
            "round_points": state.round_points[s] if state.round_points is not None else None,
            "turn": state.turn == s,
            "holder": state.holder == s,
        })
    mexican = state.trains[n]
    return {
        "round": state.round,
        "phase": state.phase,
        "phase_label": PHASES.get(state.phase, state.phase),
        "engine": tile_str((state.engine, state.engine)),
        "boneyard": len(state.boneyard),
        "boneyard_top": tile_str(state.boneyard[0]) if state.boneyard else None,
        "turn": seat_label(names, state.turn) if state.turn is not None else None,
        "seats": seats,
        "mexican": [tile_str(t) for t in mexican.tiles],
        "mexican_open_double": open_at.get(n),
        "open_doubles": [
            {"order": k, "tile": tile_str(t),
             "train": _("the Mexican train") if i == n else seat_label(names, i)}
            for k, (t, i) in enumerate(state.open_doubles, start=1)
        ],
        "words": describe(frame, names),
        "outcome": outcome(state, names),
    }
