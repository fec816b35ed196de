"""A viewer's private parts are rendered again only when what they show changed
(games/table/parts.py `shows`): so a part's key must change whenever its HTML would.

For real positions, seated and watching, each field of the presented board (and of its
actions) is changed in turn: any private part whose HTML changes with it must have a
different key too — else an update frame leaves that part stale on the page (the pace
menu, "Skip to my turn", an undo or restart request, R26–R28).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from django.utils import translation

from engine.views import view
from games.table import parts
from games.table.board import Ask, Flags, Viewer, present
from games.table.jinja_env import fixed_language

from . import states as S

ASK = Ask(
    id=7,
    change="undo",
    text="Ben asks to take back their last move.",
    mine=False,
    answer=True,
    expires="2026-01-01T00:00:00+00:00",
)


def changed(value: Any) -> list[Any]:
    """Other values a field holding `value` could take."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1]
    if isinstance(value, str):
        return [value + " (changed)", ""] if value else ["something"]
    if isinstance(value, Ask) or value is None:
        return [ASK, dataclasses.replace(ASK, answer=False, mine=True)]
    if isinstance(value, list) and value and isinstance(value[0], dict):  # the pace menu
        return [[{**o, "current": not o["current"]} for o in value], None]
    return []


def variants(board: Any) -> list[tuple[str, Any]]:
    out = []
    for f in dataclasses.fields(board):
        if f.name in (
            "source",
            "me",
            "cover",
            "turn_seat",
            "hand",
            "seats",
            "trains",
            "history",
            "engine",
        ):
            continue
        value = getattr(board, f.name)
        if f.name == "actions":
            for a in dataclasses.fields(value):
                for other in changed(getattr(value, a.name)):
                    if a.name != "end_double":
                        out.append(
                            (
                                f"actions.{a.name}",
                                dataclasses.replace(
                                    board, actions=dataclasses.replace(value, **{a.name: other})
                                ),
                            )
                        )
            continue
        if f.name == "ask" or f.name == "pace_options":
            others = changed(value) + [None]
        else:
            others = changed(value)
        for other in others:
            if other != value:
                out.append((f.name, dataclasses.replace(board, **{f.name: other})))
    if board.hand is not None:
        hand = dataclasses.replace(board.hand, tiles=board.hand.tiles[1:])
        out.append(("hand", dataclasses.replace(board, hand=hand)))
    return out


def boards() -> list[Any]:
    seats = S.seats(4, {2: "computer", 3: "computer"})
    flags = Flags(
        match_id=3,
        version=9,
        undo=True,
        undo_text="Take back: you played 5-3.",
        redo=True,
        restart=True,
        pace="fast",
        may_pace=True,
        ask=ASK,
    )
    out = []
    for state in (
        S.start(4),
        S.first_turn_chain(4),
        S.mid_game(4),
        S.with_draw(4),
        S.round_over(4),
    ):
        out.append(
            present(
                view(state, state.turn if state.turn is not None else 0),
                seats,
                viewer=Viewer(controlled=(state.turn if state.turn is not None else 0,)),
                flags=flags,
            )
        )
        out.append(
            present(view(state, None), seats, viewer=Viewer(), flags=Flags(match_id=3, version=9))
        )
    return out


@pytest.mark.parametrize("part", parts.PRIVATE)
def test_a_private_part_s_key_changes_whenever_its_html_does(part: str) -> None:
    with translation.override("en"), fixed_language():
        for board in boards():
            html = parts.private_parts(board)[part]
            key = parts.shows(part, board)
            for name, other in variants(board):
                try:
                    other_html = parts.private_parts(other)[part]
                except Exception:  # a combination no presenter makes (e.g. no hand yet actions)
                    continue
                if other_html != html and key is not None:
                    assert parts.shows(part, other) != key, (
                        f"{part} shows {name} but its key leaves it out"
                    )
