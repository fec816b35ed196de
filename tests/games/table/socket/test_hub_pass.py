"""The database statements of a version's pass (games.table.hub `Hub._told`): the table's
facts are read once per version (games.table.facts), before any board is made, so the
statements do not grow with the table's connections, their seats or their languages, and
no statement is made while a connection's board is made; a version derived from moves
makes none at all (who is at the table and the last request are carried over)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection

from bench.consumers import table_consumer
from engine.rules import legal_actions
from games import notify, services
from games.models import Match
from games.table import board, hub
from games.table.commands.redo import match_redo
from games.table.commands.restart import round_restart
from games.table.commands.undo import match_undo
from tests import seeded
from tests.frames import hidden
from tests.games.table.socket.conftest import db, spec, state_of

pytestmark = pytest.mark.django_db(transaction=True)

#: who looks, in the order connections are added: three seated people in three languages,
#: spectators signed in and not, in the languages again
LOOKERS = [(0, "en"), (1, "es"), (2, "de"), (None, "en"), (None, "es"), ("anon", "de")]


@contextmanager
def statements(rendering: list[bool]) -> Iterator[list[str]]:
    """The statements run within; those run while `rendering[0]` is set are marked."""
    seen: list[str] = []

    def check(execute: Callable[..., Any], sql: str, *args: Any) -> Any:
        seen.append(("while a board was made: " if rendering[0] else "") + sql)
        return execute(sql, *args)

    with connection.execute_wrapper(check):
        yield seen


def pass_counted(
    h: hub.Hub, notice: dict[str, Any], rendering: list[bool]
) -> tuple[list[Any], list[str]]:
    """The hub's pass for `notice` (in the database thread whose statements are counted)."""
    with statements(rendering) as seen:
        out = h._told(notice)
    return out, seen


def table(users: list[Any]) -> Match:
    """Three people and a computer, a few moves into the first round."""
    match = seeded.match_create(
        creator=users[0],
        seats=[spec("me"), spec("human"), spec("human"), spec("computer")],
        seed=11,
    )
    for user in users[1:3]:
        services.seat_join(match_id=match.pk, user=user, token=match.invite_token)
    return Match.objects.get(pk=match.pk)


def move(match_id: int, users: list[Any]) -> None:
    """The next move at the table: the computer's, or the first legal one of the seat on turn."""
    row = Match.objects.get(pk=match_id)
    action = legal_actions(state_of(match_id))[0]
    if action.seat == 3:
        services.computer_step(match_id=match_id)
        return
    assert action.seat is not None
    services.action_submit(
        match_id=match_id,
        user=users[action.seat],
        seat=action.seat,
        action=action.to_json(),
        expected_version=row.version,
        request_id=uuid.uuid4().hex,
    )


