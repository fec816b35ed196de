"""The board's shared reads (games/table/board_reads.py) and the one-query computer lookup:
the performance fixes the load benchmark led to must not change what anyone sees.

- a board built from reads another connection made equals a board read afresh, for
  every seat and a spectator, through a whole round with undo and redo (R24, R27);
- reads of version v are given out for "v or later" only, and a caller that does not
  name a version reads afresh (so a pause, R26, which keeps the version, is seen);
- a fresh read costs a handful of queries, a shared one none;
- `matches_awaiting_computer` (the workers' question four times a second) answers
  in one query what `computer_to_act` answers match by match (R25).
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation

from engine.rules import legal_actions
from engine.serialize import state_from_json
from games import services
from games.board.draw import seat_infos
from games.board.presenter import Flags
from games.board.viewer import Viewer
from games.board.words import log_line
from games.models import Match
from games.reads import selectors
from games.reads.seats import match_with_seats
from games.services import SeatSpec
from games.table import board, board_reads
from games.table.commands.redo import match_redo
from games.table.commands.undo import match_undo
from tests import reads, seeded

pytestmark = pytest.mark.django_db


def rid() -> str:
    return uuid.uuid4().hex


@pytest.fixture(autouse=True)
def _nothing_kept() -> Iterator[None]:
    board_reads.forget()
    yield
    board_reads.forget()


@pytest.fixture
def players(django_user_model: Any) -> list[Any]:
    return [django_user_model.objects.create_user(f"reads{i}") for i in range(3)]


def started(players: list[Any], seed: int = 7) -> Match:
    match = seeded.match_create(
        creator=players[0],
        seed=seed,
        listed=False,
        seats=[SeatSpec("me"), SeatSpec("human"), SeatSpec("human")],
    )
    for user in players[1:]:
        services.seat_join(match_id=match.pk, user=user, token=match.invite_token)
    match.refresh_from_db()
    return match


def viewers(match: Match, players: list[Any]) -> list[Viewer]:
    out = [Viewer(user=u, controlled=tuple(selectors.seats_controlled(match, u))) for u in players]
    return out + [Viewer()]  # and a spectator


def boards(
    match_id: int, players: list[Any], reads: board_reads.BoardReads | None
) -> list[dict[str, Any]]:
    """Every viewer's board message, from `reads` or (None) each read afresh as before."""
    out = []
    with translation.override("en"):
        for i in range(len(players) + 1):
            if reads is None:
                match = match_with_seats(match_id)
                assert match is not None
                viewer = viewers(match, players)[i]
                out.append(board.board_message(match=match, viewer=viewer))
            else:
                viewer = viewers(reads.match, players)[i]
                out.append(board.board_message(match=reads.match, viewer=viewer, reads=reads))
    return out


def undo_text_read_one_by_one(match: Match, user: Any, view: Any) -> str:
    """What Undo would take back, in words, from the current round's log read now (R27)."""
    from games import log
    from games.table.commands.undo import undo_words

    if not reads.undo_available(match, user):
        return ""
    rnd = reads.current_round(match)
    assert rnd is not None
    effective = log.fold(selectors.round_log(rnd)).effective
    count = log.undo_group(effective, selectors.seats_controlled(match, user))
    assert count
    return undo_words(effective[-count:], [s.name for s in seat_infos(match)], view.seat)


