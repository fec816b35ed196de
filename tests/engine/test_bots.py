"""Computer players (R25): they get a seat's view and nothing else, always choose a
legal action, choose the same one for the same view (and luck), and the expert level
plans its first turn, satisfies doubles, takes doubles it can follow and beats the
casual level, which beats the beginner.
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import bots
from engine.bots import LEVELS, Level, best_chain, choose, decide, forget_plans
from engine.deal import Deal
from engine.rules import apply, new_match_round
from engine.state import MEXICAN, Action, RoundStart, RoundState
from engine.tiles import FULL_SET, Tile, tile_str
from engine.views import SeatView, TrainView, view

from .engine_helpers import action, board, do, table, train

ENGINE_DIR = Path(bots.__file__).resolve().parent
REASONS = {
    "engine",
    "draw",
    "pass",
    "end",
    "chain",
    "satisfy",
    "close_train",
    "double",
    "go_out",
    "shed",
    "heaviest",
    "lightest",
    "whim",
}
NEXT = Action("next_round")


def norm(t: Tile) -> Tile:
    return (t[0], t[1]) if t[0] <= t[1] else (t[1], t[0])


def reachable(obj: Any) -> Iterator[Any]:
    """Every object reachable from `obj` through tuples, lists, sets and dicts (views are tuples)."""
    stack, seen = [obj], set()
    while stack:
        o = stack.pop()
        if id(o) in seen:
            continue
        seen.add(id(o))
        yield o
        if isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, tuple | list | set | frozenset):
            stack.extend(o)


def mid_round(seed: int, players: int, steps: int) -> RoundState:
    """A seeded round after `steps` actions of expert seats (stops at the round's end)."""
    s = new_match_round(players, seed)
    for _ in range(steps):
        if s.turn is None:
            break
        s = apply(s, choose(view(s, s.turn), "expert"))
    return s


def play_match(seed: int, seats: tuple[Level, ...]) -> RoundState:
    s = new_match_round(len(seats), seed)
    while s.phase != "match_over":
        s = apply(s, NEXT if s.turn is None else choose(view(s, s.turn), seats[s.turn]))
    return s


# ------------------------------------------------------------------ only a view


def test_r24_r25_the_view_a_bot_gets_reaches_no_state_and_no_other_hand() -> None:
    checked = 0
    for steps in (0, 1, 5, 20, 40, 60, 80):
        s = mid_round(7, 4, steps)
        if s.turn is None:
            continue
        checked += 1
        v = view(s, s.turn)
        objects = list(reachable(v))
        assert not any(isinstance(o, RoundState | RoundStart | Deal) for o in objects)
        assert all(
            type(o).__module__ in ("builtins", "engine.views", "engine.state") for o in objects
        )
        tiles = {
            norm(o)
            for o in objects
            if isinstance(o, tuple) and len(o) == 2 and all(type(x) is int for x in o)
        }
        for seat, hand in enumerate(s.hands):
            if seat != s.turn:
                assert not tiles & set(hand), f"seat {seat}'s tiles are in seat {s.turn}'s view"
        assert set(s.hands[s.turn]) <= tiles
    assert checked >= 5


def _calls_during(fn: Any) -> list[tuple[str, str]]:
    """(file, function) of every Python function called while `fn()` runs."""
    calls: list[tuple[str, str]] = []

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            calls.append((frame.f_code.co_filename, frame.f_code.co_name))

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return calls


def test_r25_deciding_never_touches_the_rules_the_state_or_the_view_builder() -> None:
    forget_plans()
    views = []
    for steps in range(0, 120, 3):
        s = mid_round(11, 4, steps)
        if s.turn is not None:
            views.append(view(s, s.turn))
    assert {v.phase for v in views} >= {"engine", "first", "play"}
    for level in LEVELS:
        calls = _calls_during(lambda level=level: [decide(v, level) for v in views])
        engine_files = {Path(f).name for f, _ in calls if Path(f).resolve().parent == ENGINE_DIR}
        assert engine_files <= {"bots.py", "views.py", "tiles.py"}, engine_files
        from_views = {name for f, name in calls if Path(f).name == "views.py"}
        assert not from_views & {"view", "_train_views"}, from_views
    # Nor does the module hold anything that could reach the state.
    names = vars(bots)
    assert "rules" not in names and "RoundState" not in names and "view" not in names
    assert not any(
        getattr(obj, "__module__", None)
        in (
            "engine.rules",
            "engine.legal",
            "engine.rounds",
            "engine.round_end",
            "engine.refusals",
            "engine.deal",
            "engine.replay",
        )
        for obj in names.values()
    )


def test_r25_a_view_made_by_hand_is_all_a_bot_needs() -> None:
    # No state anywhere: a SeatView written out field by field.
    legal = (
        Action("play", 0, (3, 5), 0),
        Action("play", 0, (5, 9), 0),
        Action("play", 0, (1, 12), MEXICAN),
    )
    v = SeatView(
        seat=0,
        players=2,
        round=1,
        engine=12,
        phase="play",
        turn=0,
        holder=1,
        hand=((3, 5), (5, 9), (1, 12), (2, 2)),
        hand_sizes=(4, 6),
        boneyard=20,
        trains=(
            TrainView(0, 0, ((12, 5),), False, 5),
            TrainView(1, 1, ((12, 4),), False, 4),
            TrainView(MEXICAN, None, (), True, 12),
        ),
        open_doubles=(),
        totals=(0, 0),
        round_points=None,
        ended_by=None,
        winners=None,
        revealed=None,
        legal=legal,
        placed=0,
        drawn_tile=None,
        owes=False,
    )
    for level in LEVELS:
        assert choose(v, level) in legal
    assert choose(v, "casual") == Action("play", 0, (5, 9), 0)  # the heaviest tile


# ------------------------------------------------------------------ legal and deterministic


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 10),
    round_no=st.integers(1, 13),
    levels=st.lists(st.sampled_from(LEVELS), min_size=1, max_size=3),
)
def test_r25_every_choice_is_legal_and_the_same_view_gives_the_same_choice(
    seed: int, players: int, round_no: int, levels: list[Level]
) -> None:
    s = new_match_round(players, seed, round_no)
    for step in range(3000):
        if s.turn is None:
            break
        level = levels[s.turn % len(levels)]
        v = view(s, s.turn)
        luck = bots.luck(seed, s.round, s.turn, step)
        choice = decide(v, level, luck)
        assert choice.action in v.legal
        assert choice.reason in REASONS
        assert decide(v, level, luck) == choice  # the same view and luck again
        assert decide(view(s, s.turn), level, luck) == choice  # an equal view built anew
        if s.phase == "first":
            forget_plans()  # nothing remembered from earlier searches
            assert decide(v, level, luck) == choice
        s = apply(s, choice.action)
    assert s.over


