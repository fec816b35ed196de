"""games.table.hub: one hub per table per process.

- equivalence: the reads a hub derives from a notice's public entries
  (`board_reads.advance`) equal a fresh read at every version, and so does every
  board rendered from them, over random rounds of 2-10 seats with undo, redo,
  restart and new rounds mixed in; every connection's page, made of the update
  frames its hub sent, equals a fresh full render at every version, with a table's
  connections in one hub and split over two, and with people's pages closing and opening,
  requests answered and table talk mixed in;
- secrecy: nothing on the channel layer names a tile not on the table (R24);
- a slow client (it never reads) does not hold up its table's other connections,
  and is resynced with the whole board;
- `Hub.broadcast` reaches all, the players only or the spectators only;
- a board read again at its own version that changed nothing is no frame
  (games.table.screen, asked for changes only).
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from channels.layers import get_channel_layer
from django.contrib.auth.models import AnonymousUser

from bench.consumers import table_consumer
from engine.rules import legal_actions
from games import notify, services
from games.board.viewer import Viewer
from games.errors import GameError
from games.models import Match
from games.table import board, board_reads, hub
from games.table.commands.redo import match_redo
from games.table.commands.restart import round_restart
from games.table.commands.undo import match_undo
from tests import frames, seeded
from tests.games.table.socket.conftest import db, rid, spec, state_of, tiles_in
from tests.games.table.socket.test_redis import redis_url

pytestmark = pytest.mark.django_db(transaction=True)


def fields(reads: board_reads.BoardReads) -> tuple[Any, ...]:
    """What a board is made of, comparable across two reads of one version."""
    m = reads.match

    def entry(e: Any) -> Any:
        return (
            None
            if e is None
            else (
                e.pk,
                e.seq,
                e.kind,
                e.seat,
                e.action,
                e.user_id,
                e.by_computer,
                e.version,
                e.user.get_username() if e.user is not None else None,
            )
        )

    folded = reads.folded
    return (
        m.pk,
        m.version,
        m.state,
        m.status,
        m.round_number,
        m.hurry,
        m.pace,
        [(s.index, s.kind, s.user_id) for s in m.seat_list],
        reads.paused,
        reads.history,
        entry(reads.last),
        None
        if folded is None
        else ([e.id for e in folded.effective], [[e.id for e in g] for g in folded.redo]),
        reads.following,
        reads.ask,
        [tuple(line) for line in reads.lines],
    )


def viewers(reads: board_reads.BoardReads, user: Any) -> list[Viewer]:
    """The creator's pass-and-play screen with the relay cover up, the same after "Show my
    tiles" for the seat to act (R24), and a spectator."""
    from games import permissions
    from games.reads import selectors

    match = reads.match
    controlled = tuple(permissions.seats_controlled(match, user))
    turn = selectors.match_state(match).turn
    return [
        Viewer(user=user, controlled=controlled),
        Viewer(user=user, controlled=controlled, revealed=turn),
        Viewer(),
    ]


def pages(reads: board_reads.BoardReads, user: Any) -> list[str]:
    return [
        board.match_page(match=reads.match, viewer=v, reads=reads).html()
        for v in viewers(reads, user)
    ]


def step(
    match_id: int,
    users: list[Any],
    rng: random.Random,
    rates: tuple[float, float, float] = (0.05, 0.08, 0.09),
) -> None:
    """One random change: mostly a legal action of the seat to act, now and then (`rates`:
    cumulative) an undo, redo or restart (refusals change nothing; at a table of several
    people one is asked of the others), the next round when one is over."""
    m = Match.objects.get(pk=match_id)
    state = state_of(match_id)
    seat_users = {s.index: s.user for s in m.seats.all()}
    if state.phase == "round_over":
        services.round_next(
            match_id=match_id, user=users[0], expected_version=m.version, request_id=rid()
        )
        return
    roll = rng.random()
    who = seat_users.get(state.turn) or users[0]
    try:
        if roll < rates[0]:
            match_undo(match_id=match_id, user=who, expected_version=m.version, request_id=rid())
        elif roll < rates[1]:
            match_redo(match_id=match_id, user=who, expected_version=m.version, request_id=rid())
        elif roll < rates[2]:
            round_restart(
                match_id=match_id, user=users[0], expected_version=m.version, request_id=rid()
            )
        elif seat_users.get(state.turn) is None:
            services.computer_step(match_id=match_id)
        else:
            action = rng.choice(legal_actions(state))
            services.action_submit(
                match_id=match_id,
                user=who,
                seat=state.turn,
                action=action.to_json(),
                expected_version=m.version,
                request_id=rid(),
            )
    except GameError:
        pass  # nothing to undo or redo, a request waiting: nothing changed


