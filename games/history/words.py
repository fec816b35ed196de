"""A replay's log in words, seats numbered as players see them (from 1).

The round has ended, so a draw may say which tile it took (R15: secret only while
the round is played; R21: every hand is shown at its end)."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from engine.state import RoundState
from engine.tiles import tile_str
from games import logtext, words
from games.history.replays import RoundReplay, Step


def seat_label(names: Sequence[str], seat: int) -> str:
    """ "ana (seat 2)": the seat's number counts from 1, as on the table."""
    return words.seat_label(names[seat] if 0 <= seat < len(names) else "", seat)


def dealt_line(state: RoundState, names: Sequence[str]) -> str:
    tile = tile_str((state.engine, state.engine))
    return _("Round %(round)s dealt: %(holder)s holds the engine %(tile)s.") % {
        "round": state.round,
        "holder": seat_label(names, state.holder),
        "tile": tile,
    }


def step_line(step: Step, names: Sequence[str]) -> str:
    """The action that led to `step`, in words."""
    state = step.state
    if step.action is None:
        return dealt_line(state, names)
    labels = [seat_label(names, s) for s in range(state.players)]
    action = step.action
    if action.act == "draw" and action.seat is not None and state.hands[action.seat]:
        return _("%(seat)s drew %(tile)s from the boneyard") % {
            "seat": labels[action.seat],
            "tile": tile_str(state.hands[action.seat][-1]),
        }
    return logtext.describe(action.to_json(), labels, None, engine=state.engine)


def outcome_line(state: RoundState, names: Sequence[str]) -> str:
    """How the round ended (R20, R21), once it has."""
    if not state.over:
        return ""
    if state.ended_by == "out":
        out = [seat_label(names, s) for s, hand in enumerate(state.hands) if not hand]
        return _("Round %(round)s is over: %(seat)s went out.") % {
            "round": state.round,
            "seat": ", ".join(out),
        }
    return _("Round %(round)s is over: nobody could play (blocked).") % {"round": state.round}


def log_lines(replay: RoundReplay, names: Sequence[str]) -> list[dict[str, object]]:
    """One line per step of the round: its number, the acting seat (1-based) and its words."""
    out: list[dict[str, object]] = []
    for step in replay.steps:
        seat = step.action.seat if step.action is not None else None
        out.append(
            {
                "step": step.index,
                "seat": seat + 1 if seat is not None else None,
                "text": step_line(step, names),
            }
        )
    return out


def no_match_to_look_back() -> str:
    """Why a replay page is not found (no such match, or not this viewer's to look back at)."""
    return _("There is no such match to look back at.")


def round_not_ended() -> str:
    """Why a round cannot be replayed yet (R24: its hands are still secret)."""
    return _("That round has not ended yet: it cannot be replayed.")


def saved() -> str:
    """The turn e-mail settings page, after saving."""
    return _("Saved.")
