"""In the services: the computer levels (R25) as seats store them, the computers'
pace per match, "skip to my turn", and the words of what Undo takes back (R27)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import override_settings
from django.utils import timezone

from engine import bots
from engine.views import view
from games import services, worker
from games.errors import GameError
from games.models import LogEntry, Match, Seat
from games.reads import selectors
from games.services import SeatSpec
from games.table.commands.pace import pace_set
from games.table.commands.play_again import again_answer
from games.table.commands.skip import hurry_start
from games.table.commands.undo import match_undo, undo_words
from tests import reads, seeded

from .conftest import rid, state_of

pytestmark = pytest.mark.django_db


def computers_to(match: Match, seat: int) -> None:
    """Computer steps until `seat` is to act (the creator at seat 0 plays as the casual
    computer would when it is their turn and `seat` is a computer's)."""
    for _ in range(300):
        state = state_of(match)
        if state.turn == seat:
            return
        if state.turn == 0:
            services.action_submit(
                match_id=match.pk,
                user=match.created_by,
                seat=0,
                expected_version=version_of(match),
                request_id=rid(),
                action=bots.choose(view(state, 0), "casual").to_json(),
            )
        else:
            assert services.computer_step(match_id=match.pk) is not None
    raise AssertionError("never that seat's turn")


def my_move(match: Match) -> None:
    """The creator (seat 0) plays as the casual computer would until a computer is to act."""
    for _ in range(30):
        state = state_of(match)
        if state.turn != 0:
            return
        services.action_submit(
            match_id=match.pk,
            user=match.created_by,
            seat=0,
            expected_version=version_of(match),
            action=bots.choose(view(state, 0), "casual").to_json(),
            request_id=rid(),
        )
    raise AssertionError("the turn never left seat 0")


def version_of(match: Match) -> int:
    match.refresh_from_db()
    return match.version


def unchanged(match: Match) -> tuple[Any, ...]:
    m = Match.objects.get(pk=match.pk)
    return m.version, m.pace, m.hurry, m.state


# ---------------------------------------------------------------- levels


def test_r25_a_match_stores_the_three_levels_and_takes_the_old_names(alice: Any) -> None:
    match = seeded.match_create(
        creator=alice,
        seed=3,
        seats=[
            SeatSpec("me"),
            SeatSpec("computer", level="beginner"),
            SeatSpec("computer", level="casual"),
            SeatSpec("computer", level="expert"),
            SeatSpec("computer", level="expert"),
        ],
    )
    assert [s.level for s in match.seats.order_by("index")] == [
        "",
        "beginner",
        "casual",
        "expert",
        "expert",
    ]
    for wrong in ("godlike", "Strong", "", "beginner "):
        with pytest.raises(GameError) as e:
            services.match_create(
                creator=alice, seats=[SeatSpec("me"), SeatSpec("computer", level=wrong)]
            )
        assert e.value.code == "bad_request"


def test_r25_a_stored_old_level_name_still_plays(alice: Any) -> None:
    match = seeded.match_create(
        creator=alice, seed=5, seats=[SeatSpec("me"), SeatSpec("computer", level="expert")]
    )
    Seat.objects.filter(match=match, index=1).update(
        level="expert"
    )  # a row the migration never saw
    computers_to(match, 1)
    state = state_of(match)
    expected = bots.choose(view(state, 1), "expert")
    assert services.computer_step(match_id=match.pk) is not None
    last = LogEntry.objects.filter(round__match=match).order_by("-id").first()
    assert last is not None and last.action == expected.to_json()


def play_out(match: Match, user: Any, steps: int) -> list[dict[str, Any]]:
    """`steps` actions: the person plays as the casual computer would, computers step; the log's actions."""
    for _ in range(steps):
        state = state_of(match)
        if state.turn is None:
            break
        if state.turn == 0:
            services.action_submit(
                match_id=match.pk,
                user=user,
                seat=0,
                expected_version=version_of(match),
                action=bots.choose(view(state, 0), "casual").to_json(),
                request_id=rid(),
            )
        else:
            services.computer_step(match_id=match.pk)
    return [
        e.action
        for e in LogEntry.objects.filter(round__match=match).order_by("round__number", "seq")
    ]


def test_r25_beginners_play_a_match_the_same_way_twice_from_its_seed(alice: Any) -> None:
    seats = [
        SeatSpec("me"),
        SeatSpec("computer", level="beginner"),
        SeatSpec("computer", level="beginner"),
    ]
    first = play_out(seeded.match_create(creator=alice, seed=99, seats=seats), alice, 120)
    again = play_out(seeded.match_create(creator=alice, seed=99, seats=seats), alice, 120)
    assert len(first) >= 100 and first == again
    # Each of those moves is the beginner's choice with the luck of (seed, round, seat, version).
    match = seeded.match_create(creator=alice, seed=99, seats=seats)
    computers_to(match, 1)
    state = state_of(match)
    luck = bots.luck(99, state.round, 1, version_of(match))
    expected = bots.choose(view(state, 1), "beginner", luck)
    assert services.computer_step(match_id=match.pk) is not None
    last = LogEntry.objects.filter(round__match=match).order_by("-id").first()
    assert last is not None and last.action == expected.to_json() and last.by_computer


# ---------------------------------------------------------------- pace


def test_the_pace_is_chosen_at_creation_and_kept_for_the_next_match_at_the_table(
    alice: Any,
) -> None:
    match = seeded.match_create(
        creator=alice, seed=1, seats=[SeatSpec("me"), SeatSpec("computer", level="casual")]
    )
    assert match.pace == "normal" and not match.hurry
    fast = seeded.match_create(
        creator=alice,
        seed=1,
        pace="fast",
        seats=[SeatSpec("me"), SeatSpec("computer", level="casual")],
    )
    assert Match.objects.get(pk=fast.pk).pace == "fast"
    with pytest.raises(GameError) as e:
        services.match_create(
            creator=alice,
            seats=[SeatSpec("me"), SeatSpec("computer", level="casual")],
            pace="ludicrous",
        )
    assert e.value.code == "bad_request"
    Match.objects.filter(pk=fast.pk).update(status="finished", finished_at=timezone.now())
    again_answer(match_id=fast.pk, user=alice, accept=True, request_id=rid())  # R29
    new = selectors.next_match(fast)
    assert new is not None and new.pace == "fast"


def test_a_seated_person_changes_the_pace_and_everyone_sees_a_new_version(
    alice: Any, bob: Any, carol: Any
) -> None:
    match = seeded.match_create(
        creator=alice,
        seed=2,
        seats=[SeatSpec("me"), SeatSpec("human"), SeatSpec("computer", level="casual")],
    )
    services.seat_join(match_id=match.pk, user=bob, token=match.invite_token)
    before = version_of(match)
    result = pace_set(match_id=match.pk, user=bob, pace="relaxed", request_id="p1")
    assert result.version == before + 1 and Match.objects.get(pk=match.pk).pace == "relaxed"
    # The same request again: the same result, nothing applied twice.
    again = pace_set(match_id=match.pk, user=bob, pace="relaxed", request_id="p1")
    assert again.duplicate and again.version == before + 1
    pace_set(match_id=match.pk, user=alice, pace="instant", request_id="p2")
    assert Match.objects.get(pk=match.pk).pace == "instant"
    # Refusals change nothing: a stranger (carol), nobody signed in, an unknown pace, the same pace.
    kept = unchanged(match)
    for user, pace, code in [
        (carol, "fast", "forbidden"),
        (None, "fast", "forbidden"),
        (alice, "ludicrous", "bad_request"),
        (alice, 3, "bad_request"),
        (alice, "instant", "bad_request"),
    ]:
        with pytest.raises(GameError) as e:
            pace_set(match_id=match.pk, user=user, pace=pace, request_id=rid())
        assert e.value.code == code, (user, pace)
        assert unchanged(match) == kept


def test_a_finished_match_keeps_its_pace(alice: Any) -> None:
    match = seeded.match_create(
        creator=alice, seed=1, seats=[SeatSpec("me"), SeatSpec("computer", level="casual")]
    )
    Match.objects.filter(pk=match.pk).update(status="finished", finished_at=timezone.now())
    with pytest.raises(GameError) as e:
        pace_set(match_id=match.pk, user=alice, pace="fast", request_id=rid())
    assert e.value.code == "illegal"


@pytest.mark.parametrize(
    ("pace", "base", "seconds"),
    [
        ("relaxed", 0.6, 1.5),
        ("normal", 0.6, 0.6),
        ("fast", 0.6, 0.25),
        ("instant", 0.6, 0.0),
        ("relaxed", 0.0, 0.0),
        ("normal", 1.2, 1.2),
        ("fast", 1.2, 0.5),
    ],
)
def test_each_pace_waits_its_time_scaled_by_the_computer_delay_setting(
    pace: str, base: float, seconds: float
) -> None:
    assert worker.pace_delay(pace, base=base) == pytest.approx(seconds)
    assert worker.pace_delay(pace, True, base=base) == 0.0  # skipping to a person's turn: no wait


def test_the_default_normal_pace_is_the_computer_delay_setting() -> None:
    with override_settings(COMPUTER_DELAY=0.6):
        assert [worker.pace_delay(p) for p in Match.Pace.values] == pytest.approx(
            [1.5, 0.6, 0.25, 0.0]
        )
    with override_settings(COMPUTER_DELAY=0):
        assert {worker.pace_delay(p) for p in Match.Pace.values} == {0.0}


def aged(match: Match, seconds: float) -> None:
    """The match's last change `seconds` ago."""
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - timedelta(seconds=seconds))


