"""The computers' pace on the board: shown to everyone at a table with computers, chosen and
skipped ("Skip to my turn") by the seated."""

from __future__ import annotations

from collections.abc import Sequence

from engine.views import SeatView
from games.board.jinja_env import text as _  # Django's gettext, each word kept once translated

from .contexts import Board
from .inputs import Flags, SeatInfo


def pace_words() -> dict[str, str]:
    """The paces' names in the active language (games.models.Match.Pace)."""
    from games.models import Match

    return {value: str(label) for value, label in Match.Pace.choices}


def _pace(
    board: Board, view: SeatView, seats: Sequence[SeatInfo], flags: Flags, over: bool
) -> None:
    """The computers' pace for everyone; the choice of pace and "Skip to my turn" for the seated."""
    board.has_computers = any(s.kind == "computer" for s in seats)
    if not board.has_computers:
        return
    words = pace_words()
    board.pace, board.hurry = flags.pace, flags.hurry
    board.pace_text = _("Computers: %(pace)s") % {"pace": words.get(flags.pace, flags.pace)}
    if flags.may_pace and view.phase != "match_over":
        board.pace_options = [
            {"value": value, "label": label, "current": value == flags.pace}
            for value, label in words.items()
        ]
    computer_turn = view.turn is not None and seats[view.turn].kind == "computer"
    board.skip = flags.may_pace and computer_turn and not over and not flags.hurry
    board.skip_shown = flags.may_pace and not over
