"""The viewer's hand and what they may do now: each tile's trains or why it fits nowhere
(R7, R8, R13, R15, R19), its rows on a phone, and the actions' buttons with what ending
the turn leaves behind (R9, R10, R11, R15)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.previews import end_preview
from engine.tiles import Tile, is_double, points
from engine.views import SeatView
from games.board.jinja_env import active_language
from games.board.jinja_env import ntext as ngettext
from games.board.jinja_env import text as _  # Django's gettext, each word kept once translated
from games.board.words import points_text, spoken, tiles_text, why_not
from games.words import rule_url, say

from .contexts import ActionsCtx, HandCtx, HandTileCtx
from .inputs import SeatInfo


@dataclass(frozen=True)
class _Why:
    words: str
    url: str


def _why(
    view: SeatView, tile: Tile, names: list[str], said: dict[Any, _Why] | None = None
) -> _Why | None:
    """Why `tile` may not be played, in words (`said`: the words of the hand's reasons so far,
    by reason: while others play every tile of a hand has the same one)."""
    reason = why_not(view, tile)
    if reason is None:
        return None
    key = (reason.code, reason.rule, tuple(sorted(reason.params.items())))
    if said is not None and key in said:
        return said[key]
    why = _Why(say(reason, names=names, me=view.seat), rule_url(reason.rule))
    if said is not None:
        said[key] = why
    return why


#: the hands of seats waiting for their turn, by what they show (`_hand`)
_WAITING: dict[tuple[Any, ...], HandCtx] = {}
_WAITING_KEPT = 4096


def _hand(view: SeatView, seats: Sequence[SeatInfo]) -> HandCtx | None:
    if view.hand is None or view.seat is None:
        return None
    if view.legal or view.my_turn or view.phase in ("round_over", "match_over"):
        return _hand_now(view, seats)
    # While others play every tile of a hand says the same (`why_not`: wait for your turn),
    # so a waiting hand is a function of its tiles, its seat and the language: made once,
    # then the same object for every version until the hand changes, which the hand
    # part's key (games.board.parts) then compares by identity.
    key = (view.hand, view.seat, view.drawn_tile, active_language())
    made = _WAITING.get(key)
    if made is None:
        if len(_WAITING) >= _WAITING_KEPT:
            _WAITING.clear()
        made = _WAITING[key] = _hand_now(view, seats)
    return made


def _hand_now(view: SeatView, seats: Sequence[SeatInfo]) -> HandCtx:
    assert view.hand is not None and view.seat is not None  # `_hand` says so
    names = [s.name for s in seats]
    tiles = []
    playable = 0
    placing = view.phase == "engine" and any(a.act == "engine" for a in view.legal)
    said: dict[Any, _Why] = {}
    for t in view.hand:
        targets = [str(a.train) for a in view.legal if a.act == "play" and a.tile == t]
        why = None if targets else _why(view, t, names, said)
        if targets:
            playable += 1
        tiles.append(
            HandTileCtx(
                tile=(max(t), min(t)),
                data=spoken(t),
                label=_("Tile %(tile)s") % {"tile": spoken(t)},
                targets=targets,
                targets_attr=" ".join(targets),
                why=why.words if why is not None else "",
                why_url=why.url if why is not None else "",
                drawn=view.drawn_tile is not None and t == view.drawn_tile,
                double=is_double(t),
                points=points(t),
                after_engine=str(view.seat)
                if placing and view.engine in t and t != (view.engine, view.engine)
                else "",
            )
        )
    total = sum(points(t) for t in view.hand)
    return HandCtx(
        seat=view.seat,
        tiles=tiles,
        count_text=tiles_text(len(view.hand)),
        points_text=points_text(total),
        playable=playable,
        columns=phone_columns(len(view.hand)),
    )


def phone_columns(count: int) -> int:
    """How many tiles a row of the hand holds on a phone (board.css): every tile in
    view without sideways scrolling. Up to 8 tiles one row of large tiles; up to 20 two rows of 10
    (15 tiles keep the hand within a third of a 375 x 667 screen); then rows of 11 or more, at
    most three rows (a two-player round can leave a hand of 30 tiles and more)."""
    if count <= 8:
        return 8
    if count <= 20:
        return 10
    return max(11, -(-count // 3))


def _actions(view: SeatView) -> ActionsCtx:
    if view.seat is None or not view.my_turn:
        return ActionsCtx(seat=view.seat)
    acts = {a.act for a in view.legal}
    out = ActionsCtx(
        seat=view.seat,
        engine="engine" in acts,
        draw="draw" in acts,
        pass_="pass" in acts,
        end="end" in acts,
        hint=bool(view.legal),
    )
    if len(view.legal) == 1 and view.legal[0].act in ("draw", "pass"):
        out.only = view.legal[0].act
    preview = end_preview(view)
    if preview is not None:
        # R9, R11: show what ending leaves behind before it is confirmed.
        chain = ngettext(
            "You placed %(count)s tile on your train.",
            "You placed %(count)s tiles on your train.",
            preview.placed,
        ) % {"count": preview.placed}
        if preview.open_double is not None:
            out.end_double = preview.open_double
            chain += " " + _(
                "The double %(tile)s stays open at its end; it must be satisfied once the first "
                "turns are over."
            ) % {"tile": spoken(preview.open_double)}
        out.end_text = chain
    return out
