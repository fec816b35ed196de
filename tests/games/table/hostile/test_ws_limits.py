"""No frame a viewer sends can crash the table's socket or leave a pause.

bob is seated at alice's match with a computer (seat 2) and has the rules open, so his
connection pauses the computers (R26). Whatever he sends:

- a frame over `protocol.MAX_FRAME` closes his connection with `protocol.TOO_BIG`;
- a frame nested deeper than `protocol.MAX_DEPTH` (1,500 ``[`` raised RecursionError in
  the decoder: the socket closed with 1011, its clean-up skipped, the pause left for
  ten minutes) gets an error and the connection stays;
- the application never fails (what daphne reports as 1011), and once the connection
  is gone, however it ended, no pause of his is left.

Hypothesis sends frames of up to 2 MiB and nesting up to 10,000 (any bracket mix,
inside and outside strings) straight to the application (no daphne limit in front).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import pytest_asyncio
from channels.testing import WebsocketCommunicator
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import services
from games.models import Pause
from games.table import consumers, protocol
from games.table.protocol import MAX_DEPTH, MAX_FRAME, TOO_BIG
from tests.games.table.socket.conftest import TIMEOUT, Browser, db, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True)]

MiB = 1024 * 1024
#: how many hostile frames of each kind the Hypothesis test sent (for the report)
TRIED: dict[str, int] = {}


def pauses(match_id: int) -> int:
    return Pause.objects.filter(match_id=match_id).count()


async def open_socket(match_id: int, cookie: str) -> Browser:
    from tablesite.asgi import application

    communicator = WebsocketCommunicator(
        application,
        f"/ws/m/{match_id}/",
        headers=[
            (b"origin", b"http://testserver"),
            (b"host", b"testserver"),
            (b"cookie", f"sessionid={cookie}".encode()),
        ],
    )
    connected, _ = await communicator.connect(timeout=TIMEOUT)
    assert connected
    browser = Browser(communicator)
    await browser.expect("board")
    return browser


async def open_panel(browser: Browser, match_id: int) -> None:
    """bob opens the rules: his connection pauses the computers (R26)."""
    await browser.send(type="panel", open=True)
    await browser.expect("board")  # the "paused" notice brings the board with its badge
    assert await db(pauses, match_id) == 1


async def next_output(browser: Browser) -> dict[str, Any]:
    """The next thing the application sends; raises what the application raised (daphne's 1011)."""
    return await browser.communicator.receive_output(TIMEOUT)


async def answered_and_open(browser: Browser) -> list[dict[str, Any]]:
    """A sentinel after the frame: every message before its answer (the connection is open)."""
    await browser.send(type="no-such-command", request_id="sentinel")
    got = []
    while True:
        out = await next_output(browser)
        assert out["type"] == "websocket.send", out
        message = json.loads(out["text"])
        if message.get("request_id") == "sentinel":
            return got
        got.append(message)


@pytest_asyncio.fixture
async def seated(make_match: Any, alice: Any, bob: Any) -> dict[str, Any]:
    match = await db(make_match, "me", "human", "computer")
    await db(services.seat_join, match_id=match.pk, user=bob, token=match.invite_token)
    return {"match": match, "cookie": await db(session_cookie, bob)}


@pytest.mark.asyncio
async def test_a_frame_nested_1500_deep_is_refused_and_the_pause_ends_with_the_connection(
    seated: dict[str, Any],
) -> None:
    match = seated["match"]
    me = await open_socket(match.pk, seated["cookie"])
    await open_panel(me, match.pk)
    for frame in [
        "[" * 1500,
        "[" * 1500 + "]" * 1500,
        '{"a":' * 600 + "1" + "}" * 600,
        "[" * (MAX_FRAME - 1),
    ]:
        await me.communicator.send_input({"type": "websocket.receive", "text": frame})
        got = await answered_and_open(me)
        assert [m["code"] for m in got] == ["bad_request"], got
    assert await db(pauses, match.pk) == 1  # the panel is still open
    await me.communicator.disconnect()
    assert await db(pauses, match.pk) == 0


@pytest.mark.asyncio
async def test_a_frame_over_the_limit_closes_the_connection_and_ends_its_pause(
    seated: dict[str, Any],
) -> None:
    match = seated["match"]
    for frame in [
        "x" * (MAX_FRAME + 1),
        json.dumps({"type": "sync", "pad": "é" * 2 * MiB}),
        b"\x00" * (MAX_FRAME + 1),
    ]:
        me = await open_socket(match.pk, seated["cookie"])
        await open_panel(me, match.pk)
        key = "bytes" if isinstance(frame, bytes) else "text"
        await me.communicator.send_input({"type": "websocket.receive", key: frame})
        out = await next_output(me)
        while out["type"] == "websocket.send":  # a notice racing the frame
            out = await next_output(me)
        assert out == {"type": "websocket.close", "code": TOO_BIG}
        await me.communicator.send_input({"type": "websocket.disconnect", "code": TOO_BIG})
        await me.communicator.wait(TIMEOUT)
        assert await db(pauses, match.pk) == 0


@pytest.mark.asyncio
async def test_a_handler_that_fails_still_ends_the_pause(
    seated: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever ends the connection — here a bug that escapes a handler, which daphne
    reports as 1011 — its clean-up runs: the computers are not left paused."""
    match = seated["match"]
    me = await open_socket(match.pk, seated["cookie"])
    await open_panel(me, match.pk)

    async def broken(self: Any, text_data: Any = None, bytes_data: Any = None) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(consumers.TableConsumer, "receive", broken)
    await me.communicator.send_to(text_data=json.dumps({"type": "sync"}))
    # The application ends (its clean-up run); receive_output then raises what it raised
    # (asked before, it would wait its whole timeout for an output first).
    await asyncio.wait({me.communicator.future}, timeout=TIMEOUT)
    with pytest.raises(RuntimeError, match="a bug"):
        await me.communicator.receive_output(TIMEOUT)
    assert await db(pauses, match.pk) == 0


def nested(depth: int, opening: str, closing: str, balanced: bool) -> str:
    return opening * depth + ("0" + closing * depth if balanced else "")


FRAMES = st.one_of(
    # size: anything up to 2 MiB, text or bytes
    st.tuples(
        st.just("big text"),
        st.builds(
            lambda n, c: c * n,
            st.integers(0, 2 * MiB),
            st.sampled_from(["x", "[", "{", '"', "\\", "é", "\u2603", " "]),
        ),
    ),
    st.tuples(
        st.just("big json"),
        st.builds(
            lambda n: json.dumps({"type": "sync", "pad": "x" * n}),
            st.integers(MAX_FRAME - 100, 2 * MiB),
        ),
    ),
    st.tuples(st.just("bytes"), st.builds(lambda n: b"[" * n, st.integers(0, 2 * MiB))),
    # depth: up to 10,000, balanced or not, brackets hidden in strings or not
    st.tuples(
        st.just("deep"),
        st.builds(
            nested,
            st.integers(MAX_DEPTH - 2, 10_000),
            st.sampled_from(["[", '{"a":', '[{"b":', '["[",']),
            st.sampled_from(["]", "}", "}]", "]"]),
            st.booleans(),
        ),
    ),
    st.tuples(
        st.just("deep in a command"),
        st.builds(
            lambda n: (
                '{"type": "act", "seat": 1, "version": 1, "request_id": "r", "action": '
                + "[" * n
                + "]" * n
                + "}"
            ),
            st.integers(1, 10_000),
        ),
    ),
    st.tuples(
        st.just("brackets in strings"),
        st.builds(lambda n: json.dumps({"type": "sync", "pad": "[" * n}), st.integers(0, 10_000)),
    ),
)


@pytest.fixture(scope="module", autouse=True)
def report_tried() -> Any:
    """Print how many frames of each kind the Hypothesis test sent (``-s``; for the record)."""
    yield
    if TRIED:
        print("\nhostile frames tried per kind:", dict(sorted(TRIED.items())))


@pytest.mark.slow
@pytest.mark.asyncio
@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)
@given(frame=FRAMES)
async def test_no_frame_fails_the_socket_or_leaves_a_pause(
    seated: dict[str, Any], frame: tuple[str, str | bytes]
) -> None:
    kind, data = frame
    TRIED[kind] = TRIED.get(kind, 0) + 1
    match = seated["match"]
    me = await open_socket(match.pk, seated["cookie"])
    await open_panel(me, match.pk)
    key = "bytes" if isinstance(data, bytes) else "text"
    await me.communicator.send_input({"type": "websocket.receive", key: data})
    too_big = (
        len(data if isinstance(data, bytes) else data.encode()) > MAX_FRAME
    )  # bytes, as the server counts
    if too_big:
        out = await next_output(me)
        while out["type"] == "websocket.send":
            out = await next_output(me)
        assert out == {"type": "websocket.close", "code": TOO_BIG}
        await me.communicator.send_input({"type": "websocket.disconnect", "code": TOO_BIG})
        await me.communicator.wait(TIMEOUT)
    else:
        got = await answered_and_open(me)
        errors = [m for m in got if m["type"] == "error"]
        assert all(e["code"] != protocol.SERVER_ERROR for e in errors), errors
        if isinstance(data, str) and protocol.nesting_depth(data) > MAX_DEPTH:
            assert [e["code"] for e in errors] == ["bad_request"], got
        await me.communicator.disconnect(timeout=TIMEOUT)
    assert await db(pauses, match.pk) == 0


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ('{"type": "sync"}', 1),
        ('{"type": "act", "action": {"act": "play"}}', 2),
        ('{"pad": "[[[[[[[[[[[[[[[[[[[["}', 1),  # brackets inside a string do not count
        ('{"pad": "\\\\"}', 1),
        ('{"pad": "\\"[[[[[[[[[[[["}', 1),  # an escaped quote does not end the string
        ("[" * 10_000, MAX_DEPTH + 1),  # stops counting past the limit
        ("[[]][[[]]]", 3),
        ("]]]][", 1),
    ],
)
def test_nesting_depth_is_read_without_parsing(text: str, depth: int) -> None:
    assert protocol.nesting_depth(text) == depth