def flags_read_one_by_one(match: Match, viewer: Viewer, view: Any) -> Flags:
    """The board's flags as games/table/board.py read them before the shared reads: one query
    per question (kept here as the reference the shared reads must agree with)."""
    from django.urls import reverse

    from games import commands
    from games.models import LogEntry, Round
    from games.table import away

    user = viewer.user
    over = view.phase in ("round_over", "match_over")
    history = tuple(
        tuple(r.points)
        for r in Round.objects.filter(match=match, points__isnull=False).order_by("number")
        if r.number < view.round or over
    )
    last = (
        LogEntry.objects.filter(round__match=match)
        .select_related("user")
        .order_by("-round__number", "-seq")
        .first()
    )
    following = selectors.next_match(match) if view.phase == "match_over" else None
    signed_in = user is not None
    ask = board.ask_for(match, selectors.open_request(match.pk), user)  # A request waits
    return Flags(
        match_id=match.pk,
        version=match.version,
        undo=signed_in and ask is None and reads.undo_available(match, user),
        redo=signed_in and reads.redo_available(match, user),
        restart=signed_in and ask is None and reads.restart_available(match, user),
        ask=ask,
        next_round=signed_in and reads.next_round_available(match, user),
        next_match_url=reverse("games:table", args=[following.pk]) if following is not None else "",
        paused=selectors.paused(match),
        history=history,
        pace=match.pace,
        hurry=match.hurry,
        may_pace=signed_in
        and match.status == "playing"
        and bool(selectors.seats_controlled(match, user)),
        undo_text=undo_text_read_one_by_one(match, user, view) if signed_in else "",
        last_event=log_line(
            last, [s.name for s in seat_infos(match)], view.seat, engine=view.engine
        )
        if last is not None
        else "",
        last_train=last_train_read_one_by_one(match, last),
        # seats whose owners are away (games.attendance.standin), their presence read now
        away=away.for_viewer(match, user, [s.name for s in seat_infos(match)]),
        # the asker told of a declined or expired request, the commands the menu
        # offers (games.commands), whether this round is the match's last (R32)
        answered=reads.answer_for(match, user) if signed_in and ask is None else "",
        offers=commands.offers(
            commands.OfferContext(
                match=match,
                user=user,
                view=view,
                mine=tuple(selectors.seats_controlled(match, user)),
                waiting=ask is not None,
            )
        ),
        final=bool((match.state or {}).get("start", {}).get("final")),
    )


def last_train_read_one_by_one(match: Match, last: Any) -> str:
    """The train of the last move still in effect in the current round (after an Undo, the
    one before those taken back, R27); at a match that is not being played, the last line's."""
    from games import log
    from games.models import LogEntry

    if match.state is not None and match.status == Match.Status.PLAYING:
        entries = list(
            LogEntry.objects.filter(round__match=match, round__number=match.round_number).order_by(
                "seq"
            )
        )
        effective = log.fold(entries).effective
        entry = effective[-1] if effective else None
    else:
        entry = last if last is not None and last.kind == "action" else None
    action = entry.action if entry is not None else None
    return (
        str(action.get("train", ""))
        if isinstance(action, dict) and action.get("act") == "play"
        else ""
    )


def test_shared_reads_give_every_viewer_the_board_a_fresh_read_gives(players: list[Any]) -> None:
    """Through two rounds and into a third (history, the last line at a round's start, R21),
    with undo and redo (R27): the flags equal the one-by-one reads, the boards equal the
    boards read afresh (every fifth step, and at every round's end and start)."""
    match = started(players)
    rng = random.Random(3)
    undone = redone = 0
    boundary = True
    for _step in range(600):
        row = Match.objects.get(pk=match.pk)
        state = state_from_json(row.state)
        shared = board_reads.current(match.pk, at_least=row.version)
        assert shared is not None and shared.version == row.version
        with translation.override("en"):
            for viewer in viewers(shared.match, players):
                public = selectors.seat_view(shared.match, None)
                seat = viewer.shown_seat(public.turn, public.phase in ("round_over", "match_over"))
                view = public if seat is None else selectors.seat_view(shared.match, seat)
                assert board.match_flags(
                    shared.match, viewer, view, shared
                ) == flags_read_one_by_one(shared.match, viewer, view)
        if boundary or _step % 5 == 0 or state.over:
            assert boards(match.pk, players, shared) == boards(match.pk, players, None)
        boundary = state.over
        if row.round_number == 3:
            break  # round 3's first board, with two rounds of history, was compared
        if state.phase == "round_over":
            services.round_next(
                match_id=match.pk, user=players[0], expected_version=row.version, request_id=rid()
            )
            continue
        mover = players[state.turn] if state.turn is not None else players[0]
        if rng.random() < 0.5 and reads.redo_available(row, mover):
            match_redo(
                match_id=match.pk, user=mover, expected_version=row.version, request_id=rid()
            )
            redone += 1
        elif rng.random() < 0.08 and reads.undo_available(row, mover):
            asked = match_undo(
                match_id=match.pk, user=mover, expected_version=row.version, request_id=rid()
            )
            if asked.asked:  # a shared table: the others agree; the boards of the wait compared
                shared = board_reads.current(match.pk, at_least=asked.version)
                assert shared is not None and shared.ask is not None
                with translation.override("en"):
                    for viewer in viewers(shared.match, players):
                        public = selectors.seat_view(shared.match, None)
                        assert board.match_flags(
                            shared.match, viewer, public, shared
                        ) == flags_read_one_by_one(shared.match, viewer, public)
                for other in players:
                    if other != mover and selectors.open_request(match.pk) is not None:
                        services.change_answer(
                            match_id=match.pk,
                            user=other,
                            ask=shared.ask.pk,
                            accept=True,
                            request_id=rid(),
                        )
            undone += 1
        else:
            action = legal_actions(state)[0]
            assert action.seat is not None
            services.action_submit(
                match_id=match.pk,
                user=players[action.seat],
                seat=action.seat,
                action=action.to_json(),
                expected_version=row.version,
                request_id=rid(),
            )
    assert Match.objects.get(pk=match.pk).round_number >= 3
    assert undone and redone  # the Undo and Redo offers were compared, not only plain moves


