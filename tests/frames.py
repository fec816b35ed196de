"""Applying an update frame to a board's text, as table.js does with idiomorph (moved from
games/board/parts.py, which keeps what the site sends): the tests' simulated browsers and
secrecy checks read pages this way; `hidden` is what a seat may not see of a state (R24)."""

from __future__ import annotations

import json
import re
from typing import Any

from markupsafe import Markup, escape

from games.board.parts import _element, apply_edits

_ROOT = re.compile(r'<div class="board[^>]*>')
_ATTR = re.compile(r'\s([a-z-]+)="([^"]*)"')


def frame_texts(frame: dict[str, Any]) -> list[str]:
    """Every text an update `frame` sends: its parts, the text of its edits, its attributes
    and its events (what a secrecy check reads)."""
    out = [*frame["parts"].values()]
    out.extend(
        change[2]
        for diff in (frame.get("edits") or {}).values()
        for change in diff
        if len(change) > 2
    )
    out.extend(v for v in (frame.get("board") or {}).values() if v is not None)
    out.append(json.dumps(frame["events"]))
    return out


def apply(html: str, frame: dict[str, Any]) -> str:
    """The board `html` with an update `frame` applied: each part replaced by id (a whole one,
    or its text with the edits applied), the board element's attributes set (what table.js
    does with idiomorph, done on the text)."""
    for part, new in frame["parts"].items():
        start, end = _element(html, part)
        html = html[:start] + new + html[end:]
    for part, changes in (frame.get("edits") or {}).items():
        start, end = _element(html, part)
        html = html[:start] + apply_edits(html[start:end], changes) + html[end:]
    attrs = frame.get("board")
    if attrs is not None:
        root = _ROOT.search(html)
        if root is None:
            raise KeyError("no board element")
        held = {name: Markup(value) for name, value in _ATTR.findall(root.group(0))}
        for name, value in attrs.items():
            if value is None:
                held.pop(name, None)
            else:
                held[name] = escape(value)
        tag = "".join(f' {name}="{value}"' for name, value in held.items())
        html = html[: root.start()] + f"<div{tag}>" + html[root.end() :]
    return html


def xmlattr(attrs: dict[str, str]) -> str:
    """Attributes as Jinja's ``xmlattr`` writes them (escaped, each after a space)."""
    return "".join(f' {key}="{escape(value)}"' for key, value in attrs.items())


def as_board(board: dict[str, Any] | None, frame: dict[str, Any]) -> dict[str, Any]:
    """The ``board`` message an update `frame` makes of the last `board` message (what a page
    shows after applying it); the frame is kept under ``"update"``. Raises ValueError when
    the frame is not based on that board's version (the page would ask for a sync)."""
    if board is None or frame["base"] != board["version"]:
        raise ValueError(
            f"update {frame['base']} -> {frame['v']} does not follow board "
            f"{None if board is None else board['version']}"
        )
    html = apply(board["html"], frame)
    attrs = frame.get("board") or {}
    return {
        "type": "board",
        "version": frame["v"],
        "html": html,
        "title": attrs.get("data-title", board.get("title")),
        "your_turn": attrs["data-your-turn"] == "true"
        if "data-your-turn" in attrs
        else board.get("your_turn"),
        "update": frame,
    }


def hidden(state: Any, seat: int | None) -> set[tuple[int, int]]:
    """The tiles `seat` (None: a spectator) may not see now: the other hands (R24); none once
    the round is over (R21). The engine double is known to be held until placed (R6, R7)."""
    if state.phase in ("round_over", "match_over"):
        return set()
    out = set()
    for i, hand in enumerate(state.hands):
        if i != seat:
            out |= {(min(t), max(t)) for t in hand}
    return out - {(state.engine, state.engine)}