# ------------------------------------------------------------------ first-turn planning (R8)


def chain_key(chain: list[Tile]) -> tuple[int, int]:
    return len(chain), sum(a + b for a, b in chain)


def brute_force_best(hand: list[Tile], end: int) -> tuple[int, int]:
    """Try every chain: the longest, then heaviest (length, points)."""
    best = (0, 0)

    def walk(at: int, left: list[Tile], length: int, weight: int) -> None:
        nonlocal best
        best = max(best, (length, weight))
        for i, (a, b) in enumerate(left):
            if at in (a, b):
                walk(b if a == at else a, left[:i] + left[i + 1 :], length + 1, weight + a + b)

    walk(end, hand, 0, 0)
    return best


def assert_is_chain(chain: list[Tile], hand: list[Tile], end: int) -> None:
    assert len(set(chain)) == len(chain) and set(chain) <= set(hand)
    at = end
    for a, b in chain:
        assert at in (a, b), f"{tile_str((a, b))} does not follow {at} in {chain}"
        at = b if a == at else a


#: hands of up to 8 tiles: from the whole set, or only from the numbers 0..k, where
#: the tiles touch each other often and there are many chains to compare
small_hands = st.one_of(
    st.lists(st.sampled_from(FULL_SET), unique=True, max_size=8),
    st.integers(2, 6).flatmap(
        lambda k: st.lists(
            st.sampled_from([t for t in FULL_SET if t[1] <= k]), unique=True, max_size=8
        )
    ),
)


