"""The match log in words: one line per log entry ("Ana played 5-3 on Ben's train").

`describe(action, names, viewer_seat)` turns one replay-format action (the JSON a
`LogEntry` stores) into a translated sentence; `describe_entry(kind, action, …)`
also covers the undo, redo and restart entries (R27, R28), the requests of games.consent
and the round made the last (R32).

What a line may say is what everyone at the table saw (R24): a draw says that a
tile was drawn, never which one — not even to the player who drew it, since the
log is one text for everyone until the round ends (the player sees the drawn
tile in their own hand). Play, engine and pass are public anyway.

`viewer_seat` turns the viewer's own lines into the second person ("You drew a
tile"); `None` (a spectator) reads every line in the third person.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from engine.state import MEXICAN
from engine.tiles import BadTile, parse_tile, spoken
from games.log import KINDS, Line
from games.words import seat_number


def _tile_words(raw: object) -> str:
    """A tile as players say it, higher number first ("6-4")."""
    try:
        return spoken(parse_tile(raw))
    except BadTile:
        return "?"


def _name(names: Sequence[str], seat: object) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return seat_number(seat) if isinstance(seat, int) else "?"


def _train_seat(train: object) -> int | None:
    if isinstance(train, bool):
        return None
    if isinstance(train, int):
        return train
    if isinstance(train, str) and train.isdigit():
        return int(train)
    return None


def _play(
    names: Sequence[str], seat: int, tile: str, train: object, you: bool, viewer_seat: int | None
) -> str:
    words = {"tile": tile, "name": _name(names, seat)}
    if train == MEXICAN:
        return (
            _("You played %(tile)s on the Mexican train")
            if you
            else _("%(name)s played %(tile)s on the Mexican train")
        ) % words
    owner = _train_seat(train)
    if owner == seat:
        return (
            _("You played %(tile)s on your own train")
            if you
            else _("%(name)s played %(tile)s on their own train")
        ) % words
    if viewer_seat is not None and owner == viewer_seat:
        return _("%(name)s played %(tile)s on your train") % words
    words["owner"] = _name(names, owner)
    return (
        _("You played %(tile)s on %(owner)s's train")
        if you
        else _("%(name)s played %(tile)s on %(owner)s's train")
    ) % words


def describe(
    action: dict[str, Any],
    names: Sequence[str],
    viewer_seat: int | None = None,
    *,
    engine: int | None = None,
) -> str:
    """One game action (replay format) as a translated sentence (`engine`: the round's engine number)."""
    act = action.get("act")
    if act == "next_round":
        return _("The next round started")
    seat = action.get("seat")
    you = viewer_seat is not None and seat == viewer_seat
    words = {"name": _name(names, seat)}
    if act == "engine":
        # The engine double is public once placed (R7); the entry itself carries no tile.
        if engine is None:
            return (_("You placed the engine") if you else _("%(name)s placed the engine")) % words
        words["tile"] = f"{engine}-{engine}"
        return (
            _("You placed the engine %(tile)s") if you else _("%(name)s placed the engine %(tile)s")
        ) % words
    if act == "play":
        return _play(
            names,
            seat if isinstance(seat, int) else -1,
            _tile_words(action.get("tile")),
            action.get("train"),
            you,
            viewer_seat,
        )
    if act == "draw":
        # Never the tile (R15, R24): the log is the same text for everyone.
        return (_("You drew a tile") if you else _("%(name)s drew a tile")) % words
    if act == "pass":
        # R10, R15: passing puts a marker on the own train.
        return (
            _("You passed; your train is open")
            if you
            else _("%(name)s passed; their train is open")
        ) % words
    if act == "end":
        return (
            _("You ended your first turn") if you else _("%(name)s ended their first turn")
        ) % words
    return _("Unknown action")


def describe_entry(
    kind: str,
    action: dict[str, Any] | None,
    names: Sequence[str],
    viewer_seat: int | None = None,
    *,
    actor: str = "",
    engine: int | None = None,
) -> str:
    """A log entry of any kind, as its kind's line says it (games.log.KINDS); `actor` names who
    asked for an undo, redo or restart."""
    found = KINDS.get(kind)
    if found is None:
        return _("Unknown action")
    return found.line(
        Line(
            action=action or {},
            names=names,
            viewer_seat=viewer_seat,
            who=actor or _("A player"),
            engine=engine,
        )
    )


# The lines of the log's kinds (games.log.Kind.line) the root registers; a feature's own kind
# has its line in its module (games/table/commands/).


def action_line(line: Line) -> str:
    """A game action (games.services.moves)."""
    return describe(line.action, line.names, line.viewer_seat, engine=line.engine)


def consent_line(line: Line) -> str:
    """A change asked of the others at the table (a games.consent kind), and its answers
    (games.services.asking)."""
    return _consent(line.action, line.who)


def _consent(action: dict[str, Any], who: str) -> str:
    """A change asked of the others at the table (a games.consent kind), and its answers."""
    from games import consent

    kind = consent.KINDS.get(str(action.get("change")))
    if kind is None:
        return _("Unknown action")
    return kind.log_line(str(action.get("step")), who)
