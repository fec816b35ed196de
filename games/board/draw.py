"""A presented board drawn: its parts and its HTML (`board_page`, `board_html`), the shared
parts of its moment (`shared_of`), and the seats' names and kinds it is presented with
(`seat_infos`, the one read of the database here: a match's seats and who is at the table).

The live table (games/table/board.py) and the replay (games/history/boards.py) both draw
with these, in the language of the moment (`jinja_env.fixed_language`).
"""

from __future__ import annotations

from typing import Any

from django.utils.safestring import SafeString, mark_safe

from games.board import parts
from games.board.jinja_env import fixed_language
from games.board.jinja_env import text as _  # Django's gettext, each word kept once translated
from games.board.presenter import Board, SeatInfo, present_public
from games.board.words import standin_name
from games.words import seat_number


def shared_of(board: Board, rows: dict[Any, Any] | None = None) -> dict[str, Any]:
    """The shared parts of the moment `board` shows, rendered now (`rows`: the shared parts
    rendered before, reused where they show the same; `parts.shared_parts`)."""
    if board.source is None:
        raise ValueError("this board was not made by present()")
    view, seats, flags = board.source
    return parts.shared_parts(present_public(view, seats, flags), rows)


def seat_infos(
    match: Any,
    *,
    with_presence: bool = False,
    seen: dict[int, tuple[bool, Any]] | None = None,
) -> list[SeatInfo]:
    """Names and kinds of a match's seats (a Match with its seats); `with_presence`: whether each
    person's seat is at the table now, or since when away (games.attendance.presence, read now:
    a live board of a match being played; the table is told when a connection opens or closes),
    or `seen`: who is at the table as read already (once per version, by the live table)."""
    out = []
    from games.attendance import presence
    from games.models import Seat
    from games.reads import selectors

    levels = dict(Seat.Level.choices)
    if seen is None and with_presence and match.status == "playing":
        seen = presence.at_table(match.pk)

    for s in selectors.match_seats(match):
        name = s.display_name
        if not name:
            name = (
                _("Computer %(number)s") % {"number": s.index + 1}
                if s.kind == "computer"
                else seat_number(s.index)
            )
        kind = s.kind
        # a computer plays it while its owner is away (games.attendance.standin): said plainly
        if s.standin:
            name, kind = standin_name(name), "computer"
        level = levels.get(s.computer_level, "")  # the computer's level in words
        here, since = "", None
        if seen is not None and s.kind != "computer" and s.user_id is not None:
            there, last = seen.get(s.user_id, (False, None))
            here, since = ("here", None) if there else ("away", last)
        out.append(
            SeatInfo(
                index=s.index,
                name=isolated(name),
                kind=kind,
                level=str(level),
                presence=here,
                away_since=since,
            )
        )
    return out


def isolated(name: str) -> str:
    """`name` between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: what <bdi> does, for
    the sentences and attributes a name is put into (a right-to-left name cannot reorder the
    words around it)."""
    return f"\u2068{name}\u2069"


def board_page(board: Board, shared: dict[str, Any] | None = None) -> parts.Page:
    """A presented `board` as parts; `shared`: the version's shared parts if made already."""
    with fixed_language():
        return parts.page(board, shared if shared is not None else shared_of(board))


def board_html(board: Board, shared: dict[str, Any] | None = None) -> SafeString:
    """The board HTML (``games/jinja2/games/board.html``) of a presented `Board`."""
    with fixed_language():
        return mark_safe(board_page(board, shared).html())
