"""Who may connect, and what each connection is shown (R24): its own hand only, none for
spectators, none under the pass-and-play relay cover; every hand once the round is over (R21)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.bots import choose
from engine.state import RoundState
from engine.tiles import Tile
from engine.views import view
from games import services
from games.models import Match
from tests import frames
from tests.games.table.socket.conftest import (
    Browser,
    covered,
    db,
    hand_tiles,
    phase_of,
    rid,
    seat_of,
    snapshot,
    state_of,
    tiles_in,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def duo_with_computer(make_match: Any, bob: Any) -> Match:
    """alice (seat 0) and bob (seat 1), who joins the free seat, and a computer (seat 2)."""
    match = make_match("me", "human", "computer")
    services.seat_join(match_id=match.pk, user=bob, token=match.invite_token)
    match.refresh_from_db()
    return match


def spoken(tile: Tile) -> str:
    return f"{max(tile)}-{min(tile)}"


async def play_one(match_id: int, state: RoundState, browsers: dict[int, Browser]) -> None:
    """Whoever is to act acts: a person through their websocket, the computer through its service."""
    seat = state.turn
    assert seat is not None
    if seat not in browsers:
        assert await db(services.computer_step, match_id=match_id) is not None
        return
    me = browsers[seat]
    action = choose(view(state, seat), "casual")
    await me.send(
        type="act", seat=seat, action=action.to_json(), version=me.version, request_id=rid()
    )
    ack = await me.expect("ack")
    assert ack["duplicate"] is False


def assert_no_leak(browser: Browser, own: int | None, states: dict[int, RoundState]) -> int:
    """No frame of `browser` names a tile in another seat's hand while the round runs.

    Both what was sent (a whole board, or an update frame: its events and changed parts)
    and the page the updates make (applied in order, as the browser does) are checked.
    Returns the number of boards checked. The detector is proved on the way: every tile
    of the connection's own hand is found on its page."""
    checked = 0
    page: dict[str, Any] | None = None
    for raw in browser.frames:
        message = json.loads(raw)
        if message["type"] == "update":
            sent = tiles_in("\n".join(frames.frame_texts(message)))
            message = frames.as_board(page, message)
        elif message["type"] == "board":
            sent = tiles_in(message)
        else:
            continue
        page = message
        state = states[message["version"]]
        found = tiles_in(message)
        # Everyone knows who holds the engine double until it is placed (R6, R7).
        public = {(state.engine, state.engine)}
        if state.over:
            assert phase_of(message) in ("round_over", "match_over")
            for hand in state.hands:  # R21: every hand is face up now
                assert set(hand) <= found
            continue
        for seat, hand in enumerate(state.hands):
            if seat == own:
                assert set(hand) <= found, "the detector must see the connection's own hand"
                assert sorted(hand_tiles(message)) == sorted(spoken(t) for t in hand)
            else:
                who = f"seat {own}" if own is not None else "a spectator"
                assert not (set(hand) - public) & found, f"seat {seat}'s tiles reached {who}"
                assert not (set(hand) - public) & sent, f"seat {seat}'s tiles were sent to {who}"
        if own is None:
            assert hand_tiles(message) == [] and seat_of(message) is None
        checked += 1
    return checked


async def test_r24_each_seat_sees_only_its_own_hand_and_spectators_none(
    make_match: Any, alice: Any, bob: Any, connect: Any
) -> None:
    match = await db(duo_with_computer, make_match, bob)
    a = await connect(match, alice)
    b = await connect(match, bob)
    spectator = await connect(match, watch=match.watch_token)
    assert (seat_of(a.last_board), seat_of(b.last_board), seat_of(spectator.last_board)) == (
        0,
        1,
        None,
    )
    states: dict[int, RoundState] = {}
    for _ in range(1000):
        match_state = await db(state_of, match.pk)
        version = a.version
        states[version] = match_state
        if match_state.over:
            break
        await play_one(match.pk, match_state, {0: a, 1: b})
        for browser in (a, b, spectator):
            board = await browser.board(at_least=version + 1)
            assert (
                board["version"] == version + 1
            )  # every change reaches every connection, in order
    else:
        raise AssertionError("the round did not end")
    checked = [
        assert_no_leak(a, 0, states),
        assert_no_leak(b, 1, states),
        assert_no_leak(spectator, None, states),
    ]
    assert (
        min(checked) == len(states) - 1
    )  # every version, on every connection, before the round ended
    assert await a.quiet() and await b.quiet() and await spectator.quiet()