def test_reads_serve_their_version_or_earlier_and_a_caller_without_one_reads_afresh(
    players: list[Any], django_assert_num_queries: Any, django_assert_max_num_queries: Any
) -> None:
    match = started(players)
    with django_assert_max_num_queries(5):
        first = board_reads.current(match.pk, at_least=None)
    assert first is not None
    with django_assert_num_queries(0):
        assert board_reads.current(match.pk, at_least=first.version) is first
        assert board_reads.current(match.pk, at_least=first.version - 1) is first

    state = state_from_json(first.match.state)
    action = legal_actions(state)[0]
    assert action.seat is not None
    services.action_submit(
        match_id=match.pk,
        user=players[action.seat],
        seat=action.seat,
        action=action.to_json(),
        expected_version=first.version,
        request_id=rid(),
    )
    newer = board_reads.current(match.pk, at_least=first.version + 1)
    assert newer is not None and newer is not first and newer.version == first.version + 1
    assert newer.last is not None and newer.last.action == action.to_json()

    # R26: a pause keeps the version; the pause notice makes the connections read afresh.
    services.pause_open(match_id=match.pk, user=players[0], channel="panel-1")
    assert board_reads.current(match.pk, at_least=newer.version).paused is False  # type: ignore[union-attr]
    fresh = board_reads.current(match.pk, at_least=None)
    assert fresh is not None and fresh.paused and fresh.version == newer.version
    assert board_reads.current(match.pk, at_least=newer.version) is fresh
    assert board_reads.current(10**9, at_least=None) is None


def test_matches_awaiting_a_computer_in_one_query(
    players: list[Any], django_assert_num_queries: Any
) -> None:
    rng = random.Random(5)
    kinds = [
        ["me", "computer"],
        ["computer", "me"],
        ["me", "computer", "computer"],
        ["computer", "computer"],
        ["me", "local", "computer"],
        ["me", "human"],
    ]
    for seed in range(12):
        seats = [
            SeatSpec(k, level="casual") if k == "computer" else SeatSpec(k)
            for k in rng.choice(kinds)
        ]  # type: ignore[arg-type]
        match = seeded.match_create(creator=players[0], seed=seed, seats=seats)
        for _step in range(rng.randrange(40)):
            row = Match.objects.get(pk=match.pk)
            if row.state is None:
                break
            state = state_from_json(row.state)
            if state.over:
                break
            if reads.computer_to_act(row) is not None:
                services.computer_step(match_id=match.pk)
                continue
            action = legal_actions(state)[0]
            services.action_submit(
                match_id=match.pk,
                user=players[0],
                seat=action.seat,  # type: ignore[arg-type]
                action=action.to_json(),
                expected_version=row.version,
                request_id=rid(),
            )
    expected = sorted(
        m.pk
        for m in Match.objects.filter(status=Match.Status.PLAYING)
        if reads.computer_to_act(m) is not None
    )
    with django_assert_num_queries(1):
        awaiting = selectors.matches_awaiting_computer()
    assert awaiting == expected
    assert expected  # some match does wait for a computer
    assert (
        len(expected) < Match.objects.filter(status=Match.Status.PLAYING).count()
    )  # and some does not