@pytest.mark.slow
@pytest.mark.parametrize(
    ("kinds", "seed", "steps"),
    [
        (("me", "local"), 1, 150),
        (("me", "local", "local", "computer"), 2, 100),
        (("me",) + ("local",) * 5, 3, 70),
        (("me",) + ("local",) * 8 + ("computer",), 4, 60),
    ],
)
def test_derived_reads_and_boards_equal_a_fresh_read_at_every_version(
    kinds: tuple[str, ...], seed: int, steps: int, alice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed)
    match = seeded.match_create(creator=alice, seats=[spec(k) for k in kinds], seed=1000 + seed)
    told: list[dict[str, Any]] = []
    monkeypatch.setattr(notify, "hub_sink", lambda match_id, message: told.append(message))
    board_reads.forget()
    held = board_reads.current(match.pk, at_least=None)
    assert held is not None
    derived = fresh_reads = 0
    for _ in range(steps):
        told.clear()
        step(match.pk, [alice], rng)
        for notice in told:
            if notice["type"] != "match.changed":
                continue
            board_reads.forget()
            fresh = board_reads.current(match.pk, at_least=None)
            assert fresh is not None and fresh.version == notice["version"]
            made = board_reads.advance(held, notice)
            if made is None:
                fresh_reads += 1
                held = board_reads.current(match.pk, at_least=None)  # what the hub does: one read
                continue
            derived += 1
            assert fields(made) == fields(fresh)
            assert pages(made, alice) == pages(fresh, alice)
            held = made
    # Most versions were derived, and the others (undo, redo, restart, rounds) read afresh.
    assert derived > steps // 2 and fresh_reads > 0


# ---------------------------------------------------------------- connections and hubs


class Page:
    """A connection's page: every frame its hub sent it, applied as table.js applies them."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.frames: list[dict[str, Any]] = []
        self.board: dict[str, Any] | None = None
        self.blocked: asyncio.Event | None = None

        async def base_send(message: dict[str, Any]) -> None:
            if self.blocked is not None:
                await self.blocked.wait()  # a socket that never takes its frames
            frame = json.loads(message["text"])
            self.frames.append(frame)
            if frame.get("type") == "board":
                self.board = frame
            elif frame.get("type") == "update":
                self.board = frames.as_board(self.board, frame)

        async def close(code: int | None = None) -> None:
            self.closed = code

        conn.base_send = base_send
        conn.close = close
        self.closed: int | None = None

    @property
    def version(self) -> int:
        return -1 if self.board is None else int(self.board["version"])


async def open_page(station: hub.Station, match_id: int, user: Any) -> Page:
    conn = table_consumer(match_id, user)
    page = Page(conn)
    h = await station.join(conn)
    conn.hub = h
    await h.board(conn, whole=True)
    return page


async def settle(pages_: list[Page], version: int) -> None:
    for _ in range(2000):
        if all(p.version >= version for p in pages_):
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"pages at {[p.version for p in pages_]}, not {version}")


def fresh_html(match_id: int, conn: Any) -> str:
    board_reads.forget()
    reads = board_reads.current(match_id, at_least=None)
    assert reads is not None
    return board.match_page(match=reads.match, viewer=conn.viewer(reads.match), reads=reads).html()


@pytest.mark.slow
@pytest.mark.asyncio
@pytest.mark.parametrize("split", [False, True], ids=["one hub", "two hubs"])
async def test_every_connections_page_equals_a_fresh_render_at_every_version(
    split: bool, alice: Any, bob: Any, carol: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three people and two spectators; with `split`, two processes' hubs (two stations, each
    told of every version, as the layer would) each hold half the table."""
    rng = random.Random(7)
    users = [alice, bob, carol]

    def make() -> Match:
        m = seeded.match_create(
            creator=alice, seats=[spec("me"), spec("human"), spec("human")], seed=77
        )
        for u in (bob, carol):
            services.seat_join(match_id=m.pk, user=u, token=m.invite_token)
        return Match.objects.get(pk=m.pk)

    match = await db(make)
    here, there = hub.Station(), hub.Station()
    told: list[dict[str, Any]] = []
    monkeypatch.setattr(notify, "hub_sink", lambda match_id, message: told.append(message))
    people = [
        await open_page(here if not split or i % 2 == 0 else there, match.pk, u)
        for i, u in enumerate(users)
    ]
    # Two spectators in a hub: the second one is given the first one's frame (Consumer.watched).
    watchers = [
        await open_page(there if split else here, match.pk, AnonymousUser()) for _ in range(2)
    ]
    everyone = [*people, *watchers]
    hubs = {here.hubs[match.pk], *([there.hubs[match.pk]] if split else [])}
    for _ in range(45):
        told.clear()
        await db(step, match.pk, users, rng, (0.01, 0.02, 0.025))
        for notice in told:
            for h in hubs:
                h.notice(notice)
        version = await db(lambda: Match.objects.get(pk=match.pk).version)
        await settle(everyone, version)
        for p in everyone:
            assert p.board is not None and p.board["html"] == await db(
                fresh_html, match.pk, p.conn
            ), p.conn.user
    assert all(h.derived > 15 for h in hubs)
    for h in hubs:
        await h.close()


