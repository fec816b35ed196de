"""What happened, in a few words a table can animate: the events of an update.

An event is a small JSON object (``{"e": "play", "seat": 2, "tile": "6-4", "train": 0}``)
built only from what every viewer may know (R24): the action as logged (a draw names
no tile: the drawn tile is its owner's alone) and the public views before and after.

- `from_log(kind, seat, action)`: one log entry (games.log kinds ``action``, ``undo``,
  ``redo``, ``restart``) as an event: ``engine``, ``play``, ``draw``, ``pass``, ``end``
  (with ``seat``; a play with ``tile`` and ``train``), ``undo`` / ``redo`` (``count``),
  ``restart``.
- `between(before, after)`: what the public views of two moments show changed:
  ``marker_placed`` / ``marker_removed`` (R10, R16), ``double_opened`` /
  ``double_satisfied`` (R11, R19), ``round_over`` (R20), ``match_over`` (R22).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.tiles import spoken as spoken  # the one tile speller (events name their tiles so)
from engine.views import SeatView


def _tile(text: object) -> str | None:
    if not isinstance(text, str) or "-" not in text:
        return None
    a, _, b = text.partition("-")
    if not (a.isdigit() and b.isdigit()):
        return None
    return spoken((int(a), int(b)))


def from_log(kind: str, seat: int | None, action: Mapping[str, Any] | None) -> dict[str, Any]:
    """One log entry as an event; never a hidden tile (a drawn tile is not logged as
    shown, and only a play's tile, which lies on a train now, is named)."""
    action = action or {}
    if kind == "action":
        act = str(action.get("act", ""))
        event: dict[str, Any] = {"e": act, "seat": seat}
        if act == "play":
            event["tile"] = _tile(action.get("tile"))
            event["train"] = action.get("train")
        return event
    if kind in ("undo", "redo"):
        return {"e": kind, "count": action.get("count")}
    return {"e": kind}


def between(before: SeatView, after: SeatView) -> list[dict[str, Any]]:
    """What changed from the public view `before` to `after` (both spectators' views)."""
    if before.seat is not None or after.seat is not None:
        raise ValueError("events are worked out from the public views only (R24)")
    out: list[dict[str, Any]] = []
    if before.round == after.round and len(before.trains) == len(after.trains):
        for old, new in zip(before.trains, after.trains, strict=True):
            if old.marker != new.marker:
                out.append(
                    {"e": "marker_placed" if new.marker else "marker_removed", "train": new.key}
                )
    was = {(spoken(t), k) for t, k in before.open_doubles} if before.round == after.round else set()
    now = {(spoken(t), k) for t, k in after.open_doubles}
    for tile, key in sorted(now - was, key=str):
        out.append({"e": "double_opened", "tile": tile, "train": key})
    for tile, key in sorted(was - now, key=str):
        out.append({"e": "double_satisfied", "tile": tile, "train": key})
    if after.phase != before.phase and after.phase in ("round_over", "match_over"):
        out.append({"e": after.phase, "round": after.round})
    return out
