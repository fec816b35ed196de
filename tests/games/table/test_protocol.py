"""games.table.protocol: the closed set of commands and its strict checks (no database)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.table.protocol import MAX_FRAME, Command, FrameTooBig, ProtocolError, parse

RID = "3f2b9c1e-4a5d-4e6f-8a7b-9c0d1e2f3a4b"


def frame(**message: Any) -> str:
    return json.dumps(message)


@pytest.mark.parametrize(
    ("message", "command"),
    [
        (
            {
                "type": "act",
                "seat": 2,
                "action": {"act": "play", "tile": "5-3", "train": "mexican"},
                "version": 7,
                "request_id": RID,
            },
            Command(
                "act",
                seat=2,
                action={"act": "play", "tile": "5-3", "train": "mexican"},
                version=7,
                request_id=RID,
            ),
        ),
        (
            {
                "type": "act",
                "seat": 0,
                "action": {"seat": 0, "act": "draw"},
                "version": 0,
                "request_id": "a",
            },
            Command("act", seat=0, action={"seat": 0, "act": "draw"}, version=0, request_id="a"),
        ),
        (
            {"type": "undo", "version": 3, "request_id": RID},
            Command("undo", version=3, request_id=RID),
        ),
        (
            {"type": "redo", "version": 3, "request_id": RID},
            Command("redo", version=3, request_id=RID),
        ),
        (
            {"type": "restart", "version": 3, "request_id": RID},
            Command("restart", version=3, request_id=RID),
        ),
        (
            {"type": "next_round", "version": 3, "request_id": RID},
            Command("next_round", version=3, request_id=RID),
        ),
        (
            {"type": "play_again", "version": 3, "request_id": RID},
            Command("play_again", version=3, request_id=RID),
        ),
        (
            {"type": "again_seat", "seat": 1, "become": "open", "request_id": RID},
            Command("again_seat", seat=1, become="open", request_id=RID),
        ),
        ({"type": "hint", "seat": 9}, Command("hint", seat=9)),
        ({"type": "reveal", "seat": 1}, Command("reveal", seat=1)),
        ({"type": "panel", "open": True}, Command("panel", open=True)),
        ({"type": "panel", "open": False}, Command("panel", open=False)),
        ({"type": "sync"}, Command("sync")),
        ({"type": "check"}, Command("check")),
        (
            {"type": "pace", "pace": "fast", "request_id": RID},
            Command("pace", pace="fast", request_id=RID),
        ),
        # an unknown pace's name is the service's to refuse, with the table's words
        (
            {"type": "pace", "pace": "ludicrous", "request_id": RID},
            Command("pace", pace="ludicrous", request_id=RID),
        ),
        ({"type": "skip", "request_id": RID}, Command("skip", request_id=RID)),
        ({"type": "autodraw", "on": True}, Command("autodraw", on=True)),
        ({"type": "autodraw", "on": False}, Command("autodraw", on=False)),
        (
            {"type": "accept", "ask": 12, "request_id": RID},
            Command("accept", ask=12, request_id=RID),
        ),
        (
            {"type": "decline", "ask": 1, "request_id": RID},
            Command("decline", ask=1, request_id=RID),
        ),
    ],
)
def test_every_command_of_the_contract_parses(message: dict[str, Any], command: Command) -> None:
    assert parse(frame(**message)) == command


LONG_ID = "x" * 65


@pytest.mark.parametrize(
    "raw",
    [
        None,
        b'{"type": "sync"}',  # binary frames are refused
        "",
        "{",
        "nope",
        "[]",
        '"sync"',
        "42",
        "null",
        frame(),
        frame(type=None),
        frame(type="SYNC"),
        frame(type="act_now"),
        frame(type="__init__"),
        frame(type=["sync"]),
        frame(type="sync", version=3),  # a field the command does not take
        frame(type="check", version=3),
        frame(type="check", request_id=RID),
        frame(type="hint"),
        frame(type="hint", seat="0"),
        frame(type="hint", seat=True),
        frame(type="hint", seat=10),
        frame(type="hint", seat=-1),
        frame(type="hint", seat=1.0),
        frame(type="hint", seat=None),
        frame(type="reveal", seat=[1]),
        frame(type="panel"),
        frame(type="panel", open="yes"),
        frame(type="panel", open=1),
        frame(type="panel", open=None),
        frame(type="undo", request_id=RID),
        frame(type="undo", version=1),
        frame(type="undo", version="1", request_id=RID),
        frame(type="undo", version=-1, request_id=RID),
        frame(type="undo", version=2**40, request_id=RID),
        frame(type="undo", version=True, request_id=RID),
        frame(type="undo", version=1, request_id=""),
        frame(type="undo", version=1, request_id=LONG_ID),
        frame(type="undo", version=1, request_id=5),
        frame(type="undo", version=1, request_id="<script>"),
        frame(type="undo", version=1, request_id="a b"),
        frame(type="act", seat=0, version=1, request_id=RID),
        frame(type="act", seat=0, action={"act": "draw"}, version=1),
        frame(type="act", seat=0, action=None, version=1, request_id=RID),
        frame(type="act", seat=0, action="draw", version=1, request_id=RID),
        frame(type="act", seat=0, action={}, version=1, request_id=RID),
        frame(type="act", seat=0, action={"tile": "5-3"}, version=1, request_id=RID),
        frame(type="act", seat=0, action={"act": 5}, version=1, request_id=RID),
        frame(
            type="act", seat=0, action={"act": "play", "tile": {"a": 5}}, version=1, request_id=RID
        ),
        frame(
            type="act",
            seat=0,
            action={"act": "play", "tile": ["5", "3"]},
            version=1,
            request_id=RID,
        ),
        frame(
            type="act",
            seat=0,
            action={"act": "play", "tile": "5-3" * 10},
            version=1,
            request_id=RID,
        ),
        frame(type="act", seat=0, action={"act": "draw", "by": "me"}, version=1, request_id=RID),
        frame(
            type="act", seat=0, action={"act": "play", "train": 10**6}, version=1, request_id=RID
        ),
        frame(type="act", seat="0", action={"act": "draw"}, version=1, request_id=RID),
        frame(type="act", seat=0, action={"act": "draw"}, version=1, request_id=RID, extra=1),
        frame(type="pace", pace="fast"),
        frame(type="pace", request_id=RID),
        frame(type="pace", pace=1, request_id=RID),
        frame(type="pace", pace="", request_id=RID),
        frame(type="pace", pace="f" * 17, request_id=RID),
        frame(type="pace", pace=None, request_id=RID),
        frame(type="pace", pace="fast", version=1, request_id=RID),
        frame(type="skip"),
        frame(type="skip", version=1, request_id=RID),
        frame(type="skip", seat=0, request_id=RID),
        frame(type="autodraw"),
        frame(type="autodraw", on=1),
        frame(type="autodraw", on="on"),
        frame(type="autodraw", on=None),
        frame(type="autodraw", on=True, request_id=RID),
        frame(type="accept", request_id=RID),
        frame(type="accept", ask=0, request_id=RID),
        frame(type="accept", ask="1", request_id=RID),
        frame(type="decline", ask=True, request_id=RID),
        frame(type="decline", ask=2**63, request_id=RID),
        frame(type="accept", ask=1),
        frame(type="accept", ask=1, version=1, request_id=RID),
        '{"type": "sync", "type": "act"}',  # the last duplicate wins: an act without its fields
        frame(type="sync", padding="x" * MAX_FRAME),
    ],
)
def test_malformed_frames_are_refused(raw: Any) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse(raw)
    message = caught.value.to_json()
    assert message["type"] == "error" and message["code"] == "bad_request" and message["message"]


def test_a_frame_over_the_limit_is_refused_before_it_is_read() -> None:
    big = '{"type": "sync"}' + " " * MAX_FRAME
    assert json.loads(big) == {"type": "sync"}
    with pytest.raises(ProtocolError, match="too long"):
        parse(big)
    assert parse('{"type": "sync"}' + " " * (MAX_FRAME - 16)) == Command("sync")
    # The limit counts bytes of UTF-8, as the server does (tablesite/server.py): a few
    # characters of several bytes each can pass it.
    many_bytes = '{"type": "sync", "pad": "' + "\u2603" * (MAX_FRAME // 3) + '"}'
    assert len(many_bytes) < MAX_FRAME < len(many_bytes.encode())
    with pytest.raises(ProtocolError, match="too long"):
        parse(many_bytes)
    with pytest.raises(ProtocolError) as caught:  # under the limit: read, and refused for its field
        parse('{"type": "sync", "pad": "' + "\u2603" * (MAX_FRAME // 3 - 10) + '"}')
    assert not isinstance(caught.value, FrameTooBig)


def test_the_request_id_is_echoed_when_it_is_well_formed() -> None:
    with pytest.raises(ProtocolError) as caught:
        parse(frame(type="undo", version="7", request_id=RID))
    assert caught.value.to_json()["request_id"] == RID
    with pytest.raises(ProtocolError) as caught:
        parse(frame(type="undo", version=7, request_id="<b>"))
    assert caught.value.to_json()["request_id"] is None