def table_event(match_id: int, users: list[Any], rng: random.Random) -> str:
    """Something that is no move, now and then between moves: a person's last page closing or
    their first one opening (the others' dots, `notify.match_seats`), an answer to the change
    asked of the others (accepted or declined: games.consent), or nothing. What it did."""
    from games.attendance import presence
    from games.models import ChangeRequest, Presence

    asked = ChangeRequest.objects.filter(match_id=match_id, status="open").first()
    roll = rng.random()
    if asked is not None and roll < 0.5:
        answerers = [u for u in users if u.pk != asked.asked_by_id and u.pk not in asked.accepted]
        if answerers:
            try:
                services.change_answer(
                    match_id=match_id,
                    user=rng.choice(answerers),
                    ask=asked.pk,
                    accept=rng.random() < 0.6,
                    request_id=rid(),
                )
            except GameError:
                pass  # closed meanwhile: nothing changed
            return "answer"
    if roll < 0.8:
        user = rng.choice(users)
        channel = f"test-page-{user.pk}"
        if Presence.objects.filter(match_id=match_id, channel=channel, closed=False).exists():
            presence.closed(match_id=match_id, channel=channel)
        else:
            presence.opened(match_id=match_id, user=user, channel=channel)
        notify.match_seats(match_id)
        return "presence"
    return ""


async def drained(hubs_: set[hub.Hub], pages_: list[Page]) -> None:
    """Every job the hubs were given is done and every frame they queued was taken by its page
    (a notice of the same version, such as a presence change, raises no page's version)."""
    for h in hubs_:
        conn = next(iter(h.outboxes))
        await h.board(conn, newer_than=h.version, version=h.version)  # after the jobs before it
    for _ in range(2000):
        if all(box.waiting() == 0 for h in hubs_ for box in h.outboxes.values()):
            await asyncio.sleep(0)  # the last frame taken is applied
            return
        await asyncio.sleep(0.005)
    raise AssertionError("frames still waiting")