def test_the_worker_honours_each_matchs_pace(alice: Any) -> None:
    seats = [
        SeatSpec("computer", level="casual"),
        SeatSpec("computer", level="casual"),
        SeatSpec("me"),
    ]
    made = {
        pace: seeded.match_create(creator=alice, seed=4, pace=pace, seats=seats)
        for pace in Match.Pace.values
    }
    for match in made.values():
        assert state_of(match).turn != 2  # a computer holds the engine or acts first
        aged(match, 1.0)
    versions = {pace: version_of(m) for pace, m in made.items()}
    steps, wait = worker.ComputerWorker(delay=0.6).run_once()
    moved = {pace for pace, m in made.items() if version_of(m) > versions[pace]}
    # One second after the last change: every pace but the relaxed one (1.5 s) is due.
    assert moved == {"normal", "fast", "instant"} and steps == 3
    assert wait is not None and wait < 0.6  # the relaxed match is due in about half a second


def test_r7_skip_to_my_turn_hurries_the_computers_until_a_person_is_to_act(
    alice: Any, bob: Any
) -> None:
    seats = [
        SeatSpec("me"),
        SeatSpec("computer", level="casual"),
        SeatSpec("computer", level="casual"),
    ]
    match = seeded.match_create(creator=alice, seed=8, pace="relaxed", seats=seats)
    computers_to(match, 0)
    # Not while it is a person's turn.
    with pytest.raises(GameError) as e:
        hurry_start(match_id=match.pk, user=alice, request_id=rid())
    assert e.value.code == "illegal" and not Match.objects.get(pk=match.pk).hurry
    my_move(match)
    for user, code in [(bob, "forbidden"), (None, "forbidden")]:
        with pytest.raises(GameError) as e:
            hurry_start(match_id=match.pk, user=user, request_id=rid())
        assert e.value.code == code
    before = version_of(match)
    hurry_start(match_id=match.pk, user=alice, request_id="skip-1")
    assert Match.objects.get(pk=match.pk).hurry and version_of(match) == before + 1
    with pytest.raises(GameError) as e:
        hurry_start(match_id=match.pk, user=alice, request_id=rid())
    assert e.value.code == "bad_request"  # already hurrying
    # The worker does not wait for the relaxed pace while the computers hurry...
    aged(match, 0)
    assert worker.pace_delay("relaxed", True) == 0
    steps = 0
    while state_of(match).turn != 0:
        assert Match.objects.get(pk=match.pk).hurry
        done, _wait = worker.ComputerWorker(delay=0.6).run_once()
        assert done == 1
        steps += 1
    # ...and the turn is back with a person: the table's pace again.
    assert steps >= 1 and not Match.objects.get(pk=match.pk).hurry
    assert Match.objects.get(pk=match.pk).pace == "relaxed"
    assert worker.ComputerWorker(delay=0.6).run_once() == (0, None)