@settings(max_examples=300, deadline=None)
@given(hand=small_hands, end=st.integers(0, 6))
def test_r8_best_chain_is_the_longest_then_heaviest_on_small_hands(
    hand: list[Tile], end: int
) -> None:
    chain = best_chain(tuple(hand), end)
    assert_is_chain(chain, hand, end)
    assert chain_key(chain) == brute_force_best(hand, end)


@settings(max_examples=100, deadline=None)
@given(
    hand=st.lists(st.sampled_from(FULL_SET), unique=True, min_size=9, max_size=24),
    end=st.integers(0, 12),
)
def test_r8_best_chain_on_big_hands_is_a_chain(hand: list[Tile], end: int) -> None:
    assert_is_chain(best_chain(tuple(hand), end), hand, end)


def test_r8_best_chain_puts_a_double_where_the_chain_first_reaches_it() -> None:
    # 5-5 can go after 12-5 or after 9-5; the plan takes it on the way, not last.
    hand = ((5, 12), (5, 9), (5, 5), (1, 9))
    assert best_chain(hand, 12) == [(5, 12), (5, 5), (5, 9), (1, 9)]


def test_r8_r25_expert_plans_a_four_tile_chain_over_a_heavy_single_tile() -> None:
    s = table("12-12 12-1 1-2 2-3 3-4 12-11", "0-0 0-1")
    s = do(s, "0 engine")
    v = view(s, 0)
    assert decide(v, "casual").action == action("0 play 12-11 0")  # heaviest first: 23 points
    assert decide(v, "expert") == bots.Choice(action("0 play 12-1 0"), "chain")
    for _ in range(4):
        s = apply(s, choose(view(s, 0), "expert"))
    assert train(s, 0) == ["12-1", "1-2", "2-3", "3-4"]
    assert choose(view(s, 0), "expert") == action("0 end")  # 12-11 no longer fits: end (R9)


def test_r8_r25_expert_plans_afresh_after_a_detour_from_its_plan() -> None:
    # The plan is 12-1 1-2 2-3; the seat played 12-11 instead (say, by hand): from 11
    # the best is 11-6, and then nothing fits.
    s = do(table("12-12 12-1 1-2 2-3 12-11 11-6", "0-0 0-1"), "0 engine")
    assert choose(view(s, 0), "expert") == action("0 play 12-1 0")
    s = apply(s, action("0 play 12-11 0"))
    steps = []
    while s.turn == 0:
        a = choose(view(s, 0), "expert")
        steps.append(a)
        s = apply(s, a)
    assert steps == [action("0 play 11-6 0"), action("0 end")]


# ------------------------------------------------------------------ doubles (R17, R19)


def test_r19_r25_expert_satisfies_the_oldest_double_with_its_heaviest_tile() -> None:
    s = board("5-5 12-3 0-0", h1="5-1 5-9 4-10 2-3")
    s = do(s, "0 play 5-5 0", "0 play 12-3 mexican")  # R17: plays again; 5-5 stays open
    assert s.turn == 1 and s.open_doubles == (((5, 5), 0),)
    choice = decide(view(s, 1), "expert")
    assert choice == bots.Choice(action("1 play 5-9 0"), "satisfy")