def test_reads_past_their_time_are_read_again_and_not_kept(
    players: list[Any], monkeypatch: Any
) -> None:
    match = started(players)
    other = started(players, seed=8)
    first = board_reads.current(match.pk, at_least=None)
    assert first is not None and board_reads.current(match.pk, at_least=first.version) is first
    monkeypatch.setattr(board_reads, "KEEP_SECONDS", 0.0)
    again = board_reads.current(match.pk, at_least=first.version)
    assert again is not None and again is not first and again.version == first.version
    board_reads.current(other.pk, at_least=None)
    assert match.pk not in board_reads._kept  # an idle match's reads are let go


def test_a_fresh_read_loads_what_the_orm_loads_in_four_statements(
    players: list[Any], django_assert_num_queries: Any
) -> None:
    """The reads are written out in SQL: the match, its seats and their users, the
    pause (R26) and the last line (with the name of who undid, R27) are what the ORM loads,
    and a board asks nothing more of the database for them."""
    from games.models import LogEntry, Seat

    match = started(players)
    for _ in range(3):
        row = Match.objects.get(pk=match.pk)
        action = legal_actions(state_from_json(row.state))[0]
        assert action.seat is not None
        services.action_submit(
            match_id=match.pk,
            user=players[action.seat],
            seat=action.seat,
            action=action.to_json(),
            expected_version=row.version,
            request_id=rid(),
        )
    undoer = players[action.seat]
    match_undo(match_id=match.pk, user=undoer, expected_version=row.version + 1, request_id=rid())
    for other in players:  # a shared table: the others agree to the undo
        ask = selectors.open_request(match.pk)
        if other != undoer and ask is not None:
            services.change_answer(
                match_id=match.pk, user=other, ask=ask.pk, accept=True, request_id=rid()
            )
    services.pause_open(match_id=match.pk, user=players[1], channel="panel-1")

    with django_assert_num_queries(4):  # match and pause, seats and users, rounds, the round's log
        reads = board_reads.current(match.pk, at_least=None)
        assert reads is not None and reads.paused
        assert reads.last is not None and reads.last.user is not None
        assert reads.last.user.get_username() == undoer.get_username()
        # The seats read with the match travel with it (``match.seat_list``), no private API.
        seats = selectors.match_seats(reads.match)
        assert [s.display_name for s in seats] == [p.get_username() for p in players]
        assert [s.user.get_username() for s in seats] == [p.get_username() for p in players]

    fields = [f.attname for f in Match._meta.concrete_fields]
    orm = match_with_seats(match.pk)
    assert orm is not None
    assert [getattr(reads.match, f) for f in fields] == [getattr(orm, f) for f in fields]
    seat_fields = [f.attname for f in Seat._meta.concrete_fields]
    user_fields = [f.attname for f in type(players[0])._meta.concrete_fields]
    for mine, theirs in zip(seats, orm.seats.all(), strict=True):
        assert [getattr(mine, f) for f in seat_fields] == [getattr(theirs, f) for f in seat_fields]
        assert [getattr(mine.user, f) for f in user_fields] == [
            getattr(theirs.user, f) for f in user_fields
        ]
        # The match by id only: a reference back to it would make every version's reads a
        # cycle that only the garbage collector frees (tests/tablesite/test_gc.py).
        assert mine.match_id == reads.match.pk
    entry = (
        LogEntry.objects.select_related("user")
        .filter(round__match=match)
        .latest("round__number", "seq")
    )
    entry_fields = [f.attname for f in LogEntry._meta.concrete_fields]
    assert entry.kind == "undo"
    assert [getattr(reads.last, f) for f in entry_fields] == [
        getattr(entry, f) for f in entry_fields
    ]