@pytest.mark.slow
@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("kinds", "split"),
    [
        (("me", "human", "human"), True),
        (("me", "human", "local", "computer", "human"), False),
    ],
    ids=["three people, two hubs", "five seats, one hub"],
)
async def test_pages_equal_a_fresh_render_with_presence_answers_and_chat_mixed_in(
    kinds: tuple[str, ...],
    split: bool,
    alice: Any,
    bob: Any,
    carol: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Moves, undo, redo and restarts asked of the others and answered, people's pages closing
    and opening (the dots by their names), table talk sent in between: after each, every page
    made of its hub's frames equals a fresh render from a fresh read, for every seat and a
    spectator, at one hub or split over two."""
    rng = random.Random(len(kinds) * 31 + split)
    people = [alice, bob, carol][: kinds.count("me") + kinds.count("human")]

    def make() -> Match:
        m = seeded.match_create(
            creator=alice, seats=[spec(k) for k in kinds], seed=300 + len(kinds)
        )
        for u in people[1:]:
            services.seat_join(match_id=m.pk, user=u, token=m.invite_token)
        return Match.objects.get(pk=m.pk)

    match = await db(make)
    here, there = hub.Station(), hub.Station()
    told: list[dict[str, Any]] = []
    monkeypatch.setattr(notify, "hub_sink", lambda match_id, message: told.append(message))
    pages_ = [
        await open_page(here if not split or i % 2 == 0 else there, match.pk, u)
        for i, u in enumerate(people)
    ]
    pages_.append(await open_page(there if split else here, match.pk, AnonymousUser()))
    hubs_ = {here.hubs[match.pk], *([there.hubs[match.pk]] if split else [])}
    events: list[str] = []
    for n in range(40):
        told.clear()
        await db(step, match.pk, people, rng, (0.06, 0.09, 0.12))
        events.append(await db(table_event, match.pk, people, rng))
        if n % 5 == 0:
            for h in hubs_:
                h.broadcast({"type": "chat", "n": n})
        for notice in told:
            for h in hubs_:
                h.notice(notice)
        version = await db(lambda: Match.objects.get(pk=match.pk).version)
        await settle(pages_, version)
        await drained(hubs_, pages_)
        for p in pages_:
            assert p.board is not None and p.board["html"] == await db(
                fresh_html, match.pk, p.conn
            ), (n, events[-1], p.conn.user)
    assert {"presence", "answer"} <= set(events)
    assert all(any(f.get("type") == "chat" for f in p.frames) for p in pages_)
    for h in hubs_:
        await h.close()


@pytest.mark.asyncio
async def test_a_slow_client_holds_up_nobody_and_is_resynced(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def make() -> Match:
        m = seeded.match_create(creator=alice, seats=[spec("me"), spec("human")], seed=5)
        services.seat_join(match_id=m.pk, user=bob, token=m.invite_token)
        return Match.objects.get(pk=m.pk)

    match = await db(make)
    monkeypatch.setattr(hub, "OUTBOX_LIMIT", 4)
    station = hub.Station()
    told: list[dict[str, Any]] = []
    monkeypatch.setattr(notify, "hub_sink", lambda match_id, message: told.append(message))
    fast = await open_page(station, match.pk, alice)
    slow = await open_page(station, match.pk, AnonymousUser())
    other = await open_page(station, match.pk, bob)
    slow.blocked = asyncio.Event()  # from here on its socket takes nothing
    h = station.hubs[match.pk]
    h.outboxes[slow.conn].limit = 4
    rng = random.Random(3)
    for _ in range(12):
        told.clear()
        await db(step, match.pk, [alice, bob], rng)
        for notice in told:
            h.notice(notice)
        version = await db(lambda: Match.objects.get(pk=match.pk).version)
        await settle([fast, other], version)  # never waits for the slow one
    assert slow.version < fast.version
    box = h.outboxes[slow.conn]
    assert box.resyncs > 0 and box.waiting() <= 4
    # Its socket takes frames again: it catches up with a whole board, not the updates it missed.
    slow.blocked.set()
    await settle([slow], fast.version)
    assert [f["type"] for f in slow.frames].count("board") >= 2  # the first board, then a resync's
    assert slow.board is not None and slow.board["html"] == await db(
        fresh_html, match.pk, slow.conn
    )
    await h.close()


@pytest.mark.asyncio
async def test_broadcast_reaches_its_audience_in_order(alice: Any, bob: Any) -> None:
    def make() -> Match:
        m = seeded.match_create(creator=alice, seats=[spec("me"), spec("human")], seed=5)
        services.seat_join(match_id=m.pk, user=bob, token=m.invite_token)
        return Match.objects.get(pk=m.pk)

    match = await db(make)
    station = hub.Station()
    a, b = await open_page(station, match.pk, alice), await open_page(station, match.pk, bob)
    w = await open_page(station, match.pk, AnonymousUser())
    h = station.hubs[match.pk]
    assert h.broadcast({"type": "chat", "n": 1}, "players") == 2
    assert h.broadcast({"type": "chat", "n": 2}, "spectators") == 1
    assert h.broadcast({"type": "chat", "n": 3}) == 3
    with pytest.raises(ValueError):
        h.broadcast({"type": "chat"}, "nobody")
    # Through the layer too, as another process (or games/chat) would send it.
    await get_channel_layer().group_send(
        notify.match_group(match.pk),
        {
            "type": "hub.broadcast",
            "match": match.pk,
            "frame": {"type": "chat", "n": 4},
            "audience": "all",
        },
    )
    for _ in range(400):
        if all(any(f.get("n") == 4 for f in p.frames) for p in (a, b, w)):
            break
        await asyncio.sleep(0.005)
    chat = [[f["n"] for f in p.frames if f.get("type") == "chat"] for p in (a, b, w)]
    assert chat == [[1, 3, 4], [1, 3, 4], [2, 3, 4]]
    await h.close()


@pytest.mark.asyncio
async def test_nothing_on_the_channel_layer_names_a_tile_off_the_table(
    alice: Any, bob: Any
) -> None:
    """R24: what goes through the layer (every process would get it) is public: the
    notices' entries name only tiles played onto the table; a draw names none."""

    def make() -> Match:
        m = seeded.match_create(
            creator=alice, seats=[spec("me"), spec("human"), spec("computer")], seed=9
        )
        services.seat_join(match_id=m.pk, user=bob, token=m.invite_token)
        return Match.objects.get(pk=m.pk)

    match = await db(make)
    layer = get_channel_layer()
    sent: list[dict[str, Any]] = []
    real = layer.group_send

    async def spy(group: str, message: dict[str, Any]) -> None:
        sent.append(message)
        await real(group, message)

    layer.group_send = spy
    rng = random.Random(11)
    drew = 0
    try:
        for _ in range(80):
            before = len(sent)
            await db(step, match.pk, [alice, bob], rng)
            state = await db(state_of, match.pk)
            on_table = {tuple(sorted(t)) for train in state.trains for t in train.tiles}
            for message in sent[before:]:
                assert tiles_in(json.dumps(message)) <= on_table, message
                for entry in message.get("entries", ()):
                    drew += entry[5].get("act") == "draw"
                    assert entry[5].get("act") != "draw" or "tile" not in entry[5]
    finally:
        layer.group_send = real
    assert any(m.get("entries") for m in sent) and drew > 0


@pytest.mark.asyncio
async def test_with_the_in_memory_layer_a_notice_its_hub_was_told_goes_no_further(
    make_match: Any, alice: Any, connect: Any
) -> None:
    """The in-memory layer reaches this process only, whose hub was told of its own changes
    directly: a change at a table this process's hub holds sends nothing on the layer (the
    hop from the service's thread to the loop is saved), and its page still gets the board.
    A table no hub here holds is still told through the layer (the test above)."""
    from tests.games.table.socket.test_commands import play_my_move, to_my_turn

    match = await db(make_match, "me", "computer")
    await to_my_turn(match.pk)
    me = await connect(match, alice)
    layer = get_channel_layer()
    sent: list[str] = []
    real = layer.group_send

    async def spy(group: str, message: dict[str, Any]) -> None:
        sent.append(group)
        await real(group, message)

    layer.group_send = spy
    try:
        version = me.version
        await play_my_move(match.pk, alice, version)
        await me.catch_up(version + 1)
    finally:
        layer.group_send = real
    assert notify.match_group(match.pk) not in sent


@pytest.fixture
def redis_layer(settings: Any) -> str:
    """The Redis channel layer (skipped without Redis, except under CI=true), a prefix of its own."""
    import uuid

    url = redis_url()
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "tablesite.layers.TableRedisChannelLayer",
            "CONFIG": {"hosts": [url], "prefix": f"test-{uuid.uuid4().hex[:8]}"},
        }
    }
    return url


