"""Hostile websocket frames (Hypothesis): every one gets a clear answer, nothing changes,
the connection stays open.

bob plays seat 1 of alice's match (alice seat 0, a computer seat 2); it is bob's turn,
alice played after bob's last move (so bob has nothing to undo, R27), and both have
used request ids before. Hypothesis sends bob's connection random text and bytes,
JSON of every shape, commands of unknown types, with missing, extra or mistyped
fields, huge frames, other players' seats, stale and future versions, illegal moves
at the current version, request ids already used by bob (answered as duplicates,
nothing applied) or by alice (refused). After each frame a sentinel frame proves the
connection is still open and marks the end of the frame's answer. Each frame gets:

- refused by `games.table.protocol` (malformed): exactly one ``error`` ``bad_request``, with
  a message and the frame's request id when it carried a well-formed one;
- refused by a service: one ``error`` with a known code and a message, then a board;
- a repeated request id of bob's: one ``ack`` marked duplicate, at the stored version;
- read-only commands (sync, hint, panel) get their board, hint, or nothing.

Never a ``server_error``; the match version, state, log and stored requests are
exactly as before.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import pytest_asyncio
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.replay import BadReplay, parse_action
from engine.rules import legal_actions
from engine.serialize import state_from_json
from games import services
from games.errors import CODES
from games.models import ClientRequest, LogEntry, Match
from games.table import protocol
from games.table.protocol import MAX_DEPTH, MAX_FRAME, ProtocolError
from tests.games.table.socket.conftest import Browser, db, rid

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

TYPES = [
    "act",
    "undo",
    "redo",
    "restart",
    "next_round",
    "play_again",
    "leave_table",
    "hint",
    "reveal",
    "panel",
    "sync",
]
ACTS = ["engine", "play", "draw", "pass", "end", "next_round", "fly", "", "PLAY"]
#: request ids each player used while setting the table up
BOB_USED = "bob-used-1"
ALICE_USED = "alice-used-1"


def state_now(match_id: int) -> tuple[int, Any, int, int]:
    """What no refused frame may change: version, snapshot, log length, stored requests."""
    m = Match.objects.get(pk=match_id)
    return (
        m.version,
        m.state,
        LogEntry.objects.filter(round__match=m).count(),
        ClientRequest.objects.filter(match=m).count(),
    )


def set_table(make_match: Any, alice: Any, bob: Any) -> Match:
    """alice (0), bob (1), a computer (2), played until bob is to act with alice having
    played after bob; each has used a request id we know."""
    match = make_match("me", "human", "computer")
    services.seat_join(match_id=match.pk, user=bob, token=match.invite_token)
    users = {0: alice, 1: bob}
    used = {0: ALICE_USED, 1: BOB_USED}
    played: list[int] = []
    from engine.bots import choose
    from engine.views import view

    for _ in range(300):
        match.refresh_from_db()
        state = state_from_json(match.state)
        if state.turn == 1 and 1 in played and played[-1] == 0 and state.phase in ("first", "play"):
            return match
        if state.turn in users:
            seat = state.turn
            request_id = used.pop(seat) if seat in used else rid()
            services.action_submit(
                match_id=match.pk,
                user=users[seat],
                seat=seat,
                action=choose(view(state, seat), "casual").to_json(),
                expected_version=match.version,
                request_id=request_id,
            )
            played.append(seat)
        else:
            assert services.computer_step(match_id=match.pk) is not None
    raise AssertionError("bob never came to act after alice")


@pytest.fixture(autouse=True)
def _no_frame_budget(settings: Any) -> None:
    """Hypothesis sends hundreds of frames a second on one connection, past any page's
    budget (games.table.budget, tested in test_ws_flood.py): lifted here."""
    settings.TABLE_FRAME_BUDGET = (1e6, 10**6, 10**6)


@pytest_asyncio.fixture
async def table(make_match: Any, alice: Any, bob: Any, connect: Any) -> dict[str, Any]:
    match = await db(set_table, make_match, alice, bob)
    me: Browser = await connect(match, bob)
    before = await db(state_now, match.pk)
    state = await db(lambda: state_from_json(Match.objects.get(pk=match.pk).state))
    bob_used_version = await db(lambda: ClientRequest.objects.get(request_id=BOB_USED).version)
    return {
        "match": match,
        "me": me,
        "before": before,
        "state": state,
        "sentinels": [0],
        "bob_used_version": bob_used_version,
    }


# ---------------------------------------------------------------- strategies

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
TILES = st.one_of(
    st.builds(lambda a, b: f"{a}-{b}", st.integers(0, 12), st.integers(0, 12)),
    st.builds(lambda a, b: f"{a}-{b}", st.integers(-3, 40), st.integers(-3, 40)),
    st.sampled_from(["", "5", "5-", "-5", "a-b", "12-12-12", "5–3", " 5-3 "]),
)
TRAINS = st.one_of(
    st.integers(-2, 12), st.sampled_from(["mexican", "Mexican", "0", "", "1", "x"]), st.none()
)


def actions() -> st.SearchStrategy[Any]:
    fields = {"act": st.sampled_from(ACTS) | st.text(max_size=17) | JSON}
    optional = {
        "seat": st.integers(-2, 12) | JSON,
        "tile": TILES | JSON,
        "train": TRAINS | JSON,
        "by": st.text(max_size=5),
    }
    return st.fixed_dictionaries(fields, optional=optional) | JSON


def commands(version: int) -> st.SearchStrategy[dict[str, Any]]:
    """Commands of every type, right or wrong in every field."""
    versions = (
        st.sampled_from([version, version - 1, version + 1, 0, 2**31 - 1, 2**31, -1])
        | st.integers()
        | JSON
    )
    seats = st.sampled_from([0, 1, 2, 3, 9, 10, -1]) | JSON
    request_ids = (
        st.sampled_from([BOB_USED, ALICE_USED, "", "x" * 65, "<b>", "a b", "ok-id"])
        | st.uuids().map(str)
        | JSON
    )
    return st.fixed_dictionaries(
        {
            "type": st.sampled_from(TYPES)
            | st.sampled_from(["", "SYNC", "__init__", "do_act", "match.changed"])
            | JSON
        },
        optional={
            "seat": seats,
            "action": actions(),
            "version": versions,
            "request_id": request_ids,
            "open": st.booleans() | JSON,
            "extra": JSON,
        },
    )


def well_typed(version: int) -> st.SearchStrategy[dict[str, Any]]:
    """Commands that pass the protocol's checks, so the services must refuse them."""
    rid_ = st.sampled_from([BOB_USED, ALICE_USED]) | st.uuids().map(str)
    ver = st.sampled_from([version, version - 1, version + 1, 0]) | st.integers(0, 2**31 - 1)
    action = st.fixed_dictionaries(
        {"act": st.sampled_from(ACTS)},
        optional={"tile": TILES, "train": TRAINS, "seat": st.integers(0, 9)},
    )
    return st.one_of(
        st.fixed_dictionaries(
            {
                "type": st.just("act"),
                "seat": st.integers(0, 9),
                "action": action,
                "version": ver,
                "request_id": rid_,
            }
        ),
        st.fixed_dictionaries(
            {
                "type": st.sampled_from(
                    ["undo", "redo", "restart", "next_round", "play_again", "leave_table"]
                ),
                "version": ver,
                "request_id": rid_,
            }
        ),
        st.fixed_dictionaries(
            {"type": st.sampled_from(["hint", "reveal"]), "seat": st.integers(0, 9)}
        ),
        st.fixed_dictionaries({"type": st.just("panel"), "open": st.booleans()}),
        st.just({"type": "sync"}),
    )


