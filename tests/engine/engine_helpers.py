"""Readable builders for engine tests: fixed deals, action strings, and short accessors.

    s = table("12-12 12-5 5-3", "12-4 4-4", boneyard="2-2 1-1")   # seat 0, seat 1
    s = do(s, "0 engine", "0 play 12-5 0", "0 end")
    assert legal(s) == acts("1 play 12-4 1")
    err = refused(s, "1 play 12-4 mexican", "R8")

Action strings: ``"<seat> engine|draw|pass|end"``, ``"<seat> play <tile> <train>"``
(train: a seat index or ``mexican``/``mex``), and ``"next_round"``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from engine.deal import Deal
from engine.rules import apply, fixed_round, legal_actions
from engine.state import MEXICAN, Action, IllegalAction, RoundState
from engine.tiles import FULL_SET, Tile, parse_tile, tile_str

REPO = Path(__file__).resolve().parents[2]
RULE_ID = re.compile(r"\(R([1-9]|[12][0-9]|30)\)")


# ------------------------------------------------------------------ tiles and deals


def tile(text: str) -> Tile:
    return parse_tile(text)


def hand(text: str) -> tuple[Tile, ...]:
    """``hand("12-5 5-3 3-3")`` → the tiles, in that order."""
    return tuple(parse_tile(t) for t in text.split())


def deal(*hands: str, boneyard: str = "") -> Deal:
    return Deal(tuple(hand(h) for h in hands), hand(boneyard))


def table(
    *hands: str,
    boneyard: str = "",
    round: int = 1,
    totals: Iterable[int] | None = None,
    seed: int | None = None,
) -> RoundState:
    """A round from a fixed deal: one string per seat, the boneyard top first."""
    return fixed_round(
        len(hands),
        deal(*hands, boneyard=boneyard),
        round,
        tuple(totals) if totals is not None else None,
        seed,
    )


# ------------------------------------------------------------------ actions


def action(text: str) -> Action:
    words = text.split()
    if words == ["next_round"]:
        return Action("next_round")
    seat, act, *rest = words
    if act == "play":
        t, train = rest
        key: int | str = MEXICAN if train in ("mexican", "mex") else int(train)
        return Action("play", int(seat), parse_tile(t), key)  # type: ignore[arg-type]
    assert not rest, text
    return Action(act, int(seat))  # type: ignore[arg-type]


def acts(*texts: str) -> set[Action]:
    return {action(t) for t in texts}


def text(a: Action) -> str:
    if a.act == "next_round":
        return "next_round"
    if a.act == "play":
        assert a.tile is not None
        return f"{a.seat} play {tile_str(a.tile)} {a.train}"
    return f"{a.seat} {a.act}"


def do(state: RoundState, *texts: str) -> RoundState:
    """Apply the actions in order (each must be legal)."""
    for t in texts:
        state = apply(state, action(t))
    return state


def legal(state: RoundState) -> set[Action]:
    out = legal_actions(state)
    assert len(out) == len(set(out)), "legal actions listed twice"
    return set(out)


def refused(state: RoundState, act: str | Action, rule: str | None = None) -> IllegalAction:
    """Assert `act` raises IllegalAction whose message cites a rule id (and `rule`, if given)."""
    a = action(act) if isinstance(act, str) else act
    with pytest.raises(IllegalAction) as info:
        apply(state, a)
    err = info.value
    assert RULE_ID.search(err.message), f"message cites no rule id: {err.message!r}"
    assert RULE_ID.search(str(err)), f"str() cites no rule id: {err!s}"
    assert re.fullmatch(r"R\d+", err.rule)
    if rule is not None:
        assert err.rule == rule, f"expected {rule}, got {err.rule}: {err.message}"
        assert f"({rule})" in err.message
    return err


def board(h0: str, h1: str = "0-0", h2: str = "1-1", boneyard: str = "6-6 7-7 8-8") -> RoundState:
    """Round 1, three seats, just after the first turns; seat 0 is to play.

    Seat 0 started its train with 12-5 and holds `h0`; seat 1 started with 12-4 and
    holds `h1`; seat 2 could not start (`h2` has no 12) and passed: it has a marker.
    The Mexican train is empty.
    """
    s = table(f"12-12 12-5 {h0}", f"12-4 {h1}", h2, boneyard=boneyard)
    s = do(s, "0 engine", "0 play 12-5 0", "0 end", "1 play 12-4 1", "1 end", "2 pass")
    assert (s.phase, s.turn) == ("play", 0)
    assert [t.tiles for t in s.trains] == [((12, 5),), ((12, 4),), (), ()]
    assert [t.marker for t in s.trains[:3]] == [False, False, True]
    return s


# ------------------------------------------------------------------ reading a state


def train(state: RoundState, key: int | str) -> list[str]:
    """The tiles of a train as written on the table (oriented, in play order)."""
    return [tile_str(t) for t in state.trains[state.train_index(key)].tiles]  # type: ignore[arg-type]


def marker(state: RoundState, seat: int) -> bool:
    return state.trains[seat].marker


def markers(state: RoundState) -> list[bool]:
    return [state.trains[i].marker for i in range(state.players)]


def held(state: RoundState, seat: int) -> set[Tile]:
    return set(state.hands[seat])


def open_doubles(state: RoundState) -> list[tuple[str, int | str]]:
    return [(tile_str(t), state.train_key(i)) for t, i in state.open_doubles]


def tiles_in_play(state: RoundState) -> Counter[Tile]:
    """Every tile of hands, boneyard, trains and the placed engine double, counted."""
    c: Counter[Tile] = Counter()
    for h in state.hands:
        c.update(h)
    c.update(state.boneyard)
    for tr in state.trains:
        c.update((min(t), max(t)) for t in tr.tiles)
    if state.phase != "engine":
        c[(state.engine, state.engine)] += 1
    return c


def assert_accounted(state: RoundState, universe: Iterable[Tile] = FULL_SET) -> None:
    """Each tile of `universe` is in exactly one place (R1): nothing lost, nothing duplicated."""
    c = tiles_in_play(state)
    dup = [tile_str(t) for t, k in c.items() if k > 1]
    assert not dup, f"tiles in two places: {dup}"
    assert set(c) == set(universe), (
        f"missing {sorted(map(tile_str, set(universe) - set(c)))}, "
        f"extra {sorted(map(tile_str, set(c) - set(universe)))}"
    )


def deal_tiles(d: Deal) -> set[Tile]:
    return {t for h in d.hands for t in h} | set(d.boneyard)


# ------------------------------------------------------------------ the replay command


def replay_cmd(doc: Any, raw: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m engine replay -`` from the repository root on `doc` (or raw text)."""
    data = raw if raw is not None else json.dumps(doc)
    return subprocess.run(
        [sys.executable, "-m", "engine", "replay", "-"],
        input=data,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )


def replay_out(doc: Any) -> dict[str, Any]:
    p = replay_cmd(doc)
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""
    out = json.loads(p.stdout)
    assert isinstance(out, dict)
    return out


def play_out(state: RoundState, pick: Any = None, limit: int = 5000) -> RoundState:
    """Play the round to its end, taking `pick(legal_list)` (default: the first legal action)."""
    for _ in range(limit):
        if state.over:
            return state
        options = legal_actions(state)
        state = apply(state, pick(options) if pick else options[0])
    raise AssertionError(f"round not over after {limit} actions")
