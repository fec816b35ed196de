"""The seats as the board shows them: name, colour and shape, hand size, turn, presence and,
once the round is over, points, winners and the hands face up (R21, R22, R24)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.views import SeatView
from games.board.jinja_env import ntext as ngettext
from games.board.jinja_env import text as _  # Django's gettext, each word kept once translated
from games.board.words import points_text

from .colours import seat_style
from .contexts import SeatCtx
from .inputs import SeatInfo


def _seats(
    view: SeatView, seats: Sequence[SeatInfo], me: int | None, controlled: Sequence[int]
) -> list[SeatCtx]:
    out = []
    over = view.phase in ("round_over", "match_over")
    lowest = min(view.round_points) if over and view.round_points else None
    for info in seats:
        i = info.index
        colour, shape, path = seat_style(i)
        pts = view.round_points[i] if over and view.round_points is not None else None
        out.append(
            SeatCtx(
                index=i,
                number=i + 1,
                name=info.name,
                kind=info.kind,
                colour=colour,
                shape=shape,
                shape_path=path,
                level=info.level,
                presence=info.presence,
                presence_text=presence_words(info),
                away_since=info.away_since.isoformat()
                if info.presence == "away" and info.away_since is not None
                else "",
                hand_size=view.hand_sizes[i],
                hand_size_text=ngettext(
                    "%(count)s in hand", "%(count)s in hand", view.hand_sizes[i]
                )
                % {"count": view.hand_sizes[i]},
                total=view.totals[i],
                is_turn=view.turn == i,
                is_me=me == i,
                controlled=i in controlled,
                points=pts,
                points_text=points_text(pts) if pts is not None else "",
                lowest=pts is not None and pts == lowest,
                winner=view.winners is not None and i in view.winners,
                # R21, R24: hands are face up only once the round is over.
                revealed=view.revealed[i] if over and view.revealed is not None else None,
                hand_label=_("Your hand")
                if me == i
                else _("%(name)s's hand") % {"name": info.name},
                total_text=_("total %(total)s") % {"total": view.totals[i]} if over else "",
            )
        )
    return out


def presence_words(info: SeatInfo) -> str:
    """ "At the table", "Away since 14:05 UTC" or "Not at the table yet", for the dot by
    a person's name; "" for a computer's seat or a board with no presence (replays). The time is
    in UTC here (the server does not know the reader's zone): the page says it in the reader's
    own time (static/js/localtime.js, from SeatCtx.away_since and script_words "away_since")."""
    if info.presence == "here":
        return _("At the table")
    if info.presence != "away":
        return ""
    if info.away_since is None:
        return _("Not at the table yet")
    from django.utils import timezone
    from django.utils.dateformat import time_format

    return _("Away since %(time)s") % {
        "time": time_format(timezone.localtime(info.away_since), "H:i T")
    }