def frames(version: int) -> st.SearchStrategy[str | bytes]:
    as_json = st.one_of(commands(version), well_typed(version), JSON).map(json.dumps)
    # Up to the size limit (a frame over it ends the connection: test_ws_limits.py).
    big = st.builds(
        lambda n, c: json.dumps({"type": "sync", "pad": c * n})[:MAX_FRAME],
        st.integers(MAX_FRAME - 200, MAX_FRAME),
        st.sampled_from(["x", "é", "\u0000", " "]),
    )
    # Nested deeper than a command ever is (1,500 "[" crashed the decoder).
    deep = st.builds(
        lambda n, open_, close: (open_ * n + close * n)[:MAX_FRAME],
        st.integers(MAX_DEPTH + 1, MAX_FRAME),
        st.sampled_from(["[", '{"a":', '[{"b":']),
        st.sampled_from(["]", "}", "", "}]"]),
    )
    return st.one_of(
        as_json, as_json, as_json, st.text(max_size=300), st.binary(max_size=300), big, deep
    )


# ---------------------------------------------------------------- the check


def legal_now(state: Any, raw: dict[str, Any], seat: int) -> bool:
    """Whether this act would be a legal move of bob's (those change the match: not fuzz)."""
    if not isinstance(raw, dict):
        return False
    if "seat" not in raw and raw.get("act") != "next_round":
        raw = {**raw, "seat": seat}
    try:
        action = parse_action(raw)
    except (BadReplay, Exception):
        return False
    return action in legal_actions(state)


