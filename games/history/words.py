"""A replay's log in words, seats numbered as players see them (from 1).

The round has ended, so a draw may say which tile it took (R15: secret only while
the round is played; R21: every hand is shown at its end)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from engine.state import MEXICAN, RoundState
from engine.tiles import parse_tile, spoken, tile_str
from games import words
from games.history.replays import RoundReplay, Step
from games.log import words as logtext


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


# ---------------------------------------------------------------- the admin's replays

#: the match admin's search box, under it (lazy: the admin is made once)
ADMIN_SEARCH = gettext_lazy("A match id or seed, or a player's user name or seat name.")

#: What the admin's replay pages and actions tell a staff member (games/history/admin.py:
#: checking a replay file, exporting replays), by key, each once.
ADMIN: dict[str, Callable[[], str]] = {
    "no_match": lambda: _("There is no match %(id)s."),
    "no_file": lambda: _("Choose a replay file to check."),
    "file_too_large": lambda: _("That file is too large to be a replay."),
    "other_matches": lambda: _(
        "That file holds the replays of other matches (%(ids)s), not of match %(id)s."
    ),
    "not_started": lambda: _("Match %(id)s has not started."),
    "differs": lambda: _("Match %(id)s: the replay does not reproduce it (%(first)s)."),
    "reproduces": lambda: _("Match %(id)s: the replay reproduces it."),
    "nothing_exported": lambda: _(
        "Nothing was exported: only finished matches can be exported (a match's "
        "seed is its deals). Still being played: %(ids)s."
    ),
    "live_not_exported": lambda: _(
        "Matches still being played are not exported (their seed is their deals): %(ids)s."
    ),
    "first_200": lambda: _("Only the first 200 matches were exported."),
    "round_in_play": lambda: _("This round is being played: it can be replayed once it is over."),
}


def admin_says(key: str, **facts: object) -> str:
    """The admin's sentence for `key` (one of `ADMIN`) in the active language, `facts` put in."""
    text = ADMIN[key]()
    return text % facts if facts else text


# ---------------------------------------------------------------- the expert's choices


def expert_choice(expert: dict[str, object], names: Sequence[str], seat: int, you: bool) -> str:
    """What the expert computer would have done instead ("The expert would have played 6-4
    on the Mexican train"); `you`: the reader holds `seat`."""
    if expert.get("act") == "end":
        return _("The expert would have ended the first turn here.")
    tile = expert.get("tile")
    words = {"tile": spoken(parse_tile(tile)) if isinstance(tile, str) else "?"}
    train = expert.get("train")
    if train == MEXICAN:
        return _("The expert would have played %(tile)s on the Mexican train.") % words
    owner = train if isinstance(train, int) else -1
    if owner == seat:
        if you:
            return _("The expert would have played %(tile)s on your own train.") % words
        words["name"] = seat_label(names, seat)
        return _("The expert would have played %(tile)s on %(name)s's own train.") % words
    words["owner"] = seat_label(names, owner) if 0 <= owner < len(names) else "?"
    return _("The expert would have played %(tile)s on %(owner)s's train.") % words


def expert_estimate(move: dict[str, Any], names: Sequence[str], you: bool) -> str:
    """What each choice tended to leave in hand at the round's end, from the playouts (R21)."""
    taken = round(float(move.get("taken_points") or 0))
    words = {
        "taken": taken,
        "expert": round(float(move.get("expert_points") or 0)),
        "playouts": move.get("playouts", 0),
    }
    if you:
        return (
            ngettext(
                "Your choice left about %(taken)s point in hand at the round's end; "
                "the expert's about %(expert)s (from %(playouts)s playouts).",
                "Your choice left about %(taken)s points in hand at the round's end; "
                "the expert's about %(expert)s (from %(playouts)s playouts).",
                taken,
            )
            % words
        )
    words["name"] = seat_label(names, int(move.get("seat", -1)))
    return (
        ngettext(
            "%(name)s's choice left about %(taken)s point in hand at the round's end; "
            "the expert's about %(expert)s (from %(playouts)s playouts).",
            "%(name)s's choice left about %(taken)s points in hand at the round's end; "
            "the expert's about %(expert)s (from %(playouts)s playouts).",
            taken,
        )
        % words
    )


def expert_agrees() -> str:
    return _("The expert would have made the same choice.")


def expert_notes(
    moves: Sequence[dict[str, Any]], names: Sequence[str], reader_seats: Collection[int]
) -> list[dict[str, object]]:
    """One note per reviewed decision: its step, whether the expert chose differently, its lines."""
    out: list[dict[str, object]] = []
    for move in moves:
        seat = int(move.get("seat", -1))
        you = seat in reader_seats
        if move.get("taken") == move.get("expert"):
            lines = [expert_agrees()]
        else:
            lines = [expert_choice(move.get("expert") or {}, names, seat, you)]
            if move.get("playouts"):
                lines.append(expert_estimate(move, names, you))
        differs = move.get("taken") != move.get("expert")
        out.append({"step": move.get("step"), "differs": differs, "lines": lines})
    return out


def expert_elsewhere() -> str:
    """The expert's note at a step that is not a person's choice."""
    return _("The expert's choices are shown at the moves where a person had a choice.")


def expert_computing() -> str:
    return _("The expert is still looking at this round. Its choices appear here when ready.")
