"""Reading matches: views that hide hands (R24), what a user may do, lists, the log,
replay export, and the snapshot the log always rebuilds."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from engine.replay import run_replay, state_json
from engine.tiles import tile_str
from games import services
from games.errors import GameError
from games.models import LogEntry, Match
from games.reads import selectors
from games.table.commands.redo import match_redo
from games.table.commands.restart import round_restart
from games.table.commands.undo import match_undo
from tests import reads
from tests.games.conftest import Driver, rid, state_of

pytestmark = pytest.mark.django_db


def test_r24_a_seat_sees_its_own_hand_and_a_spectator_none(
    make_match: Callable[..., Match], alice: Any, bob: Any
) -> None:
    match = make_match("me", "human", "computer")
    services.seat_join(match_id=match.pk, user=bob, token=match.invite_token)
    match.refresh_from_db()
    state = selectors.match_state(match)
    mine = selectors.seat_view(match, 0)
    assert mine.hand == state.hands[0] and mine.revealed is None
    watching = selectors.seat_view(match, None)
    assert watching.hand is None and watching.revealed is None
    others = {tile_str(t) for seat in (1, 2) for t in state.hands[seat]}
    shown = str(mine.to_json()) + str(watching.to_json())
    assert not any(f"'{t}'" in shown for t in others)
    assert selectors.seats_controlled(match, alice) == [0] and selectors.seats_controlled(
        match, bob
    ) == [1]


def test_waiting_match_has_no_state(make_match: Callable[..., Match]) -> None:
    match = make_match("me", "human")
    with pytest.raises(GameError) as info:
        selectors.match_state(match)
    assert info.value.code == "not_started"
    with pytest.raises(GameError):
        reads.rebuild_state(match)
    assert selectors.match_replay_doc(match)["actions"] == []


def test_pass_and_play_seats_are_controlled_by_their_creator(
    make_match: Callable[..., Match], alice: Any, bob: Any
) -> None:
    match = make_match("local:Ana", "me", "local:Ben", "computer")
    assert selectors.seats_controlled(match, alice) == [0, 1, 2]
    assert selectors.seats_controlled(match, bob) == []


def test_my_matches_and_open_matches(
    make_match: Callable[..., Match], alice: Any, bob: Any, carol: Any
) -> None:
    open_one = make_match("me", "human")
    hidden = make_match("me", "human", listed=False)
    full = make_match("me", "computer")
    theirs = make_match("me", "human", creator=carol)
    services.seat_join(match_id=theirs.pk, user=bob, token=theirs.invite_token)
    assert set(selectors.open_matches()) == {open_one}
    assert set(selectors.my_matches(alice)) == {open_one, hidden, full}
    assert set(selectors.my_matches(bob)) == {theirs}
    assert reads.match_by_invite(hidden.invite_token) == hidden
    assert reads.match_by_watch(hidden.watch_token) == hidden
    assert reads.match_by_invite("") is None


def test_computer_to_act_and_awaiting(make_match: Callable[..., Match]) -> None:
    match = make_match("computer", "me")
    human_first = make_match("me", "computer")
    state = state_of(match)
    assert (reads.computer_to_act(match) is not None) == (state.turn == 0)
    awaiting = selectors.matches_awaiting_computer()
    assert (match.pk in awaiting) == (state.turn == 0)
    assert (human_first.pk in awaiting) == (state_of(human_first).turn == 1)


def test_replay_export_reproduces_the_match(
    make_match: Callable[..., Match], alice: Any, driver: Callable[..., Driver]
) -> None:
    match = make_match("me", "computer:casual", "computer")
    d = driver(match, {0: alice}, rng_seed=11)
    d.finish_round()
    d.next_round(alice)
    d.until(lambda s: s.phase == "play" and s.turn == 0)
    match_undo(match_id=match.pk, user=alice, expected_version=d.version, request_id=rid())
    match.refresh_from_db()
    doc = selectors.match_replay_doc(match)
    assert doc["players"] == 3 and doc["seed"] == match.seed and doc["round"] == 1
    assert {"act": "next_round"} in doc["actions"]
    out = run_replay(doc)
    assert out["error"] is None
    assert out == state_json(selectors.match_state(match))


def test_match_log_is_in_order_and_public(
    make_match: Callable[..., Match], alice: Any, driver: Callable[..., Driver]
) -> None:
    match = make_match("me", "computer:casual")
    d = driver(match, {0: alice}, rng_seed=12)
    d.until(lambda s: s.phase == "play" and s.turn == 0)
    match_undo(match_id=match.pk, user=alice, expected_version=d.version, request_id=rid())
    entries = reads.match_log(match)
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
    assert entries[-1].kind == "undo"
    assert all(
        "tile" not in e.action for e in entries if e.kind == "action" and e.action["act"] == "draw"
    )


def test_rebuilt_state_equals_the_snapshot_through_undo_redo_and_restart(
    make_match: Callable[..., Match], alice: Any, driver: Callable[..., Driver]
) -> None:
    """The snapshot on the match is only a cache: the deal and the effective log rebuild it
    exactly, after many random actions, undos, redos, restarts and a new round."""
    match = make_match("me", "local:Ana", "computer:casual")
    d = driver(match, {0: alice, 1: alice}, rng_seed=13)
    rng = random.Random(13)
    counts = {"undo": 0, "redo": 0, "restart": 0}

    def same() -> None:
        match.refresh_from_db()
        assert reads.rebuild_state(match) == selectors.match_state(match)

    def churn(steps: int, restart_at: int | None = None) -> None:
        for step in range(steps):
            match.refresh_from_db()
            roll = rng.random()
            if roll < 0.08 and reads.undo_available(match, alice):
                match_undo(
                    match_id=match.pk, user=alice, expected_version=match.version, request_id=rid()
                )
                counts["undo"] += 1
            elif roll < 0.16 and reads.redo_available(match, alice):
                match_redo(
                    match_id=match.pk, user=alice, expected_version=match.version, request_id=rid()
                )
                counts["redo"] += 1
            elif step == restart_at:
                round_restart(
                    match_id=match.pk, user=alice, expected_version=match.version, request_id=rid()
                )
                counts["restart"] += 1
            elif not d.step():
                return
            if step % 10 == 0:
                same()

    churn(120, restart_at=50)
    d.finish_round()
    same()
    d.next_round(alice)
    churn(60)
    same()
    assert run_replay(selectors.match_replay_doc(match)) == state_json(selectors.match_state(match))
    assert all(counts.values()), counts
    kinds = set(LogEntry.objects.filter(round__match=match).values_list("kind", flat=True))
    assert kinds == {"action", "undo", "redo", "restart"}


def test_the_replay_check_reads_the_snapshot_and_the_log_at_one_version(
    make_match: Callable[..., Match], alice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A match being played moves while the admin's check reads it: a move landing between
    the snapshot's read and the log's is no difference (each move commits both at once)."""
    from games.reads import queries
    from tests.games.matches import step

    match = make_match("computer:casual", "me")
    Driver(match, {1: alice}).until(lambda s: s.turn == 0)
    read_log = queries.match_replay_doc
    moves = []

    def a_move_lands_meanwhile(m: Match) -> dict[str, Any]:
        if not moves:  # the computer moves after the snapshot was read, before the log is
            moves.append(step(match))
        return read_log(m)

    monkeypatch.setattr(queries, "match_replay_doc", a_move_lands_meanwhile)
    before = Match.objects.get(pk=match.pk).version
    assert queries.replay_differences(match) == []
    assert moves == [True] and Match.objects.get(pk=match.pk).version == before + 1