async def test_two_players_each_get_their_own_board_after_a_move(
    make_match: Any, alice: Any, bob: Any, connect: Any
) -> None:
    match = await db(duo_with_computer, make_match, bob)
    a = await connect(match, alice)
    b = await connect(match, bob)
    state = await db(state_of, match.pk)
    while state.turn == 2:
        await db(services.computer_step, match_id=match.pk)
        state = await db(state_of, match.pk)
    mover, other = (a, b) if state.turn == 0 else (b, a)
    seat = state.turn
    version = (await db(snapshot, match.pk))[0]
    action = choose(view(state, seat), "casual")
    await mover.catch_up(version)
    await other.catch_up(version)
    await mover.send(
        type="act", seat=seat, action=action.to_json(), version=version, request_id=rid()
    )
    assert (await mover.expect("ack"))["version"] == version + 1
    mine, theirs = await mover.expect("board"), await other.expect("board")
    assert mine["version"] == theirs["version"] == version + 1
    after = await db(state_of, match.pk)
    assert seat_of(mine) == seat and seat_of(theirs) == 1 - seat
    assert sorted(hand_tiles(mine)) == sorted(spoken(t) for t in after.hands[seat])
    assert sorted(hand_tiles(theirs)) == sorted(spoken(t) for t in after.hands[1 - seat])
    assert mine["html"] != theirs["html"]
    assert await mover.quiet() and await other.quiet()  # one board each per change


async def test_a_stranger_is_refused_and_learns_nothing(
    make_match: Any, alice: Any, carol: Any, connect: Any
) -> None:
    from channels.testing import WebsocketCommunicator

    from tablesite.asgi import application

    match = await db(make_match, "me", "computer")
    refused = []
    for user, path in [
        (carol, f"/ws/m/{match.pk}/"),
        (None, f"/ws/m/{match.pk}/"),
        (carol, f"/ws/m/{match.pk}/?watch=wrong"),
        (None, f"/ws/m/{match.pk}/?watch="),
        (alice, f"/ws/m/{match.pk + 1000}/"),
    ]:
        headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
        if user is not None:
            from tests.games.table.socket.conftest import session_cookie

            headers.append((b"cookie", f"sessionid={await db(session_cookie, user)}".encode()))
        communicator = WebsocketCommunicator(application, path, headers=headers)
        await communicator.connect(timeout=10)
        closing = await communicator.receive_output(timeout=10)
        refused.append((closing["type"], closing.get("code")))
        assert await communicator.receive_nothing(0.1)
        await communicator.disconnect(code=4403, timeout=10)  # the browser answers the close
    assert refused == [("websocket.close", 4403)] * 5


async def test_a_page_from_another_origin_cannot_connect(
    make_match: Any, alice: Any, connect: Any
) -> None:
    from channels.testing import WebsocketCommunicator

    from tablesite.asgi import application
    from tests.games.table.socket.conftest import session_cookie

    match = await db(make_match, "me", "computer")
    communicator = WebsocketCommunicator(
        application,
        f"/ws/m/{match.pk}/",
        headers=[
            (b"origin", b"https://evil.example"),
            (b"host", b"testserver"),
            (b"cookie", f"sessionid={await db(session_cookie, alice)}".encode()),
        ],
    )
    connected, _ = await communicator.connect(timeout=10)
    assert not connected


