"""The trains as the board shows them: their rows of tiles (the newest, the older folded), the
marker, the Mexican train and the open doubles' order (R10, R13, R15, R16, R19)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.state import MEXICAN
from engine.tiles import Tile, is_double
from engine.views import SeatView, TrainView
from games.board.jinja_env import active_language
from games.board.jinja_env import text as _  # Django's gettext, each word kept once translated
from games.board.words import fold_text, spoken, train_aria, train_label

from .contexts import SeatCtx, TrainCtx, TrainTileCtx
from .inputs import SeatInfo

#: train tiles shown at full size before the older ones fold ("… 9 more")
SHOWN_WIDE = 7
#: on a phone only the last three tiles of a train are shown
SHOWN_NARROW = 3


def _trains(
    view: SeatView,
    seats: Sequence[SeatInfo],
    seat_ctx: list[SeatCtx],
    me: int | None,
    last_train: str = "",
) -> list[TrainCtx]:
    badges: dict[str, tuple[Tile, int]] = {}  # train key -> (its open double, order: 1 first, R19)
    for order, (tile, on) in enumerate(view.open_doubles, start=1):
        badges[str(on)] = (tile, order)
    open_to_me = me is not None and view.my_turn
    out = []
    for index, train in enumerate(view.trains):
        key = str(train.key)
        mexican = train.key == MEXICAN
        label = train_label(train.key, seats, me)
        badge = badges.get(key)
        n = len(train.tiles)
        first_shown = max(0, n - SHOWN_WIDE)
        tiles = list(
            _train_tiles(
                train.tiles,
                badge[1] if badge is not None else None,
                key == last_train,
                active_language(),
            )
        )
        folded_wide = first_shown
        folded_narrow = max(0, n - SHOWN_NARROW)
        aria, wide_text, narrow_text = _train_words(
            label, train, badge is not None, folded_wide, folded_narrow, active_language()
        )
        out.append(
            TrainCtx(
                key=key,
                index=index,
                mexican=mexican,
                owner=seat_ctx[train.owner] if train.owner is not None else None,
                label=label,
                short=label
                if train.owner is None or train.owner == me
                else seats[train.owner].name,
                aria_label=aria,
                tiles=tiles,
                folded_wide=folded_wide,
                folded_narrow=folded_narrow,
                folded_wide_text=wide_text,
                folded_narrow_text=narrow_text,
                marker=train.marker,
                end=train.end,
                started=bool(train.tiles),
                mine=me is not None and train.owner == me,
                open_to_me=open_to_me
                and any(a.act == "play" and str(a.train) == key for a in view.legal),
                open_double=badge is not None,
            )
        )
    return out


@lru_cache(maxsize=2048)
def _train_words(
    label: str,
    train: TrainView,
    open_double: bool,
    folded_wide: int,
    folded_narrow: int,
    language: str | None,
) -> tuple[str, str, str]:
    """A train's words (its accessible name, its folds' "… 9 more"): the same for every
    viewer that names the train alike, so made once per train, name and language (a row's
    words change on a move on it only)."""
    return train_aria(label, train, open_double), fold_text(folded_wide), fold_text(folded_narrow)


@lru_cache(maxsize=1024)
def _train_tiles(
    tiles: tuple[Tile, ...], badge: int | None, last_move: bool, language: str | None
) -> tuple[TrainTileCtx, ...]:
    """The tiles a train's row shows (its newest `SHOWN_WIDE`): the same for every viewer,
    so worked out once per train, its open double's order (`badge`), whether the last move
    was on it, and language (a row changes on a move on it only)."""
    n = len(tiles)
    first_shown = max(0, n - SHOWN_WIDE)
    out = []
    for position in range(first_shown, n):
        t = tiles[position]
        b = badge if badge is not None and position == n - 1 and is_double(t) else None
        tile_label = ""
        if b is not None:
            tile_label = _("Tile %(tile)s, open double number %(order)s") % {
                "tile": spoken(t),
                "order": b,
            }
        out.append(
            TrainTileCtx(
                tile=t,
                double=is_double(t),
                badge=b,
                far=position < n - SHOWN_NARROW,
                label=tile_label,
                last_move=position == n - 1 and last_move,
            )
        )
    return tuple(out)