async def answer_to(t: dict[str, Any], frame: str | bytes) -> list[dict[str, Any]]:
    """Send `frame` and a sentinel; every message received before the sentinel's answer."""
    me: Browser = t["me"]
    t["sentinels"][0] += 1
    sentinel = f"sentinel-{t['sentinels'][0]}"
    # Straight to the application: the test communicator refuses empty frames, a browser does not.
    key = "bytes" if isinstance(frame, bytes) else "text"
    await me.communicator.send_input({"type": "websocket.receive", key: frame})
    await me.send(type="no-such-command", request_id=sentinel)  # refused, with its id echoed
    got: list[dict[str, Any]] = []
    while True:
        message = await me.recv()
        if message.get("request_id") == sentinel:
            assert message["type"] == "error" and message["code"] == "bad_request"
            return got
        got.append(message)


def check_answer(t: dict[str, Any], frame: str | bytes, got: list[dict[str, Any]]) -> None:
    answers = [m for m in got if m["type"] != "board"]
    boards = [m for m in got if m["type"] == "board"]
    for m in got:
        if m["type"] == "error":
            assert m["code"] in CODES and m["code"] != protocol.SERVER_ERROR, m
            assert isinstance(m["message"], str) and m["message"].strip(), m
        if m["type"] == "board":
            assert m["version"] == t["before"][0]
    try:
        command = protocol.parse(frame)
    except ProtocolError as e:
        assert len(answers) == 1, got
        assert answers[0]["type"] == "error" and answers[0]["code"] == "bad_request", answers
        assert answers[0]["request_id"] == e.request_id
        return
    if command.type == "sync":
        assert answers == [] and boards, got
        return
    if command.type == "panel":
        assert answers == [], got
        return
    assert len(answers) == 1, got
    answer = answers[0]
    if command.type == "hint" and command.seat == 1:
        assert answer["type"] == "hint" and answer["reason"], answer
        return
    if answer["type"] == "ack":
        # Only a request id bob used before is answered without an error: as a duplicate.
        assert command.request_id == BOB_USED and answer["duplicate"] is True, answer
        assert answer["version"] == t["bob_used_version"]
        return
    assert answer["type"] == "error", answer
    assert answer["request_id"] == command.request_id
    assert boards, "a refused command comes with the board as it is"


@settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
@given(data=st.data())
async def test_fuzzed_frames_get_a_clear_answer_and_change_nothing(
    table: dict[str, Any], data: Any
) -> None:
    version = table["before"][0]
    for _ in range(data.draw(st.integers(1, 2), label="frames")):
        frame = data.draw(frames(version), label="frame")
        if isinstance(frame, str):
            try:
                command = protocol.parse(frame)
            except ProtocolError:
                command = None
            if (
                command is not None
                and command.type == "act"
                and command.version == version
                and command.seat == 1
                and command.request_id != BOB_USED
            ):
                assume(
                    not legal_now(table["state"], command.action or {}, 1)
                )  # a real move is not fuzz
        got = await answer_to(table, frame)
        check_answer(table, frame, got)
    assert await db(state_now, table["match"].pk) == table["before"]


async def test_the_connection_is_still_open_after_the_fuzz(table: dict[str, Any]) -> None:
    """The connection answers after a burst of garbage: a sync brings the unchanged board."""
    me: Browser = table["me"]
    garbage: list[str | bytes] = [
        b"\x00\xff" * 100,
        "{" * 4000,
        "[" * 1500,  # RecursionError in the decoder, the socket closed with 1011
        json.dumps({"type": "sync", "pad": "x" * (MAX_FRAME - 40)}),
        "null",
        "[]",
    ]
    for frame in garbage:
        got = await answer_to(table, frame)
        assert [m["code"] for m in got if m["type"] == "error"] == ["bad_request"]
    board = await me.alive()
    assert board["version"] == table["before"][0] and board["your_turn"] is True
    assert await db(state_now, table["match"].pk) == table["before"]
