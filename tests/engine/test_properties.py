"""Property tests: random seeds, 2–10 seats, random legal play through rounds and matches.

After every action: all 91 tiles are accounted for (hands + boneyard + trains + the
engine double); legal is empty iff the round is over; trains chain from the engine;
open doubles are train ends; rule-shaped checks on what the action did (R8, R10,
R15, R16, R19). Every round ends within a bound. Replaying the action log from the
round's start (in-process and through `run_replay`) gives the same state. Every
listed legal action applies; sampled unlisted ones raise IllegalAction citing a
rule. Totals only grow; after round 13 the minimal totals win.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.deal import ROUNDS, engine_value, hand_size, search_engine, seeded_deal
from engine.replay import run_replay, state_json
from engine.rules import (
    apply,
    is_blocked,
    legal_actions,
    new_match_round,
    next_round,
    restart_round,
)
from engine.state import MEXICAN, Action, IllegalAction, RoundState
from engine.tiles import FULL_SET, is_double, points

from .engine_helpers import RULE_ID, assert_accounted

MAX_ACTIONS = 2000  # per round; a 10-seat round takes a few hundred at most

seeds = st.integers(min_value=0, max_value=2**63 - 1)
players = st.integers(min_value=2, max_value=10)
rounds = st.integers(min_value=1, max_value=13)
styles = st.sampled_from(["uniform", "doubles_first", "first_listed", "last_listed", "end_late"])

Policy = Callable[[list[Action]], Action]


def policy(style: str, rng: random.Random) -> Policy:
    def pick(options: list[Action]) -> Action:
        if style == "first_listed":
            return options[0]
        if style == "last_listed":
            return options[-1]
        if style == "doubles_first":
            doubles = [a for a in options if a.tile is not None and is_double(a.tile)]
            return rng.choice(doubles or options)
        if style == "end_late":  # long first-turn chains: end only when nothing else
            plays = [a for a in options if a.act != "end"]
            return rng.choice(plays or options)
        return rng.choice(options)

    return pick


# ------------------------------------------------------------------ invariants


def check_state(s: RoundState) -> None:
    assert_accounted(s)
    listed = legal_actions(s)
    assert (listed == []) == s.over
    assert len(set(listed)) == len(listed)
    assert all(a.seat == s.turn for a in listed)
    assert (s.turn is None) == s.over
    assert not s.trains[s.players].marker  # the Mexican train never carries a marker
    for tr in s.trains:
        end = s.engine
        for near, far in tr.tiles:
            assert near == end
            end = far
    for t, i in s.open_doubles:
        assert is_double(t) and s.trains[i].tiles[-1] == t
    assert len({i for _, i in s.open_doubles}) == len(s.open_doubles)
    if s.phase == "play":
        assert all(s.hands), "a later turn with an empty hand: the round should be over"
        assert s.firsts_done == s.players
    if s.over:
        assert s.round_points == tuple(sum(points(t) for t in h) for h in s.hands)
        assert s.totals == tuple(a + b for a, b in zip(s.start.totals, s.round_points, strict=True))
        assert s.ended_by in ("out", "blocked")
        if s.ended_by == "out":
            assert any(not h for h in s.hands)
        else:
            assert not s.boneyard and is_blocked(s) and all(s.hands)
        assert s.phase == ("match_over" if s.round == ROUNDS else "round_over")
    else:
        assert s.round_points is None and s.ended_by is None and s.totals == s.start.totals


def check_step(prev: RoundState, a: Action, s: RoundState) -> None:
    """What the action did, rule by rule."""
    seat = prev.turn
    assert seat is not None and a.seat == seat
    n = prev.players
    if prev.phase == "first" or (prev.phase == "engine"):
        assert s.boneyard == prev.boneyard  # R10: nobody draws during first turns
    if a.act == "play":
        assert a.tile is not None and a.train is not None
        i = prev.train_index(a.train)
        assert a.tile in prev.hands[seat] and a.tile not in s.hands[seat]
        changed = [k for k in range(n + 1) if s.trains[k].tiles != prev.trains[k].tiles]
        assert changed == [i]
        if prev.phase == "first":
            assert i == seat  # R8: own train only
        elif prev.open_doubles and not prev.owes:
            assert i == prev.open_doubles[0][1]  # R19: the oldest open double first
        else:
            assert i in (seat, n) or prev.trains[i].marker  # R13
        if prev.drawn:
            assert a.tile == prev.hands[seat][-1]  # R15: the drawn tile
        # R16: only the owner playing on its own train removes its marker.
        for k in range(n):
            want = False if (k == seat and i == seat) else prev.trains[k].marker
            assert s.trains[k].marker == want
    elif a.act == "draw":
        assert prev.phase == "play" and not prev.drawn and prev.boneyard  # R15: once
        assert s.hands[seat] == prev.hands[seat] + prev.boneyard[:1]
        assert s.turn == seat
    elif a.act == "pass":
        assert s.trains[seat].marker  # R10, R15: a pass marks the own train
        if prev.phase == "play":
            assert prev.drawn or not prev.boneyard  # R15: never pass without the draw
    elif a.act == "end":
        assert prev.phase == "first" and prev.placed >= 1  # R9
    if not s.over and prev.phase != "engine":
        if s.turn != seat:
            assert s.turn == (seat + 1) % n or (
                prev.phase == "first" and s.phase == "play" and s.turn == prev.holder
            )
        if prev.phase == "play" and a.act == "play" and not is_double(a.tile):  # type: ignore[arg-type]
            assert s.turn != seat  # R14: one play, unless a double was played (R17)


def random_action(s: RoundState, rng: random.Random) -> Action:
    """A well-formed action, often close to a legal one (own seat, own tiles)."""
    n = s.players
    seat = s.turn if (s.turn is not None and rng.random() < 0.7) else rng.randrange(-1, n + 1)
    act = rng.choice(["play", "play", "play", "draw", "pass", "end", "engine"])
    if act != "play":
        return Action(act, seat)  # type: ignore[arg-type]
    hand = s.hands[seat] if 0 <= seat < n and s.hands[seat] and rng.random() < 0.8 else FULL_SET
    train = rng.choice([*range(-1, n + 1), MEXICAN])
    return Action("play", seat, rng.choice(hand), train)


def probe(s: RoundState, rng: random.Random, k: int) -> None:
    """Sampled actions: listed ones apply, unlisted ones raise IllegalAction with a rule id."""
    listed = set(legal_actions(s))
    for _ in range(k):
        a = random_action(s, rng)
        if a in listed:
            apply(s, a)
            continue
        try:
            apply(s, a)
        except IllegalAction as e:
            assert RULE_ID.search(e.message), e.message
        else:
            raise AssertionError(f"unlisted action {a} was accepted")
    if not s.over:
        try:
            apply(s, Action("next_round"))
        except IllegalAction as e:
            assert "(R20)" in e.message
        else:
            raise AssertionError("next_round accepted before the round is over")


def play_round(
    s: RoundState, pick: Policy, rng: random.Random, *, probes: int = 0, every_legal: bool = False
) -> tuple[RoundState, list[Action], list[RoundState]]:
    log: list[Action] = []
    seen = [s]
    check_state(s)
    for _ in range(MAX_ACTIONS):
        if s.over:
            return s, log, seen
        options = legal_actions(s)
        if every_legal:
            for a in options:
                apply(s, a)  # every listed action applies
        if probes:
            probe(s, rng, probes)
        a = pick(options)
        nxt = apply(s, a)
        check_step(s, a, nxt)
        check_state(nxt)
        log.append(a)
        seen.append(nxt)
        s = nxt
    raise AssertionError(f"round not over after {MAX_ACTIONS} actions")


def replay_log(start: RoundState, log: list[Action]) -> RoundState:
    s = start
    for a in log:
        s = apply(s, a)
    return s


# ------------------------------------------------------------------ properties


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, n=players, r=rounds)
def test_prop_r3_r4_r6_seeded_deal_and_search(seed: int, n: int, r: int) -> None:
    d = seeded_deal(seed, r, n)
    assert d == seeded_deal(seed, r, n)  # R4
    assert [len(h) for h in d.hands] == [hand_size(n)] * n  # R3
    assert sorted([t for h in d.hands for t in h] + list(d.boneyard)) == sorted(FULL_SET)
    found = search_engine(d, r)
    e = engine_value(r)
    assert found.holder is not None and (e, e) in found.hands[found.holder]
    seats = [s for s, _ in found.drawn]
    assert seats == [((r - 1) % n + i) % n for i in range(len(seats))]  # R6 order
    assert len(seats) % n == 0 or not found.boneyard  # R6 complete batches
    if seats:
        assert not any((e, e) in h for h in d.hands)
        last_batch = [t for _, t in found.drawn][(len(seats) - 1) // n * n :]
        assert (e, e) in last_batch


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, n=players, r=rounds, style=styles, choice=st.integers(0, 2**32))
def test_prop_random_round_keeps_every_invariant_and_replays(
    seed: int, n: int, r: int, style: str, choice: int
) -> None:
    rng = random.Random(choice)
    start = new_match_round(n, seed, r, tuple(rng.randrange(0, 300) for _ in range(n)))
    end, log, seen = play_round(start, policy(style, rng), rng, probes=3, every_legal=True)
    # Replaying the log from the round's start (R27/R28) gives the same state.
    assert restart_round(end) == start
    assert replay_log(start, log) == end
    k = rng.randrange(len(log) + 1)
    assert replay_log(start, log[:k]) == seen[k]
    # The replay format agrees with the live state.
    doc = {
        "players": n,
        "seed": seed,
        "round": r,
        "totals": list(start.totals),
        "actions": [a.to_json() for a in log],
    }
    assert run_replay(doc) == state_json(end)
    probe(end, rng, 20)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, n=players, style=styles, choice=st.integers(0, 2**32))
def test_prop_full_match_of_13_rounds(seed: int, n: int, style: str, choice: int) -> None:
    rng = random.Random(choice)
    pick = policy(style, rng)
    s = new_match_round(n, seed)
    full_log: list[Action] = []
    totals = [s.totals]
    points_sum = [0] * n
    for r in range(1, ROUNDS + 1):
        assert s.round == r and s.engine == 13 - r and s.phase == "engine"
        s, log, _ = play_round(s, pick, rng, probes=1)
        full_log += log
        assert s.round_points is not None and all(p >= 0 for p in s.round_points)
        points_sum = [a + b for a, b in zip(points_sum, s.round_points, strict=True)]
        assert all(b >= a for a, b in zip(totals[-1], s.totals, strict=True))  # totals only grow
        totals.append(s.totals)
        if r < ROUNDS:
            assert s.phase == "round_over" and s.winners() is None  # R22: never early
            s = apply(s, Action("next_round"))
            full_log.append(Action("next_round"))
            assert s.totals == totals[-1]
    assert s.phase == "match_over" and legal_actions(s) == []
    best = min(s.totals)
    assert s.winners() == tuple(i for i, t in enumerate(s.totals) if t == best)
    assert list(s.totals) == points_sum  # R21: totals are the sum of every round's penalties
    try:
        next_round(s)
    except IllegalAction as e:
        assert "(R22)" in e.message
    else:
        raise AssertionError("a 14th round was started")
    # The whole match replays from its seed.
    out = run_replay({"players": n, "seed": seed, "actions": [a.to_json() for a in full_log]})
    assert out == state_json(s)
    assert out["winners"] == list(s.winners())  # type: ignore[arg-type]