async def test_spectators_with_the_watch_token_or_as_creator_see_no_hand(
    make_match: Any, alice: Any, bob: Any, carol: Any, connect: Any
) -> None:
    # alice created the match and holds no seat: she may watch without the token, like bob with it.
    match = await db(make_match, "computer", "human", creator=alice)
    await db(services.seat_join, match_id=match.pk, user=carol, token=match.invite_token)
    state = await db(state_of, match.pk)
    creator = await connect(match, alice)
    watcher = await connect(match, bob, watch=match.watch_token)
    anonymous = await connect(match, watch=match.watch_token)
    for browser in (creator, watcher, anonymous):
        board = browser.last_board
        assert board is not None and hand_tiles(board) == [] and seat_of(board) is None
        engine = {(state.engine, state.engine)}  # R6: everyone knows who holds it
        assert not (set(state.hands[0] + state.hands[1]) - engine) & tiles_in(board["html"])
        assert board["your_turn"] is False


async def test_reconnecting_gets_the_current_board(
    make_match: Any, alice: Any, connect: Any
) -> None:
    match = await db(make_match, "me", "computer", "computer")
    first = await connect(match, alice)
    seen = first.version
    await first.communicator.disconnect()
    changed = 0
    while changed < 3:  # the table moves on while alice is away
        state = await db(state_of, match.pk)
        if state.turn == 0:
            action = choose(view(state, 0), "casual")
            await db(
                services.action_submit,
                match_id=match.pk,
                user=alice,
                seat=0,
                action=action.to_json(),
                expected_version=seen + changed,
                request_id=rid(),
            )
        else:
            await db(services.computer_step, match_id=match.pk)
        changed += 1
    again = await connect(match, alice)
    now = (await db(snapshot, match.pk))[0]
    assert again.version == now == seen + 3
    await again.send(type="sync")
    assert (await again.expect("board"))["version"] == now


# ---------------------------------------------------------------- pass-and-play relay (R24)


async def test_r24_relay_cover_hides_every_hand_until_show_my_tiles(
    make_match: Any, alice: Any, connect: Any
) -> None:
    match = await db(make_match, "me", "local:Ana", "computer")
    device = await connect(match, alice)
    covers: list[int] = []
    shown: list[int] = []
    for _ in range(60):
        state = await db(state_of, match.pk)
        board = device.last_board
        assert board is not None and board["version"] == (await db(snapshot, match.pk))[0]
        if state.over:
            break
        cover = covered(board)
        engine = {(state.engine, state.engine)}  # R6: everyone knows who holds it
        if cover is not None:
            # Nothing of either hand is in the page while the cover is up.
            assert cover == state.turn and hand_tiles(board) == [] and seat_of(board) is None
            assert not (set(state.hands[0] + state.hands[1]) - engine) & tiles_in(board["html"])
            assert board["your_turn"] is False
            covers.append(cover)
            other = 1 - cover
            before = await db(snapshot, match.pk)
            await device.send(type="hint", seat=cover)  # no hint through the cover either
            assert (await device.expect("error"))["code"] == "bad_request"
            await device.expect("board")
            await device.send(type="reveal", seat=other)  # only the seat whose turn it is
            assert (await device.expect("error"))["code"] == "bad_request"
            assert covered(await device.expect("board")) == cover
            await device.send(type="reveal", seat=2)  # the computer's seat is not alice's
            assert (await device.expect("error"))["code"] == "forbidden"
            assert covered(await device.expect("board")) == cover
            assert await db(snapshot, match.pk) == before
            await device.send(type="reveal", seat=cover)
            board = await device.expect("board")
            assert covered(board) is None and seat_of(board) == cover and board["your_turn"] is True
            assert sorted(hand_tiles(board)) == sorted(spoken(t) for t in state.hands[cover])
            assert not (set(state.hands[other]) - engine) & tiles_in(board["html"])
            shown.append(cover)
        elif state.turn in (0, 1):
            # The same player again (a double, a chain, an end): no cover in between.
            assert seat_of(board) == state.turn
            assert not (set(state.hands[1 - state.turn]) - engine) & tiles_in(board["html"])
        else:
            assert hand_tiles(board) == [] or seat_of(board) in (0, 1)
            if seat_of(board) is not None:
                assert not (set(state.hands[1 - seat_of(board)]) - engine) & tiles_in(board["html"])
        version = device.version
        await play_one(match.pk, state, {0: device, 1: device})
        await device.board(at_least=version + 1)
    assert {0, 1} <= set(covers) and covers == shown
    assert len(covers) >= 3  # the cover came back each time the device changed hands
