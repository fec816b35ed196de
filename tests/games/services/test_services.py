"""The game services: every change, and every refusal changing nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.rules import apply, legal_actions, restart_round
from engine.serialize import start_to_json, state_from_json
from engine.state import Action, IllegalAction
from games import services, words
from games.errors import GameError
from games.log import fold
from games.models import ClientRequest, LogEntry, Match, Round, Table, UndoPoint
from games.reads import selectors
from games.services import SeatSpec
from games.table.commands.play_again import again_answer
from games.table.commands.redo import match_redo
from games.table.commands.restart import round_restart
from games.table.commands.undo import match_undo
from tests import reads
from tests.games.conftest import SEED, Driver, rid, snapshot, spec, state_of

pytestmark = pytest.mark.django_db


def refused(code: str, match: Match, call: Callable[[], object]) -> GameError:
    """`call` raises GameError(code) and leaves the match exactly as it was."""
    before = snapshot(match)
    with pytest.raises(GameError) as info:
        call()
    assert info.value.code == code, info.value
    assert snapshot(match) == before
    return info.value


@pytest.fixture
def duo(make_match: Callable[..., Match], alice: Any, bob: Any) -> Match:
    """Alice and Bob, each at their own device."""
    match = make_match("me", "human")
    services.seat_join(match_id=match.pk, user=bob, token=match.invite_token)
    match.refresh_from_db()
    return match


def submit(
    match: Match,
    user: Any,
    action: Action,
    *,
    version: int | None = None,
    request_id: str | None = None,
) -> services.Result:
    match.refresh_from_db()
    assert action.seat is not None
    return services.action_submit(
        match_id=match.pk,
        user=user,
        seat=action.seat,
        action=action.to_json(),
        expected_version=match.version if version is None else version,
        request_id=request_id or rid(),
    )


# ---------------------------------------------------------------- creating and joining


def test_r4_create_with_seed_starts_when_no_seat_is_free(
    make_match: Callable[..., Match], alice: Any
) -> None:
    match = make_match("me", "local:Ana", "computer:casual")
    assert match.status == Match.Status.PLAYING and match.version == 1
    assert [(s.kind, s.user_id, s.name, s.level) for s in match.seats.order_by("index")] == [
        ("human", alice.pk, "", ""),
        ("local", alice.pk, "Ana", ""),
        ("computer", None, "", "casual"),
    ]
    state = state_of(match)
    assert state.seed == SEED and state.round == 1 and state.phase == "engine"  # R5, R6, R7
    rnd = match.rounds.get()
    assert rnd.number == 1 and rnd.start == start_to_json(state.start)
    assert match.table.created_by == alice and match.number == 1


def test_r4_create_without_seed_draws_a_random_one(make_match: Callable[..., Match]) -> None:
    seeds = {make_match("me", "computer", seed=None).seed for _ in range(3)}
    assert len(seeds) == 3 and all(0 <= s < 2**63 for s in seeds)


def test_create_with_a_free_seat_waits(make_match: Callable[..., Match]) -> None:
    match = make_match("me", "human", "computer", listed=False)
    assert match.status == Match.Status.WAITING and match.state is None and not match.listed
    assert not match.rounds.exists()
    assert match.invite_token != match.watch_token and len(match.invite_token) >= 16


@pytest.mark.parametrize(
    "kinds",
    [
        ["me"],
        ["me"] + ["computer"] * 10,
        ["me", "me"],
        ["me", "robot"],
        [SeatSpec("me"), SeatSpec("computer", level="genius")],
        [SeatSpec("me"), SeatSpec("computer")],
        [SeatSpec("me"), SeatSpec("human", level="casual")],
        [SeatSpec("me"), SeatSpec("local", name="x" * 41)],
    ],
)
def test_create_refuses_a_bad_seat_setup(alice: Any, kinds: list[Any]) -> None:
    seats = [k if isinstance(k, SeatSpec) else spec(k) for k in kinds]
    with pytest.raises(GameError) as info:
        services.match_create(creator=alice, seats=seats)
    assert info.value.code == "bad_request"
    assert not Table.objects.exists() and not Match.objects.exists()


@pytest.mark.parametrize("seed", [-1, 2**63, "12", True, 1.5])
def test_create_refuses_a_bad_seed(alice: Any, seed: Any) -> None:
    with pytest.raises(GameError) as info:
        services.match_create(creator=alice, seats=[spec("me"), spec("computer")], seed=seed)
    assert info.value.code == "bad_request" and not Match.objects.exists()


def test_create_needs_a_signed_in_user() -> None:
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(GameError) as info:
        services.match_create(creator=AnonymousUser(), seats=[spec("computer"), spec("computer")])
    assert info.value.code == "forbidden"


def test_join_takes_the_free_seat_and_starts_the_match(
    make_match: Callable[..., Match], bob: Any
) -> None:
    match = make_match("me", "human", "computer")
    seat = services.seat_join(match_id=match.pk, user=bob, token=match.invite_token)
    match.refresh_from_db()
    assert seat.index == 1 and seat.user == bob
    assert match.status == Match.Status.PLAYING and match.version == 1 and match.state is not None
    assert match.rounds.count() == 1
    # Joining again gives back the same seat and changes nothing.
    before = snapshot(match)
    assert services.seat_join(match_id=match.pk, user=bob, token=match.invite_token).pk == seat.pk
    assert snapshot(match) == before


def test_join_a_chosen_seat_and_wait_for_the_rest(
    make_match: Callable[..., Match], bob: Any, carol: Any
) -> None:
    match = make_match("me", "human", "human")
    seat = services.seat_join(match_id=match.pk, user=bob, token=match.invite_token, seat_index=2)
    match.refresh_from_db()
    assert seat.index == 2 and match.status == Match.Status.WAITING and match.version == 1
    refused(
        "seat_taken",
        match,
        lambda: services.seat_join(
            match_id=match.pk, user=carol, token=match.invite_token, seat_index=2
        ),
    )
    refused(
        "seat_taken",
        match,
        lambda: services.seat_join(
            match_id=match.pk, user=carol, token=match.invite_token, seat_index=0
        ),
    )
    services.seat_join(match_id=match.pk, user=carol)  # listed: no token needed
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING and match.version == 2


def test_join_refusals(make_match: Callable[..., Match], bob: Any, carol: Any) -> None:
    from django.contrib.auth.models import AnonymousUser

    hidden = make_match("me", "human", listed=False)
    refused(
        "forbidden", hidden, lambda: services.seat_join(match_id=hidden.pk, user=bob, token=None)
    )
    refused(
        "forbidden", hidden, lambda: services.seat_join(match_id=hidden.pk, user=bob, token="guess")
    )
    refused(
        "forbidden",
        hidden,
        lambda: services.seat_join(
            match_id=hidden.pk, user=AnonymousUser(), token=hidden.invite_token
        ),
    )
    with pytest.raises(GameError) as info:
        services.seat_join(match_id=10**9, user=bob, token="x")
    assert info.value.code == "not_found"
    services.seat_join(match_id=hidden.pk, user=bob, token=hidden.invite_token)
    refused(
        "seat_taken",
        hidden,
        lambda: services.seat_join(match_id=hidden.pk, user=carol, token=hidden.invite_token),
    )


# ---------------------------------------------------------------- submitting actions


def test_r7_submit_applies_logs_and_bumps_the_version(
    duo: Match,
    alice: Any,
    bob: Any,
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(
        "games.notify.match_changed",
        lambda match_id, version, **_: sent.append((match_id, version)),
    )
    state = state_of(duo)
    holder = state.holder
    user = alice if holder == 0 else bob
    with django_capture_on_commit_callbacks(execute=True):
        result = submit(duo, user, Action("engine", holder), request_id="req-1")
    assert result == services.Result(duo.pk, 2, False)
    assert sent == [(duo.pk, 2)]  # after commit, only the id and the version
    after = state_of(duo)
    assert after == apply(state, Action("engine", holder)) and after.phase == "first"
    entry = LogEntry.objects.get(round__match=duo)
    assert (
        entry.seq,
        entry.kind,
        entry.seat,
        entry.action,
        entry.user,
        entry.by_computer,
        entry.version,
    ) == (1, "action", holder, {"seat": holder, "act": "engine"}, user, False, 2)
    assert (
        state_from_json(UndoPoint.objects.get(entry=entry).state) == state
    )  # R27: the state before
    assert ClientRequest.objects.get(match=duo, request_id="req-1").version == 2


def test_repeated_request_id_is_answered_not_applied_again(
    duo: Match, alice: Any, bob: Any, carol: Any
) -> None:
    holder = state_of(duo).holder
    user = alice if holder == 0 else bob
    first = submit(duo, user, Action("engine", holder), request_id="same")
    before = snapshot(duo)
    again = submit(
        duo, user, Action("engine", holder), version=first.version - 1, request_id="same"
    )
    assert again == services.Result(duo.pk, first.version, duplicate=True)
    assert snapshot(duo) == before
    # The same id from someone else is refused, not mistaken for theirs; a stranger is
    # refused before the request id is even looked at.
    other = bob if user == alice else alice
    refused(
        "bad_request",
        duo,
        lambda: submit(duo, other, Action("engine", 1 - holder), request_id="same"),
    )
    refused(
        "forbidden", duo, lambda: submit(duo, carol, Action("engine", holder), request_id="same")
    )
    # Every service answers a repeat the same way.
    result = round_restart(
        match_id=duo.pk, user=alice, expected_version=duo.version, request_id="r"
    )
    again = round_restart(match_id=duo.pk, user=alice, expected_version=0, request_id="r")
    # ... and a repeat of a change asked of the others says so, with the request's state.
    assert again == services.Result(
        duo.pk, result.version, duplicate=True, asked=True, request="open"
    )
    # At a table shared with bob the restart is asked of him, once.
    assert result.asked and duo.change_requests.count() == 1


def test_refusals_change_nothing(duo: Match, alice: Any, bob: Any, carol: Any) -> None:
    state = state_of(duo)
    holder = state.holder
    assert holder is not None
    owner, other = (alice, bob) if holder == 0 else (bob, alice)
    engine = Action("engine", holder)
    # a stranger, and the other player acting for the holder's seat
    refused("forbidden", duo, lambda: submit(duo, carol, engine))
    refused("forbidden", duo, lambda: submit(duo, other, engine))
    # the other player for their own seat, out of turn
    e = refused("not_your_turn", duo, lambda: submit(duo, other, Action("pass", 1 - holder)))
    assert e.message == f"Wait for your turn: it is {owner.username}'s turn."  # the seat by name
    # an old version: the message says to refresh
    e = refused("stale", duo, lambda: submit(duo, owner, engine, version=duo.version - 1))
    assert "Refresh" in e.message
    # malformed actions and an action for another seat than the request's
    for bad in (
        {"act": "fly"},
        {"act": "play", "tile": "13-1", "train": 0},
        {"act": "pass", "tile": "1-1"},
        "pass",
        {"act": "next_round"},
    ):
        refused(
            "bad_request",
            duo,
            lambda bad=bad: services.action_submit(  # type: ignore[misc]
                match_id=duo.pk,
                user=owner,
                seat=holder,
                action=bad,
                expected_version=duo.version,
                request_id=rid(),
            ),
        )
    refused(
        "forbidden",
        duo,
        lambda: services.action_submit(
            match_id=duo.pk,
            user=owner,
            seat=holder,
            action={"seat": 1 - holder, "act": "engine"},
            expected_version=duo.version,
            request_id=rid(),
        ),
    )
    for bad_id in ("", "x" * 65, None):
        refused(
            "bad_request",
            duo,
            lambda bad_id=bad_id: services.action_submit(  # type: ignore[misc]
                match_id=duo.pk,
                user=owner,
                seat=holder,
                action=engine.to_json(),
                expected_version=duo.version,
                request_id=bad_id,
            ),
        )
    with pytest.raises(GameError) as info:
        services.action_submit(
            match_id=10**9,
            user=owner,
            seat=0,
            action={"act": "engine"},
            expected_version=0,
            request_id=rid(),
        )
    assert info.value.code == "not_found"


def test_not_started(make_match: Callable[..., Match], alice: Any) -> None:
    match = make_match("me", "human")
    refused("not_started", match, lambda: submit(match, alice, Action("engine", 0)))
    refused(
        "not_started",
        match,
        lambda: match_undo(match_id=match.pk, user=alice, expected_version=0, request_id=rid()),
    )


def test_r8_r10_illegal_moves_get_the_engines_reason_and_rule(
    duo: Match, alice: Any, bob: Any
) -> None:
    holder = state_of(duo).holder
    user = alice if holder == 0 else bob
    submit(duo, user, Action("engine", holder))
    state = state_of(duo)  # the holder's first turn (R8)
    tile = state.hands[holder][0]
    for action, rule in (
        (Action("draw", holder), "R10"),
        (Action("play", holder, tile, "mexican"), "R8"),
        (Action("engine", holder), "R7"),
    ):
        with pytest.raises(IllegalAction) as engine_says:
            apply(state, action)
        e = refused("illegal", duo, lambda action=action: submit(duo, user, action))  # type: ignore[misc]
        # The engine's reason, in the player's words (games.words); the rule for the "why?" link.
        assert (e.rule, e.reason) == (rule, engine_says.value.code)
        assert e.message == words.refusal(
            engine_says.value.code, engine_says.value.params, me=holder
        )
        assert f"({rule})" not in e.message and e.to_json()["why_url"] == f"/rules/#{rule}"


def test_r13_a_closed_train_is_refused_with_r13(
    make_match: Callable[..., Match], alice: Any, driver: Callable[..., Driver]
) -> None:
    match = make_match("me", "computer:casual", "computer:casual")
    d = driver(match, {0: alice}, rng_seed=3)

    def closed_train_play(state: Any) -> Action | None:
        if state.phase != "play" or state.turn != 0 or state.open_doubles:
            return None
        for seat in (1, 2):
            train = state.trains[seat]
            for tile in state.hands[0]:
                if not train.marker and train.end(state.engine) in tile:
                    return Action("play", 0, tile, seat)
        return None

    action = None
    for _ in range(12):  # the next round if this one never offers such a play
        state = d.until(lambda s: closed_train_play(s) is not None or s.over)
        action = closed_train_play(state)
        if action is not None:
            break
        d.next_round(alice)
    assert action is not None
    e = refused("illegal", match, lambda: submit(match, alice, action))
    assert e.rule == "R13" and "not open to you" in e.message


# ---------------------------------------------------------------- undo and redo (R27)


def test_r27_undo_and_redo_round_trip_exactly(
    make_match: Callable[..., Match], alice: Any, driver: Callable[..., Driver]
) -> None:
    match = make_match("me", "computer", "computer:casual")
    d = driver(match, {0: alice}, rng_seed=1)
    d.to_human_turn()
    d.step()
    before = d.to_human_turn()
    before_json = match.state
    version = d.version
    d.step()  # alice acts; the computers answer
    after = d.to_human_turn()
    after_json = match.state
    answered = LogEntry.objects.filter(round__match=match, version__gt=version).count()
    rows = LogEntry.objects.count()
    assert reads.undo_available(match, alice) and not reads.redo_available(match, alice)

    match_undo(match_id=match.pk, user=alice, expected_version=d.version, request_id=rid())
    assert d.state == before and match.state == before_json
    undo = LogEntry.objects.order_by("-id").first()
    assert (undo.kind, undo.action, undo.user) == ("undo", {"count": answered}, alice)
    assert reads.redo_available(match, alice)

    match_redo(match_id=match.pk, user=alice, expected_version=d.version, request_id=rid())
    assert d.state == after and match.state == after_json
    assert LogEntry.objects.count() == rows + 2  # append-only: nothing deleted or edited
    assert not reads.redo_available(match, alice)
    assert reads.rebuild_state(match) == after


def test_r27_undo_steps_back_action_by_action_then_refuses(
    make_match: Callable[..., Match], alice: Any, driver: Callable[..., Driver]
) -> None:
    match = make_match("me", "computer:casual")
    d = driver(match, {0: alice}, rng_seed=2)
    d.until(lambda s: s.phase == "play" and s.turn == 0)
    start = Round.objects.get(match=match).start
    undos = 0
    while reads.undo_available(match, alice):
        match_undo(match_id=match.pk, user=alice, expected_version=d.version, request_id=rid())
        undos += 1
    state = d.state
    assert undos >= 1 and state.turn == 0
    effective = selectors.effective_actions(match.rounds.get())
    assert all(e.by_computer for e in effective)  # only computer actions are left
    assert state.start == state_from_json({**match.state}).start and start == start_to_json(
        state.start
    )
    refused(
        "no_undo",
        match,
        lambda: match_undo(
            match_id=match.pk, user=alice, expected_version=d.version, request_id=rid()
        ),
    )
    # Redo brings the undone actions back group by group, to the same state.
    for _ in range(undos):
        match_redo(match_id=match.pk, user=alice, expected_version=d.version, request_id=rid())
    assert d.state.phase == "play" and d.state.turn == 0
    refused(
        "no_redo",
        match,
        lambda: match_redo(
            match_id=match.pk, user=alice, expected_version=d.version, request_id=rid()
        ),
    )


def test_r27_undo_refused_when_another_person_acted_since(
    duo: Match, alice: Any, bob: Any, driver: Callable[..., Driver], carol: Any
) -> None:
    d = driver(duo, {0: alice, 1: bob}, rng_seed=4)
    first = d.state.turn
    d.step()  # the holder places the engine
    mover, other = (alice, bob) if first == 0 else (bob, alice)
    d.until(lambda s: s.turn != first)  # the holder's first turn ends
    d.step()  # the other player acts
    refused(
        "no_undo",
        duo,
        lambda: match_undo(
            match_id=duo.pk, user=mover, expected_version=d.version, request_id=rid()
        ),
    )
    assert not reads.undo_available(duo, mover) and reads.undo_available(duo, other)
    refused(
        "forbidden",
        duo,
        lambda: match_undo(
            match_id=duo.pk, user=carol, expected_version=d.version, request_id=rid()
        ),
    )
    refused(
        "stale",
        duo,
        lambda: match_undo(
            match_id=duo.pk, user=other, expected_version=d.version - 1, request_id=rid()
        ),
    )
    match_undo(match_id=duo.pk, user=other, expected_version=d.version, request_id=rid())
    # Bob's redo is his: Alice cannot redo it.
    refused(
        "no_redo",
        duo,
        lambda: match_redo(
            match_id=duo.pk, user=mover, expected_version=d.version, request_id=rid()
        ),
    )


def test_r27_undo_takes_back_my_pass_and_play_seats_too(
    make_match: Callable[..., Match], alice: Any, driver: Callable[..., Driver]
) -> None:
    match = make_match("me", "local:Ana", "computer:casual")
    d = driver(match, {0: alice, 1: alice}, rng_seed=5)
    d.until(lambda s: s.phase == "play" and s.turn == 2)
    effective = selectors.effective_actions(match.rounds.get())
    last_human = max(i for i, e in enumerate(effective) if not e.by_computer)
    assert effective[last_human].seat in (0, 1)
    before = state_from_json(UndoPoint.objects.get(entry=effective[last_human]).state)
    match_undo(match_id=match.pk, user=alice, expected_version=d.version, request_id=rid())
    assert d.state == before


def test_r27_a_new_action_ends_redo(
    make_match: Callable[..., Match], alice: Any, driver: Callable[..., Driver]
) -> None:
    match = make_match("me", "computer:casual")
    d = driver(match, {0: alice}, rng_seed=6)
    d.until(lambda s: s.phase == "play" and s.turn == 0)
    match_undo(match_id=match.pk, user=alice, expected_version=d.version, request_id=rid())
    d.submit(legal_actions(d.state)[-1])
    assert not reads.redo_available(match, alice)
    refused(
        "no_redo",
        match,
        lambda: match_redo(
            match_id=match.pk, user=alice, expected_version=d.version, request_id=rid()
        ),
    )


# ---------------------------------------------------------------- restart, next round, new match


def test_r28_restart_keeps_the_deal_and_earlier_totals(
    make_match: Callable[..., Match], alice: Any, bob: Any, driver: Callable[..., Driver]
) -> None:
    match = make_match("me", "computer:casual", "computer")
    d = driver(match, {0: alice}, rng_seed=8)
    first = d.finish_round()
    d.next_round(alice)
    round2 = match.rounds.get(number=2)
    fresh = d.state
    assert (
        fresh.round == 2
        and fresh.totals == first.totals
        and round2.start == start_to_json(fresh.start)
    )
    d.until(lambda s: s.phase == "play" and s.turn == 0)
    match_undo(match_id=match.pk, user=alice, expected_version=d.version, request_id=rid())
    state = d.state
    round_restart(match_id=match.pk, user=alice, expected_version=d.version, request_id=rid())
    restarted = d.state
    assert (
        restarted == restart_round(state) == fresh
    )  # same deal, same search, totals from before (R28)
    round2.refresh_from_db()
    assert round2.restarts == 1
    folded = fold(LogEntry.objects.filter(round=round2).order_by("seq"))
    assert folded.effective == () and folded.redo == ()
    assert LogEntry.objects.filter(round=round2).order_by("-seq").first().kind == "restart"
    assert match.rounds.get(number=1).totals == list(first.totals)
    assert not reads.redo_available(match, alice)


def test_r28_restart_permissions(duo: Match, alice: Any, bob: Any, carol: Any) -> None:
    refused(
        "forbidden",
        duo,
        lambda: round_restart(
            match_id=duo.pk, user=bob, expected_version=duo.version, request_id=rid()
        ),
    )
    refused(
        "forbidden",
        duo,
        lambda: round_restart(
            match_id=duo.pk, user=carol, expected_version=duo.version, request_id=rid()
        ),
    )
    assert reads.restart_available(duo, alice) and not reads.restart_available(duo, bob)
    round_restart(match_id=duo.pk, user=alice, expected_version=duo.version, request_id=rid())


def test_r28_a_player_alone_with_computers_may_restart(
    make_match: Callable[..., Match], bob: Any
) -> None:
    match = make_match("human", "computer", "computer")
    services.seat_join(match_id=match.pk, user=bob, token=match.invite_token)
    match.refresh_from_db()
    assert reads.restart_available(match, bob)
    round_restart(match_id=match.pk, user=bob, expected_version=match.version, request_id=rid())
    assert match.rounds.get().restarts == 1


def test_round_next_only_when_the_round_is_over(
    make_match: Callable[..., Match], alice: Any, carol: Any, driver: Callable[..., Driver]
) -> None:
    match = make_match("me", "computer:casual")
    d = driver(match, {0: alice}, rng_seed=9)
    e = refused("illegal", match, lambda: d.next_round(alice))
    assert e.rule == "R20"
    over = d.finish_round()
    refused("forbidden", match, lambda: d.next_round(carol))
    refused(
        "illegal",
        match,
        lambda: round_restart(
            match_id=match.pk, user=alice, expected_version=d.version, request_id=rid()
        ),
    )
    assert reads.next_round_available(match, alice)
    d.next_round(alice)
    state = d.state
    assert (state.round, state.engine, state.totals, state.phase) == (2, 11, over.totals, "engine")
    assert match.round_number == 2
    # Undo is within the current round only.
    refused(
        "no_undo",
        match,
        lambda: match_undo(
            match_id=match.pk, user=alice, expected_version=d.version, request_id=rid()
        ),
    )


def test_r27_r24_no_undo_once_the_round_is_over(
    make_match: Callable[..., Match], alice: Any, driver: Callable[..., Driver]
) -> None:
    """Every hand is shown when a round ends (R21, R24): its moves stand, so Undo is neither
    offered nor done then, even when the last action of the round was ours (R27)."""
    match = make_match("me", "computer:casual")
    d = driver(match, {0: alice}, rng_seed=9)
    d.until(lambda s: reads.undo_available(match, alice))
    assert reads.undo_available(match, alice)
    d.finish_round()
    match.refresh_from_db()
    assert match.state["phase"] == "round_over"
    assert not reads.undo_available(match, alice) and not reads.redo_available(match, alice)
    e = refused(
        "no_undo",
        match,
        lambda: match_undo(
            match_id=match.pk, user=alice, expected_version=d.version, request_id=rid()
        ),
    )
    assert "round is over" in e.message


@pytest.mark.slow  # about 1,600 actions through the services
def test_r22_r29_a_full_match_then_a_new_match_at_the_table(
    make_match: Callable[..., Match], alice: Any, bob: Any, driver: Callable[..., Driver]
) -> None:
    match = make_match("me", "computer:casual")
    d = driver(match, {0: alice}, rng_seed=10)
    refused(
        "illegal",
        match,
        lambda: again_answer(match_id=match.pk, user=alice, accept=True, request_id=rid()),
    )
    for round_no in range(1, 14):
        state = d.finish_round()
        assert state.round == round_no
        if round_no < 13:
            d.next_round(alice)
    match.refresh_from_db()
    assert state.phase == "match_over" and state.winners()
    assert match.status == Match.Status.FINISHED and match.finished_at is not None
    rounds = list(match.rounds.order_by("number"))
    assert [r.number for r in rounds] == list(range(1, 14)) and all(r.ended_at for r in rounds)
    assert rounds[-1].totals == list(state.totals)
    assert [sum(r.points[s] for r in rounds) for s in (0, 1)] == list(state.totals)  # R21
    refused("illegal", match, lambda: d.next_round(alice))
    refused(
        "no_undo",
        match,
        lambda: match_undo(
            match_id=match.pk, user=alice, expected_version=d.version, request_id=rid()
        ),
    )
    assert services.computer_step(match_id=match.pk) is None

    # R29: a new match at the same table: alone with a computer, "Play again" makes it at once.
    refused(
        "forbidden",
        match,
        lambda: again_answer(match_id=match.pk, user=bob, accept=True, request_id=rid()),
    )
    old_log = LogEntry.objects.filter(round__match=match).count()
    again_answer(match_id=match.pk, user=alice, accept=True, request_id="again")
    new = selectors.next_match(match)
    assert new is not None
    assert (new.table_id, new.number, new.status, new.round_number) == (
        match.table_id,
        2,
        "playing",
        1,
    )
    assert new.seed != match.seed and new.invite_token != match.invite_token
    assert [(s.kind, s.user_id, s.level) for s in new.seats.order_by("index")] == [
        (s.kind, s.user_id, s.level) for s in match.seats.order_by("index")
    ]
    fresh = state_of(new)
    assert fresh.round == 1 and fresh.totals == (0, 0) and fresh.seed == new.seed
    assert again_answer(match_id=match.pk, user=alice, accept=True, request_id="again").duplicate
    refused(
        "illegal",
        match,
        lambda: again_answer(match_id=match.pk, user=alice, accept=True, request_id=rid()),
    )
    assert Match.objects.filter(table=match.table).count() == 2
    assert LogEntry.objects.filter(round__match=match).count() == old_log  # the old log stays
    assert selectors.next_match(match) == new


# ---------------------------------------------------------------- computer players and pauses (R25, R26)


def test_r25_computer_step_acts_only_for_a_computer(
    make_match: Callable[..., Match], alice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = make_match("computer", "me")
    seen: list[Any] = []
    real = services.moves.bots.choose

    def spy(view: Any, level: Any, luck: int = 0) -> Any:
        seen.append(view)
        return real(view, level, luck)

    monkeypatch.setattr(services.moves.bots, "choose", spy)
    state = state_of(match)
    while state.turn == 0 and not state.over:
        result = services.computer_step(match_id=match.pk)
        assert result is not None and not result.duplicate
        state = state_of(match)
    assert seen and all(v.seat == 0 and v.revealed is None for v in seen)  # only its own view (R25)
    entries = LogEntry.objects.filter(round__match=match)
    assert entries.count() == len(seen) and all(e.by_computer and e.user is None for e in entries)
    assert not UndoPoint.objects.exists()
    before = snapshot(match)
    assert services.computer_step(match_id=match.pk) is None  # alice's turn
    assert services.computer_step(match_id=10**9) is None
    assert snapshot(match) == before


def test_computer_step_waits_for_players(make_match: Callable[..., Match]) -> None:
    match = make_match("computer", "human")
    assert services.computer_step(match_id=match.pk) is None


def test_r26_a_pause_holds_the_computers(
    make_match: Callable[..., Match],
    alice: Any,
    carol: Any,
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sent: list[tuple[int, bool]] = []
    monkeypatch.setattr(
        "games.notify.match_paused", lambda match_id, paused: sent.append((match_id, paused))
    )
    match = make_match("computer", "me")
    with django_capture_on_commit_callbacks(execute=True):
        assert services.pause_open(match_id=match.pk, user=alice, channel="ch-1") is True
        assert services.pause_open(match_id=match.pk, user=alice, channel="ch-2") is False
    assert sent == [(match.pk, True)] and selectors.paused(match)
    assert services.computer_step(match_id=match.pk) is None
    refused(
        "forbidden", match, lambda: services.pause_open(match_id=match.pk, user=carol, channel="x")
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert services.pause_close(match_id=match.pk, channel="ch-1") is False
        assert services.computer_step(match_id=match.pk) is None
        assert services.pause_close(match_id=match.pk, channel="ch-2") is True
    assert sent[-1] == (match.pk, False)
    assert services.computer_step(match_id=match.pk) is not None
    # A pause its connection stopped renewing for more than PAUSE_TIMEOUT (30 s) no longer holds anyone.
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Pause

    services.pause_open(match_id=match.pk, user=alice, channel="ch-3")
    if reads.computer_to_act(match) is not None:
        assert services.computer_step(match_id=match.pk) is None
    Pause.objects.update(alive_at=timezone.now() - timedelta(seconds=31))
    assert not selectors.paused(match)


def test_r26_a_pause_lives_while_its_connection_renews_it(
    make_match: Callable[..., Match],
    alice: Any,
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A pause nobody renews (its page, or its server, is gone) expires
    within 30 s instead of holding the computers for ten minutes; a renewed one holds."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Pause

    sent: list[tuple[int, bool]] = []
    monkeypatch.setattr(
        "games.notify.match_paused", lambda match_id, paused: sent.append((match_id, paused))
    )
    match = make_match("computer", "me")
    assert selectors.PAUSE_TIMEOUT <= timedelta(seconds=30)
    assert selectors.PAUSE_RENEW * 2 < selectors.PAUSE_TIMEOUT  # one lost renewal does not end it
    with django_capture_on_commit_callbacks(execute=True):
        assert services.pause_open(match_id=match.pk, user=alice, channel="ch-1") is True
    # 25 s later the page renews it: it holds on, without a second "paused" notice.
    Pause.objects.update(alive_at=timezone.now() - timedelta(seconds=25))
    with django_capture_on_commit_callbacks(execute=True):
        assert services.pause_open(match_id=match.pk, user=alice, channel="ch-1") is False
    assert Pause.objects.get().alive_at > timezone.now() - timedelta(seconds=5)
    assert selectors.paused(match) and services.computer_step(match_id=match.pk) is None
    # Then the page goes silent (its phone lost the network, its server was killed).
    Pause.objects.update(alive_at=timezone.now() - selectors.PAUSE_TIMEOUT - timedelta(seconds=1))
    assert not selectors.paused(match)
    assert services.computer_step(match_id=match.pk) is not None  # the computer plays on
    # The worker's clear-out deletes it and tells the table the computers play again.
    with django_capture_on_commit_callbacks(execute=True):
        assert services.pauses_expire() == [match.pk]
    assert not Pause.objects.exists() and sent[-1] == (match.pk, False)
    # A renewal that comes after expiry starts a new pause, and says so.
    with django_capture_on_commit_callbacks(execute=True):
        assert services.pause_open(match_id=match.pk, user=alice, channel="ch-1") is True
    assert sent[-1] == (match.pk, True)
    # A live pause survives the clear-out; at a single server's start-up every pause goes.
    with django_capture_on_commit_callbacks(execute=True):
        assert services.pauses_expire() == []
        assert selectors.paused(match)
        assert services.pauses_expire(everything=True) == [match.pk]
    assert not selectors.paused(match)


def test_all_computer_match_plays_on_by_itself(make_match: Callable[..., Match]) -> None:
    match = make_match("computer:casual", "computer:casual")
    for _ in range(3000):
        if services.computer_step(match_id=match.pk) is None:
            break
        match.refresh_from_db()
        if match.round_number == 2:
            break
    assert match.round_number == 2 and match.rounds.get(number=1).ended_by
