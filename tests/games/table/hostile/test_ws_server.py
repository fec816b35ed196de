"""Hostile websocket clients against a real daphne process (a real socket, real handshakes).

- the handshake from another origin (or none, or ``null``, or a look-alike host, or
  this host with another scheme or port) is refused with 403 before any consumer
  runs; the same origin is accepted;
- a stranger, an anonymous visitor and a wrong watch token are closed with 4403;
- garbage frames (bytes, broken JSON, wrong types, 1,500 nested ``[``) each get an error
  and the connection stays open; a frame over the table's 4 kB limit (in bytes, as
  the server counts them) is refused by the server itself (tablesite/server.py) with
  close code 1009 ("oversize → close 1009"), just over the limit, over
  daphne's stock 1 MiB limit, and split into small frames that only together pass
  it, alike; nothing else happens, and a pause held by such a connection ends with it;
- another player's seat and a stale version are refused over the wire too (the fuzz in
  test_ws_fuzz.py covers the rest in-process); nothing changes in the match.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from engine.bots import choose
from engine.views import view
from games import services
from games.models import Pause
from games.table.protocol import MAX_FRAME
from tests.games.table.hostile.test_ws_fuzz import state_now
from tests.games.table.socket.conftest import db, rid, state_of
from tests.servers import Processes, TableSocket, session_cookie

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True), pytest.mark.slow]


async def wait_pauses(match_id: int, count: int, timeout: float = 10.0) -> None:
    import asyncio
    import time

    end = time.monotonic() + timeout
    while await db(lambda: Pause.objects.filter(match_id=match_id).count()) != count:
        assert time.monotonic() < end, f"not {count} pauses within {timeout}s"
        await asyncio.sleep(0.05)


async def refused_handshake(sock: TableSocket) -> int:
    with pytest.raises(InvalidStatus) as caught:
        await sock.open()
    return int(caught.value.response.status_code)


async def closed_with(sock: TableSocket) -> int | None:
    """Connect and wait for the server to close: the close code."""
    await sock.open()
    with pytest.raises(ConnectionClosed) as caught:
        await sock.recv(timeout=10)
    return caught.value.rcvd.code if caught.value.rcvd is not None else None


async def test_origins_strangers_garbage_and_huge_frames_on_a_real_server(
    procs: Processes, make_match: Any, alice: Any, bob: Any, carol: Any
) -> None:
    match = await db(make_match, "me", "human", "computer")
    await db(services.seat_join, match_id=match.pk, user=bob, token=match.invite_token)
    server = await db(
        procs.daphne, computer_delay=3600
    )  # the computer stays put: nothing moves by itself
    alice_cookie = await db(session_cookie, alice)

    # Cross-origin handshakes: refused before the consumer runs (403), whoever's cookie they carry.
    for origin in [
        "http://evil.example",
        "https://evil.example",
        "null",
        "http://127.0.0.1.evil.example",
        "http://localhost.evil.example:8000",
        "file://",
        f"https://127.0.0.1:{server.port}",  # The scheme counts
        f"http://127.0.0.1:{server.port + 1}",  # and the port
        "http://127.0.0.1",
    ]:
        sock = TableSocket(server, match.pk, cookie=alice_cookie, origin=origin, name=origin)
        assert await refused_handshake(sock) == 403, origin
    no_origin = TableSocket(server, match.pk, cookie=alice_cookie, origin="", name="no origin")
    no_origin.origin = None  # type: ignore[assignment]
    assert await refused_handshake(no_origin) == 403
    # The same origin (either loopback name the server is allowed to be) is accepted.
    for origin in [server.url, f"http://localhost:{server.port}"]:
        sock = TableSocket(server, match.pk, cookie=alice_cookie, origin=origin)
        await sock.open()
        assert (await sock.expect("board"))["version"] >= 1
        await sock.close()

    # Strangers: closed with 4403 (a match that does not exist looks the same).
    carol_cookie = await db(session_cookie, carol)
    for sock in [
        TableSocket(server, match.pk, cookie=carol_cookie),
        TableSocket(server, match.pk),
        TableSocket(server, match.pk, watch="not-the-token"),
        TableSocket(server, match.pk + 999, cookie=alice_cookie),
    ]:
        assert await closed_with(sock) == 4403

    # Garbage on a player's connection: one error each, the connection survives.
    before = await db(state_now, match.pk)
    me = TableSocket(server, match.pk, cookie=alice_cookie, name="alice")
    await me.open()
    await me.expect("board")
    garbage: list[str | bytes] = [
        b"\x00\x01\x02",
        b'{"type": "sync"}',
        "{",
        "[]",
        "null",
        '"sync"',
        json.dumps({"type": "act"}),
        json.dumps({"type": "sync", "as": "bob"}),
        json.dumps({"type": "sync", "pad": "x" * 4000}),
        "\u2603" * 1300,  # 3,900 bytes: under the limit, which counts bytes
        "[" * 1500,  # RecursionError, 1011 and a pause left behind
        '{"a":' * 800,
    ]
    for frame in garbage:
        await me.send_raw(frame)
        error = await me.expect("error")
        assert error["code"] == "bad_request" and error["message"], frame[:40]
    await me.send(type="sync")
    assert (await me.expect("board"))["version"] == before[0]

    # Someone else's seat, a stale version: refused, nothing applied.
    state = await db(state_of, match.pk)
    seat = state.turn if state.turn in (0, 1) else 0
    action = (
        choose(view(state, seat), "casual").to_json() if state.turn == seat else {"act": "draw"}
    )
    version = me.version
    await me.send(type="act", seat=1, action=action, version=version, request_id=rid())
    assert (await me.expect("error"))["code"] == "forbidden"
    await me.expect("board")
    await me.send(type="act", seat=0, action=action, version=version - 1, request_id=rid())
    assert (await me.expect("error"))["code"] == "stale"
    await me.expect("board")
    assert await db(state_now, match.pk) == before

    # Over the table's limit, with the rules open: the server closes with 1009 ("message too
    # big") and the connection's clean-up ends its pause — just over the limit (also when the
    # characters are few but the bytes many), over daphne's stock 1 MiB limit, and a message
    # sent in small frames that only together pass it (small ones and many of them).
    await me.close()
    assert MAX_FRAME < 1024 * 1024
    oversize: list[str | bytes | list[str]] = [
        json.dumps({"type": "sync", "pad": "x" * MAX_FRAME}),
        "\u2603" * (MAX_FRAME // 3 + 1),  # fewer characters than MAX_FRAME, more bytes
        b"\x00" * (MAX_FRAME + 1),
        json.dumps({"type": "sync", "pad": "x" * (1024 * 1024 + 10)}),
        ["x" * (MAX_FRAME // 2)] * 3,
        ["x" * 1000] * 1100,  # 1.1 MB in 1 kB frames
    ]
    for frame in oversize:
        me = TableSocket(server, match.pk, cookie=alice_cookie, name="alice")
        await me.open()
        await me.expect("board")
        await me.send(type="panel", open=True)
        await wait_pauses(match.pk, 1)
        await me.send_raw(frame)  # type: ignore[arg-type]  # a list is sent as fragments
        with pytest.raises(ConnectionClosed) as caught:
            while True:
                await me.recv(timeout=10)
        assert caught.value.rcvd is not None and caught.value.rcvd.code == 1009, (
            str(frame)[:40],
            caught.value,
        )
        await wait_pauses(match.pk, 0)
        assert await db(state_now, match.pk) == before
    again = TableSocket(server, match.pk, cookie=alice_cookie)
    await again.open()
    assert (await again.expect("board"))["version"] == before[0]
    await again.close()