def test_a_persons_change_ends_a_skip(alice: Any) -> None:
    seats = [
        SeatSpec("me"),
        SeatSpec("computer", level="casual"),
        SeatSpec("computer", level="casual"),
    ]
    match = seeded.match_create(creator=alice, seed=8, seats=seats)
    computers_to(match, 0)
    my_move(match)
    hurry_start(match_id=match.pk, user=alice, request_id=rid())
    assert Match.objects.get(pk=match.pk).hurry
    match_undo(match_id=match.pk, user=alice, expected_version=version_of(match), request_id=rid())
    assert not Match.objects.get(pk=match.pk).hurry


# ---------------------------------------------------------------- what Undo takes back


def test_r27_undo_says_what_it_takes_back(alice: Any) -> None:
    seats = [
        SeatSpec("me"),
        SeatSpec("computer", level="casual"),
        SeatSpec("computer", level="casual"),
    ]
    match = seeded.match_create(creator=alice, seed=8, seats=seats)
    computers_to(match, 0)
    my_move(match)
    computers_to(match, 0)
    entries = list(LogEntry.objects.filter(round__match=match, round__number=1).order_by("seq"))
    mine = max(i for i, e in enumerate(entries) if not e.by_computer)
    taken = entries[mine:]
    computers = len(taken) - 1
    names = ["alice", "Computer 2", "Computer 3"]
    words = undo_words(taken, names, 0)
    action = taken[0].action
    if action["act"] == "play":
        low, high = sorted(int(x) for x in action["tile"].split("-"))
        assert words.startswith(f"Undo your {high}-{low}")
    if action["act"] == "end":  # a first turn (R9)
        assert words.startswith("Undo the end of your first turn")
    assert words.startswith(("Undo your ", "Undo the end of your first turn"))
    assert computers > 0 and (f"and {computers} computer move" in words)
    assert (f"{computers} computer moves" in words) == (computers > 1)
    # The same entries seen from another seat (a pass-and-play partner) name the player.
    assert undo_words(taken, names, 1).startswith(
        ("Undo alice's ", "Undo the end of alice's first turn")
    )
    assert undo_words([], names, 0) == ""
    # The log's own fold agrees on what one Undo takes back.
    from games import log

    folded = log.fold(entries)
    assert log.undo_group(folded.effective, [0]) == len(taken)
    assert reads.undo_available(match, alice)


def test_r27_undo_words_in_spanish_and_german_with_plurals() -> None:
    from django.utils import translation

    class E:
        def __init__(self, seat: int, action: dict[str, Any], by_computer: bool) -> None:
            self.seat, self.action, self.by_computer = seat, action, by_computer

    taken = [
        E(0, {"act": "play", "seat": 0, "tile": "4-6", "train": 0}, False),
        E(1, {"act": "draw", "seat": 1}, True),
        E(1, {"act": "pass", "seat": 1}, True),
    ]
    one = taken[:2]
    names = ["Ana", "Ben"]
    assert undo_words(taken, names, 0) == "Undo your 6-4 and 2 computer moves"
    assert undo_words(one, names, 0) == "Undo your 6-4 and 1 computer move"
    with translation.override("es"):
        es_many, es_one = undo_words(taken, names, 0), undo_words(one, names, 0)
    with translation.override("de"):
        de_many, de_one = undo_words(taken, names, 0), undo_words(one, names, 0)
    for text in (es_many, es_one, de_many, de_one):
        assert "6-4" in text and "Undo" not in text and "computer move" not in text
    assert es_many != es_one and de_many != de_one