def test_r17_r25_expert_takes_a_double_it_can_follow_and_follows_it() -> None:
    # Own train ends 5; 5-5 (10 points) can be followed by 5-2; casual sheds 12-1 (13 points).
    s = board("5-5 5-2 12-1 8-9")
    v = view(s, 0)
    assert decide(v, "casual").action.tile == (1, 12)
    assert decide(v, "expert") == bots.Choice(action("0 play 5-5 0"), "double")
    s = apply(s, choose(v, "expert"))
    assert s.turn == 0 and s.owes  # R17: play again
    follow = choose(view(s, 0), "expert")
    assert follow.act == "play"
    s = apply(s, follow)
    assert s.turn == 1 and not s.owes


def test_r17_r25_with_a_choice_a_double_can_always_be_followed() -> None:
    """Why "only when it can follow" needs no special case: another tile that fits
    now still fits after the double (a double keeps its train's end), so the expert
    level only meets an unfollowable double when that double is its only play."""
    s = board("5-5 8-9")  # 5-5 is the only play: it must be played, then a draw (R15, R17)
    assert decide(view(s, 0), "expert").action == action("0 play 5-5 0")
    s = apply(s, action("0 play 5-5 0"))
    assert decide(view(s, 0), "expert").action == action("0 draw")


# ------------------------------------------------------------------ whole matches


def test_r22_r25_a_full_match_of_expert_against_casual_finishes() -> None:
    s = play_match(3, ("expert", "casual", "expert", "casual"))
    assert s.phase == "match_over" and s.round == 13 and s.turn is None
    winners = s.winners()
    assert winners and all(s.totals[w] == min(s.totals) for w in winners)


