"""A replay step drawn as the live table draws its board, with games/board/ (the root's,
which the table wing uses too): so a replay looks exactly like the table did.

The step's state goes through the same path as a spectator's live board —
`engine.views.view(state, None)`, `present`, `board_html` and the board templates —
with the same flags the live board had at that version (the points of earlier
rounds, the last log line). Then, because the round has ended (`games.history.replays`
never yields a round still being played), every hand is laid face up on its row, as
the live board does once the round is over (R21).
"""

from __future__ import annotations

from django.utils.safestring import SafeString

from engine.views import view as view_of
from games.board import parts
from games.board.draw import board_html, seat_infos
from games.board.jinja_env import fixed_language
from games.board.presenter import Flags, present, seat_style
from games.board.viewer import Viewer
from games.board.words import log_line
from games.history.replays import RoundReplay

__all__ = ["names", "seat_style", "step_html"]


def names(replay: RoundReplay) -> list[str]:
    """The seats' names as the table shows them."""
    return [s.name for s in seat_infos(replay.match)]


def step_html(replay: RoundReplay, k: int, *, hands: bool = True) -> SafeString:
    """The board at step `k` of the (ended) round; `hands=False` draws what a spectator saw
    live at that version (the test compares the two renders)."""
    step = replay.step(k)
    state = step.state
    view = view_of(state, None)
    seats = seat_infos(replay.match)
    history = replay.earlier_points
    if state.over and state.round_points is not None:
        history = (*history, tuple(state.round_points))
    entry = step.entry if step.entry is not None else replay.before
    last = (
        log_line(entry, [s.name for s in seats], None, engine=view.engine)
        if entry is not None
        else ""
    )
    played = entry.action if entry is not None and entry.kind == "action" else None
    last_train = (
        str(played.get("train", ""))
        if isinstance(played, dict) and played.get("act") == "play"
        else ""
    )
    # the match's own pace, as its spectators saw it live (the replay itself shows none)
    flags = Flags(
        match_id=replay.match.pk,
        version=step.version,
        history=history,
        last_event=last,
        last_train=last_train,
        searched=len(state.search),
        pace=replay.match.pace,
    )
    board = present(view, seats, viewer=Viewer(), flags=flags)
    board.charted = False  # the viewer's page draws the whole match's chart once, under the board
    if hands:
        # A replay has no pace: the computers' pace was the live table's, and the replay moves
        # when its reader steps (as live, hands=False, the board keeps what spectators saw).
        board.pace_text = ""
        for seat in board.seats:  # the train rows hold these same objects as their owners
            if seat.revealed is None:
                seat.revealed = state.hands[seat.index]
    # The board's shared parts (its trains, where the hands lie face up) are made from this
    # presented board itself: a spectator's, with the ended round's hands added (R21).
    with fixed_language():
        shared = parts.shared_parts(board)
    return board_html(board, shared)