@pytest.mark.asyncio
async def test_through_redis_one_membership_per_process_and_only_public_entries(
    redis_layer: str, alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes' stations on a real Redis layer: the match's group holds one member per
    process however many connections each has; a move made elsewhere (the worker: no hub
    of its own) reaches both hubs through Redis, which derive it; what crossed Redis names
    only tiles on the table (R24)."""
    import redis.asyncio as aioredis

    def make() -> Match:
        m = seeded.match_create(creator=alice, seats=[spec("me"), spec("human")], seed=13)
        services.seat_join(match_id=m.pk, user=bob, token=m.invite_token)
        return Match.objects.get(pk=m.pk)

    match = await db(make)
    monkeypatch.setattr(notify, "hub_sink", None)  # the moves come from "another process"
    layer = get_channel_layer()
    sent: list[dict[str, Any]] = []
    real = layer.group_send

    async def spy(group: str, message: dict[str, Any]) -> None:
        sent.append(message)
        await real(group, message)

    monkeypatch.setattr(layer, "group_send", spy)
    a, b = hub.Station(), hub.Station()
    pages_a = [await open_page(a, match.pk, u) for u in (alice, bob, AnonymousUser())]
    pages_b = [await open_page(b, match.pk, AnonymousUser())]
    monkeypatch.setattr(notify, "hub_sink", None)  # joining installed it: off again
    client = aioredis.from_url(redis_layer)
    try:
        members = await client.zcard(f"{layer.prefix}:group:{notify.match_group(match.pk)}")
    finally:
        await client.aclose()
    assert members == 2
    rng = random.Random(17)
    for _ in range(12):
        await db(step, match.pk, [alice, bob], rng, (0.0, 0.0, 0.0))
        version = await db(lambda: Match.objects.get(pk=match.pk).version)
        await settle([*pages_a, *pages_b], version)
        state = await db(state_of, match.pk)
        on_table = {tuple(sorted(t)) for train in state.trains for t in train.tiles}
        for message in sent:
            assert tiles_in(json.dumps(message)) <= on_table, message
    for p in [*pages_a, *pages_b]:
        assert p.board is not None and p.board["html"] == await db(fresh_html, match.pk, p.conn)
    assert a.hubs[match.pk].derived > 5 and b.hubs[match.pk].derived > 5
    for s in (a, b):
        await s.hubs[match.pk].close()


class _LayerThatSwallowsCancels:
    """A channel layer whose `receive`, when cancelled, raises an error of its own, as
    channels-redis's does with a retry policy when the loop closes under it."""

    def __init__(self) -> None:
        self.receives = 0

    async def receive(self, channel: str) -> dict[str, Any]:
        self.receives += 1
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            raise ConnectionError("Connection closed by server.") from None
        return {}

    async def group_add(self, group: str, channel: str) -> None:
        return None


@pytest.mark.asyncio
async def test_the_listener_stops_when_cancelled_even_if_the_layer_turns_it_into_an_error() -> None:
    """A loop's shutdown cancels the station's listener once; it must end, not wait for
    the layer again (a daphne's stop, or a test's loop, would hang for ever)."""
    station = hub.Station()
    station.layer = _LayerThatSwallowsCancels()  # type: ignore[assignment]
    station.channel = "hub-test"
    task = asyncio.get_running_loop().create_task(station._listen())
    await asyncio.sleep(0.05)
    task.cancel()
    done, _ = await asyncio.wait([task], timeout=2.0)
    assert task in done and task.cancelled()
    assert station.layer.receives == 1  # type: ignore[attr-defined]


def test_an_update_that_changes_nothing_on_its_own_version_is_not_made(
    alice: Any, bob: Any
) -> None:
    """Asked for changes only (what the hub asks when a pause or a seat's dot makes it read the
    same version again), a board that did not change is no frame at all; asked otherwise (the
    board after a refusal) it is an update of nothing; a change at the same version (a pause)
    is an update. For players and spectators alike, the spectators' shared frame included."""
    m = seeded.match_create(
        creator=alice, seats=[spec("me"), spec("human"), spec("computer")], seed=5
    )
    services.seat_join(match_id=m.pk, user=bob, token=m.invite_token)
    version = Match.objects.get(pk=m.pk).version
    player, watcher, other = (table_consumer(m.pk, u) for u in (alice, AnonymousUser(), None))
    for conn in (player, watcher, other):
        assert conn.made_board(whole=True)["type"] == "board"  # type: ignore[index]
    for conn in (player, watcher):
        assert conn.made_board(at_least=version, changes_only=True) is None
    for conn in (player, other):  # `other` shares the spectators' frame `watcher` had made
        empty = conn.made_board(at_least=version)
        assert empty is not None and empty["type"] == "update"
        assert empty["v"] == empty["base"] == version
        assert not (empty["parts"] or empty.get("edits") or empty.get("board") or empty["events"])
    services.pause_open(match_id=m.pk, user=alice, channel="the rules panel")
    for conn in (player, watcher):
        paused = conn.made_board(changes_only=True)
        assert paused is not None and paused["type"] == "update" and paused["v"] == version
        assert paused["parts"] or paused.get("edits") or paused.get("board")