def test_r25_expert_scores_fewer_points_than_casual_over_twenty_seeded_matches() -> None:
    """Deterministic (fixed seeds, deterministic bots): it cannot flake. Each deal is
    played twice with the levels swapped, so neither gets the better seats."""
    points: dict[Level, list[float]] = {"expert": [], "casual": []}
    for m in range(20):
        seats: tuple[Level, ...] = (
            ("expert", "casual") * 2 if m % 2 == 0 else ("casual", "expert") * 2
        )
        s = play_match(1000 + m // 2, seats)
        for seat, level in enumerate(seats):
            points[level].append(s.totals[seat] / 13)
    expert, casual = statistics.fmean(points["expert"]), statistics.fmean(points["casual"])
    assert expert < casual, (expert, casual)
    assert expert < 0.75 * casual, (expert, casual)  # a clear margin, not a coin flip


# ------------------------------------------------------------------ the levels and their names


def test_r25_the_levels_are_known_by_their_names_only() -> None:
    assert [bots.canonical(level) for level in LEVELS] == list(LEVELS)
    s = mid_round(5, 4, 30)
    assert s.turn is not None
    v = view(s, s.turn)
    assert decide(v, "casual") == decide(v, "casual") and decide(v, "expert") == decide(v, "expert")
    for wrong in ("", "Expert", "godlike", "basic", "strong", "strong "):
        try:
            decide(v, wrong)
        except ValueError:
            continue
        raise AssertionError(f"{wrong!r} was taken for a level")


def test_r25_luck_is_a_fixed_function_of_seed_round_seat_and_step() -> None:
    # Written down once: a change here would change every beginner's past matches.
    assert bots.luck(7, 1, 0, 0) == bots.luck(7, 1, 0, 0)
    assert len({bots.luck(7, 1, 0, step) for step in range(100)}) == 100
    assert (
        len({bots.luck(seed, r, seat, 5) for seed in (1, 2) for r in (1, 2) for seat in (0, 1)})
        == 8
    )
    assert bots.luck(1, 2, 3, 4) == int.from_bytes(
        __import__("hashlib").blake2b(b"1:2:3:4", digest_size=8).digest(), "big"
    )


def beginner_turns(seeds: range) -> list[tuple[SeatView, bots.Choice]]:
    """Every decision of beginner seats in one round of each seeded 4-seat deal."""
    out = []
    for seed in seeds:
        s = new_match_round(4, seed)
        step = 0
        while s.turn is not None:
            v = view(s, s.turn)
            choice = decide(v, "beginner", bots.luck(seed, s.round, s.turn, step))
            out.append((v, choice))
            s = apply(s, choice.action)
            step += 1
    return out


def test_r9_r25_the_beginner_sometimes_ends_its_first_turn_although_it_could_go_on() -> None:
    turns = beginner_turns(range(10))
    early = [v for v, c in turns if c.action.act == "end" and any(a.act == "play" for a in v.legal)]
    assert early, "the beginner never left a playable tile in its first turn"
    assert all(
        v.phase == "first" and v.placed > 0 for v in early
    )  # R9: never before its first tile
    # ...but not always: some first turns go on after the first tile.
    assert any(v.phase == "first" and v.placed > 0 and c.action.act == "play" for v, c in turns)


def test_r25_the_beginner_often_keeps_its_heavy_tiles_for_later() -> None:
    with_choice = [
        (v, c)
        for v, c in beginner_turns(range(10))
        if len({a.tile for a in v.legal if a.act == "play"}) > 1
    ]
    weights = [
        (
            c.action.tile[0] + c.action.tile[1],
            max(a.tile[0] + a.tile[1] for a in v.legal if a.tile is not None),
        )
        for v, c in with_choice
        if c.action.tile is not None
    ]
    lighter = sum(1 for w, heaviest in weights if w < heaviest)
    assert len(weights) > 50 and lighter > len(weights) / 2, (lighter, len(weights))
    assert {c.reason for _v, c in with_choice} >= {"lightest", "whim"}


def test_r25_the_beginner_depends_on_its_luck_and_on_nothing_else() -> None:
    turns = [(v, c) for v, c in beginner_turns(range(3)) if len(v.legal) > 2]
    assert turns
    for v, _c in turns:
        assert all(decide(v, "beginner", luck).action in v.legal for luck in range(20))
    # Another luck gives another choice somewhere; the same luck always the same one.
    assert any(
        decide(v, "beginner", 1).action != decide(v, "beginner", 2).action for v, _c in turns
    )
    v, _c = turns[0]
    assert decide(v, "beginner", 99) == decide(v, "beginner", 99)


def test_r25_casual_scores_fewer_points_than_the_beginner_over_twenty_seeded_matches() -> None:
    """Deterministic (fixed seeds and luck): it cannot flake; the full ladder is the slow test below."""
    points: dict[str, list[float]] = {"casual": [], "beginner": []}
    for m in range(20):
        seats: tuple[str, ...] = (
            ("casual", "beginner") * 2 if m % 2 == 0 else ("beginner", "casual") * 2
        )
        s = new_match_round(4, 2000 + m // 2)
        step = 0
        while s.phase != "match_over":
            step += 1
            s = apply(
                s,
                NEXT
                if s.turn is None
                else choose(
                    view(s, s.turn), seats[s.turn], bots.luck(2000 + m // 2, s.round, s.turn, step)
                ),
            )
        for seat, level in enumerate(seats):
            points[level].append(s.totals[seat] / 13)
    casual, beginner = statistics.fmean(points["casual"]), statistics.fmean(points["beginner"])
    assert casual < 0.75 * beginner, (casual, beginner)


@pytest.mark.slow
def test_r25_the_ladder_is_strictly_ordered_over_two_thousand_six_hundred_rounds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """bench/bots.py --ladder: 200 seeded matches (2,600 rounds) per pair; each level's
    95% interval of points per round lies below the weaker level's (or the paired
    difference's interval excludes 0)."""
    sys.path.insert(0, str(ENGINE_DIR.parent))
    from bench import bots as bench_bots

    assert bench_bots.main(["--ladder", "--matches", "200"]) == 0
    out = capsys.readouterr().out
    assert out.count("2600 rounds") == 2 and "the ladder is strictly ordered" in out
