"""Reads only the tests need (moved out of games/reads/selectors.py, which keeps what the site
reads): the state rebuilt from the log, whose turn a computer plays, whether Undo and Redo
would show for a user, a match by its tokens, a match's whole log; and, read one by one,
what the version's pass hands every board at once (whether Restart, Next round and New
match show for a user, what the asker of a closed request is told), the reference the
pass is compared with."""

from __future__ import annotations

from engine import rules
from engine.replay import parse_action
from engine.serialize import start_from_json
from engine.state import RoundState
from games import log, permissions
from games.errors import NOT_STARTED, GameError
from games.models import LogEntry, Match, Round, Seat
from games.reads import selectors
from games.words import sentence


def current_round(match: Match) -> Round | None:
    return Round.objects.filter(match=match, number=match.round_number).first()


def rebuild_state(match: Match) -> RoundState:
    """The current round's state rebuilt from its deal and effective log, ignoring the snapshot."""
    rnd = current_round(match)
    if rnd is None:
        raise GameError(NOT_STARTED, sentence("not_started"))
    state = rules.start_round(start_from_json(rnd.start))
    for entry in selectors.effective_actions(rnd):
        state = rules.apply(state, parse_action(entry.action))
    return state


def computer_to_act(match: Match) -> Seat | None:
    """The seat a computer plays whose turn it is, if any (paused or not): a computer's, or a
    person's with a computer standing in (games.attendance.standin)."""
    if match.status != Match.Status.PLAYING or match.state is None:
        return None
    turn = match.state.get("turn")
    if turn is None:
        return None
    seat = Seat.objects.filter(match=match, index=turn).first()
    return seat if seat is not None and seat.computer_plays else None


def _folded(match: Match) -> log.Folded[LogEntry] | None:
    if match.state is None or match.status != Match.Status.PLAYING:
        return None
    # The current round's log in one query (through the round's (match, number) index).
    return log.fold(
        list(
            LogEntry.objects.filter(round__match=match, round__number=match.round_number).order_by(
                "seq"
            )
        )
    )


def undo_redo_available(match: Match, user: object) -> tuple[bool, bool]:
    """R27: whether Undo and Redo show, from one read of the round's log (a board asks both).
    Neither once the round is over (R21, R24: every hand has been shown, so its moves stand)."""
    if selectors.round_over(match):
        return False, False
    mine = selectors.seats_controlled(match, user)
    return selectors.undo_redo_in(_folded(match) if mine else None, mine)


def undo_available(match: Match, user: object) -> bool:
    """R27: whether Undo shows: the user's last action in this round has only computer actions after it."""
    return undo_redo_available(match, user)[0]


def redo_available(match: Match, user: object) -> bool:
    """R27: whether Redo shows: the user undid something and nothing was played since."""
    return undo_redo_available(match, user)[1]


def match_by_invite(token: str) -> Match | None:
    return Match.objects.filter(invite_token=token).first() if token else None


def match_by_watch(token: str) -> Match | None:
    return Match.objects.filter(watch_token=token).first() if token else None


def match_log(match: Match) -> list[LogEntry]:
    """Every log entry of the match, round by round, in order (undo/redo/restart included).

    Actions hold only public information: a draw does not say which tile was drawn."""
    return list(
        LogEntry.objects.filter(round__match=match)
        .select_related("round", "user")
        .order_by("round__number", "seq")
    )


def restart_available(match: Match, user: object) -> bool:
    """R28: whether "restart round" shows (the creator, or a player alone with computers)."""
    return selectors.restart_open(match) and permissions.may(user, "restart", match)


def next_round_available(match: Match, user: object) -> bool:
    """Whether "Next round" shows: the round is over (not the match), for a player or the creator."""
    return selectors.next_round_open(match) and permissions.may(user, "next_round", match)


def answer_for(match: Match, user: object) -> str:
    """What the asker of the match's latest closed request is told, read now."""
    from games.table import board

    return board.told(match, selectors.last_closed_request(match.pk), user)
