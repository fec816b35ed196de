"""A viewer's private parts are rendered again only when what they show changed
(games/board/parts.py `shows`): so a part's key must change whenever its HTML would.

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
from games.board import parts
from games.board.jinja_env import fixed_language
from games.board.presenter import Ask, Flags, present
from games.board.viewer import Viewer

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


# ---------------------------------------------------------------- the shared parts


def other_values(value: Any) -> list[Any]:
    """`changed`, and for tuples (a tile, the turn's words) each item changed in turn."""
    if isinstance(value, tuple) and value and not isinstance(value, Ask):
        out = []
        for i, item in enumerate(value):
            for other in changed(item):
                out.append((*value[:i], other, *value[i + 1 :]))
        return out
    return changed(value)


def _with_seat(board: Any, index: int, seat: Any) -> Any:
    """`board` with its seat `index` replaced everywhere it is shown (the scores, whose turn,
    its train's owner), as the presenter would make it."""
    seats = [seat if s.index == index else s for s in board.seats]
    trains = [
        dataclasses.replace(t, owner=seat) if t.owner is not None and t.owner.index == index else t
        for t in board.trains
    ]
    turn = (
        seat if board.turn_seat is not None and board.turn_seat.index == index else board.turn_seat
    )
    return dataclasses.replace(board, seats=seats, trains=trains, turn_seat=turn)


def shared_variants(board: Any) -> list[tuple[str, Any]]:
    out = []
    for f in dataclasses.fields(board):
        if f.name in (
            *("source", "me", "hand", "cover", "seats", "trains", "turn_seat"),
            *("actions", "history", "pace_options"),
        ):
            continue
        value = getattr(board, f.name)
        for other in other_values(value):
            if other != value:
                out.append((f.name, dataclasses.replace(board, **{f.name: other})))
    if board.history:
        out.append(("history", dataclasses.replace(board, history=board.history[:-1])))
        row = board.history[-1]
        cells = [{**c, "points": c["points"] + 1} for c in row["cells"]]
        out.append(
            (
                "history",
                dataclasses.replace(board, history=[*board.history[:-1], {**row, "cells": cells}]),
            )
        )
    out.append(("turn_seat", dataclasses.replace(board, turn_seat=None)))
    for seat in board.seats:
        for f in dataclasses.fields(seat):
            value = getattr(seat, f.name)
            if f.name == "revealed":
                others = [None, ()] if value else [((6, 5),)]
            else:
                others = other_values(value)
            for other in others:
                if other != value:
                    changed_seat = dataclasses.replace(seat, **{f.name: other})
                    out.append((f"seat.{f.name}", _with_seat(board, seat.index, changed_seat)))
    for i, train in enumerate(board.trains):
        for f in dataclasses.fields(train):
            if f.name == "owner":
                continue
            value = getattr(train, f.name)
            others = [value[1:]] if f.name == "tiles" and value else other_values(value)
            for other in others:
                if other != value:
                    trains = list(board.trains)
                    trains[i] = dataclasses.replace(train, **{f.name: other})
                    out.append((f"train.{f.name}", dataclasses.replace(board, trains=trains)))
    return out


def public_boards() -> list[Any]:
    from games.board.presenter import present_public

    seats = S.seats(4, {2: "computer", 3: "computer"})
    flags = Flags(match_id=3, version=9, pace="fast", history=((3, 0, 12, 40), (0, 5, 9, 2)))
    out = []
    for state in (
        S.start(4),
        S.mid_game(4),
        S.with_open_double(4),
        S.round_over(4),
    ):
        out.append(present_public(view(state, None), seats, flags))
    over = S.match_over(3)
    out.append(present_public(view(over, None), S.seats(3), Flags(match_id=3, version=9)))
    return out


def keyed_parts(board: Any) -> dict[str, tuple[Any, str]]:
    """Each shared part of `board`: (its key, its HTML), each rendered afresh."""
    out = {}
    for part in ("status", "turn", "badges", "scores", "scores-dialog"):
        out[part] = (parts.shared_shows(part, board), str(parts.shared_parts(board)[part]))
    rendered = parts.shared_parts(board)
    for index, train in enumerate(board.trains):
        part = parts.train_id(train.key)
        out[part] = (parts.train_shows(train, index == 0), str(rendered[part]))
    return out


def test_a_shared_part_s_key_changes_whenever_its_html_does() -> None:
    with translation.override("en"), fixed_language():
        tried = 0
        for board in public_boards():
            before = keyed_parts(board)
            for name, other in shared_variants(board):
                try:
                    after = keyed_parts(other)
                except Exception:  # a combination no presenter makes
                    continue
                tried += 1
                for part, (key, html) in after.items():
                    if part in before and html != before[part][1]:
                        assert key != before[part][0], (
                            f"{part} shows {name} but its key leaves it out"
                        )
        assert tried > 200


def test_the_shared_parts_kept_are_the_ones_a_fresh_render_makes() -> None:
    """Rendered with the parts kept from one board to the next (as the match's reads keep
    them from version to version), each board's shared parts are those rendered afresh."""
    kept: dict[Any, Any] = {}
    with translation.override("en"), fixed_language():
        for board in public_boards() + public_boards()[::-1]:
            made = parts.shared_parts(board, kept)
            fresh = parts.shared_parts(board)
            assert list(made) == list(fresh)
            assert {k: str(v) for k, v in made.items()} == {k: str(v) for k, v in fresh.items()}