@pytest.mark.asyncio
async def test_a_versions_pass_makes_as_many_statements_for_six_connections_as_for_one(
    alice: Any, bob: Any, carol: Any, django_user_model: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    users = [alice, bob, carol]
    watcher = await db(lambda: django_user_model.objects.create_user("watcher"))
    match = await db(table, users)
    told: list[dict[str, Any]] = []
    monkeypatch.setattr(notify, "hub_sink", lambda match_id, message: told.append(message))

    rendering = [False]
    making = board.match_page

    def made(**kwargs: Any) -> Any:
        rendering[0] = True
        try:
            return making(**kwargs)
        finally:
            rendering[0] = False

    monkeypatch.setattr(board, "match_page", made)

    # Two processes' hubs of the table (two stations, each told of every version, as the
    # layer would): one with a single connection, one with every looker.
    hubs = {}
    for size in (1, len(LOOKERS)):
        station = hub.Station()
        for who, language in LOOKERS[:size]:
            user = (
                users[who]
                if isinstance(who, int)
                else (watcher if who is None else AnonymousUser())
            )
            conn = table_consumer(match.pk, user, language=language)
            h = await station.join(conn)
            conn.hub = h
            await h.board(conn, whole=True)
        hubs[size] = station.hubs[match.pk]

    counts: dict[int, list[int]] = {size: [] for size in hubs}

    async def tell(notice: dict[str, Any]) -> None:
        for size, h in hubs.items():
            derived = h.derived
            out, seen = await db(pass_counted, h, notice, rendering)
            assert out and not [error for _conn, _frame, _key, error, _job in out if error]
            assert not [sql for sql in seen if sql.startswith("while")], seen
            if h.derived > derived:  # a move's version: presence and requests carried over
                assert seen == [], seen
            counts[size].append(len(seen))

    for _ in range(4):  # versions derived from their notices
        told.clear()
        await db(move, match.pk, users)
        for notice in told:
            await tell(notice)
    await tell({"type": "match.seats", "match": match.pk})  # a seat's dot: read afresh
    assert all(h.derived >= 4 and h.read >= 1 for h in hubs.values())
    assert counts[1] == counts[len(LOOKERS)], counts
    assert max(counts[1]) <= 8, counts  # a fresh read and the facts at most
    for h in hubs.values():
        await h.close()


# ---------------------------------------------------------------- what the pass sends


def _step(match_id: int, users: list[Any], rng: Any, away: set[int], last: str) -> str:
    """One random thing at the table: a move (most often), an undo, redo or restart asked and
    answered, the next round, or a person leaving or coming back. What it was, in words."""
    from games.attendance import presence
    from games.errors import GameError
    from games.models import ChangeRequest

    row = Match.objects.get(pk=match_id)
    state = state_of(match_id)
    alice = users[0]

    def asked(result: Any) -> None:  # every other person answers the request
        ask = ChangeRequest.objects.filter(match_id=match_id, status="open").first()
        if ask is None:
            return
        accept = rng.random() < 0.6
        for user in users[1:]:
            services.change_answer(
                match_id=match_id, user=user, ask=ask.pk, accept=accept, request_id=uuid.uuid4().hex
            )
            if not accept:
                return

    roll = rng.random()
    if last == "undo" and roll < 0.5:
        roll = 0.1  # often the undone move again
    try:
        if state.phase == "round_over":
            services.round_next(
                match_id=match_id,
                user=alice,
                expected_version=row.version,
                request_id=uuid.uuid4().hex,
            )
            return "next round"
        if state.phase == "match_over":
            return "over"
        if roll < 0.14:  # whoever may: the last to act takes it back, or brings it back
            for user in rng.sample(users, len(users)):
                try:
                    if roll < 0.08:
                        asked(
                            match_undo(
                                match_id=match_id,
                                user=user,
                                expected_version=row.version,
                                request_id=uuid.uuid4().hex,
                            )
                        )
                        return "undo"
                    match_redo(
                        match_id=match_id,
                        user=user,
                        expected_version=row.version,
                        request_id=uuid.uuid4().hex,
                    )
                    return "redo"
                except GameError:
                    continue
        elif roll < 0.17:
            asked(
                round_restart(
                    match_id=match_id,
                    user=alice,
                    expected_version=row.version,
                    request_id=uuid.uuid4().hex,
                )
            )
            return "restart"
    except GameError:
        pass  # nothing to take back, or not now: a move instead
    if roll > 0.93:
        who = rng.randrange(1, 3)
        if who in away:
            away.discard(who)
            presence.opened(match_id=match_id, user=users[who], channel=f"page-{who}")
        else:
            away.add(who)
            presence.closed(match_id=match_id, channel=f"page-{who}")
        return "presence"
    move(match_id, users)
    return "move"


@pytest.mark.asyncio
@pytest.mark.parametrize("seed", [3, 5])
async def test_every_page_made_of_the_pass_s_frames_is_a_fresh_full_render(
    alice: Any,
    bob: Any,
    carol: Any,
    django_user_model: Any,
    monkeypatch: pytest.MonkeyPatch,
    seed: int,
) -> None:
    """Random play at a table of three people and a computer, with undo, redo and restart
    asked and answered, new rounds and people leaving and coming back: after every notice the
    hub's pass sends each connection (seated, watching signed in or not, in three languages)
    a frame, and the page those frames make equals a fresh full render from a fresh read. No
    frame to a seat or a spectator names a tile hidden from it (R24)."""
    import random

    from django.utils import translation

    from games.attendance import presence
    from tests import frames
    from tests.games.table.hostile.secrets import tiles_written

    rng = random.Random(seed)
    users = [alice, bob, carol]
    watcher = await db(lambda: django_user_model.objects.create_user("watcher"))
    match = await db(table, users)
    for i, user in enumerate(users):
        await db(presence.opened, match_id=match.pk, user=user, channel=f"page-{i}")
    told: list[dict[str, Any]] = []
    monkeypatch.setattr(notify, "hub_sink", lambda match_id, message: told.append(message))

    station = hub.Station()
    lookers = [(alice, "en"), (bob, "es"), (carol, "de"), (watcher, "en"), (AnonymousUser(), "es")]
    conns = []
    pages: dict[Any, str] = {}
    h = None
    for user, language in lookers:
        conn = table_consumer(match.pk, user, language=language)
        h = await station.join(conn)
        message = await db(conn.made_board, whole=True)
        pages[conn] = message["html"]
        conns.append(conn)
    assert h is not None

    def seat_of(conn: Any) -> int | None:
        controlled = conn.viewer(Match.objects.get(pk=match.pk)).controlled
        return controlled[0] if controlled else None

    seats = {conn: await db(seat_of, conn) for conn in conns}

    def fresh(conn: Any) -> tuple[str, int | None]:
        """The connection's board rendered afresh from the database, and its seat."""
        from games.reads.seats import match_with_seats

        m = match_with_seats(match.pk)
        viewer = conn.viewer(m)
        with translation.override(conn.language):
            html = board.board_message(match=m, viewer=viewer)["html"]
        return html, (viewer.controlled[0] if viewer.controlled else None)

    away: set[int] = set()
    done: list[str] = []
    updates = 0
    for _ in range(70):
        told.clear()
        what = await db(_step, match.pk, users, rng, away, done[-1] if done else "")
        done.append(what)
        if what == "over":
            break
        notices = list(told)
        if what == "presence":  # the consumer tells the table (games.notify.match_seats)
            notices.append({"type": "match.seats", "match": match.pk})
        state = await db(state_of, match.pk)
        for notice in notices:
            out = await db(h._told, notice)
            for conn, message, _key, error, _job in out:
                assert error is None, error
                if message is None:
                    continue
                seat = seats[conn]
                if message["type"] == "board":
                    pages[conn] = message["html"]
                    sent = tiles_written(message["html"])
                else:
                    updates += 1
                    pages[conn] = frames.apply(pages[conn], message)
                    sent = set().union(*map(tiles_written, frames.frame_texts(message)))
                if notice is notices[-1]:
                    assert not sent & hidden(state, seat), f"a hidden tile reached {seat}"
        for conn in conns:
            want, _seat = await db(fresh, conn)
            assert pages[conn] == want, f"{conn.user} ({conn.language}) after {done}"
    assert updates > 0
    assert {"move", "undo", "redo", "restart", "presence"} <= set(done), done
    await h.close()