def test_what_the_boards_of_a_version_share_is_kept_per_language(players: list[Any]) -> None:
    """The reads of a version keep what every board of it works out alike (the parsed
    snapshot, the public view, the seats' names, the shared parts): boards in English, Spanish and German
    from one shared read equal boards read afresh in that language, a computer's name
    included ("Computer 3" is translated), and the words of each board are its own."""
    match = seeded.match_create(
        creator=players[0],
        seed=11,
        listed=False,
        seats=[SeatSpec("me"), SeatSpec("human"), SeatSpec("computer", level="casual")],
    )
    services.seat_join(match_id=match.pk, user=players[1], token=match.invite_token)
    shared = board_reads.current(match.pk, at_least=None)
    assert shared is not None
    htmls = {}
    for language in ("en", "es", "de", "en"):
        with translation.override(language):
            fresh = match_with_seats(match.pk)
            assert fresh is not None
            for user in players[:2] + [None]:
                mine = tuple(selectors.seats_controlled(shared.match, user)) if user else ()
                viewer = Viewer(user=user, controlled=mine)
                kept = board.board_message(match=shared.match, viewer=viewer, reads=shared)
                assert kept == board.board_message(
                    match=fresh, viewer=Viewer(user=user, controlled=mine)
                )
            htmls[language] = kept["html"]
            assert translation.gettext("Computer %(number)s") % {"number": 3} in kept["html"]
    assert len(set(htmls.values())) == 3
    # The parts every viewer sees alike are rendered once per language (games/board/parts.py);
    # "rows": the train rows as last rendered, by language, carried on to the next version;
    # "facts": who is at the table, the seats away, the latest closed request,
    # worked out once per version for every viewer (games/table/facts.py); "powers": what
    # each person may do, carried on to the versions moves derive (games/table/board.py).
    kept_apart = ("state", "public", "before", "rows", "facts", "powers")
    assert {key for key in shared.shared if key not in kept_apart} == {
        ("seats", "en"),
        ("seats", "es"),
        ("seats", "de"),
        ("shared", "en"),
        ("shared", "es"),
        ("shared", "de"),
    }


def test_the_latest_closed_request_read_in_sql_is_the_one_the_orm_reads(
    players: list[Any],
) -> None:
    """`selectors.last_closed_request` (one statement written out, on every version): the
    same request, with the same values, as the ORM's query it replaced, whatever the latest
    request's state."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import ChangeRequest

    def reference(match_id: int) -> ChangeRequest | None:
        latest = ChangeRequest.objects.filter(match_id=match_id).order_by("-pk").first()
        if latest is None or latest.status not in ("declined", "expired"):
            return None
        if latest.closed_at is None or latest.closed_at < timezone.now() - selectors.ANSWER_SHOWN:
            return None
        return latest

    def values(request: ChangeRequest | None) -> dict[str, Any] | None:
        if request is None:
            return None
        return {f.attname: getattr(request, f.attname) for f in request._meta.concrete_fields}

    match = started(players)
    assert selectors.last_closed_request(match.pk) is None
    now = timezone.now()
    cases = [
        ("declined", now, players[1]),
        ("expired", now, None),
        ("done", now, None),
        ("declined", now - timedelta(minutes=5), players[2]),
        ("void", now, None),
        ("declined", now - timedelta(seconds=5), players[2]),
    ]
    for status, closed_at, declined_by in cases:
        ChangeRequest.objects.create(
            match=match,
            change="undo",
            asked_by=players[0],
            round_number=1,
            version=match.version,
            accepted=[players[1].pk],
            declined_by=declined_by,
            status=status,
            expires_at=now + timedelta(minutes=1),
            closed_at=closed_at,
        )
        got, want = selectors.last_closed_request(match.pk), reference(match.pk)
        assert values(got) == values(want), status
        if got is not None:
            assert got == want and got.declined_by == want.declined_by
