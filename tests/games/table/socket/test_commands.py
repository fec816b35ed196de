"""Commands over the table's websocket: refusals change nothing and keep the connection,
stale and repeated requests, undo/redo (R27), restart (R28), next round,
hints (R23, R25), pauses (R26), and the connection's language."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from engine import rules
from engine.bots import choose
from engine.views import view
from games import services
from games.models import ClientRequest, Pause
from games.table.protocol import MAX_FRAME
from tablesite.env import channel_layers
from tests.games.table.socket.conftest import Browser, db, phase_of, play, rid, snapshot, state_of

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def to_my_turn(match_id: int, seat: int = 0) -> None:
    """Let the computers play until `seat` is to act."""
    for _ in range(200):
        state = await db(state_of, match_id)
        if state.turn == seat:
            return
        assert await db(services.computer_step, match_id=match_id) is not None
    raise AssertionError("never my turn")


async def my_action(match_id: int, seat: int = 0) -> dict[str, Any]:
    state = await db(state_of, match_id)
    return choose(view(state, seat), "casual").to_json()


async def play_my_move(match_id: int, user: Any, version: int, seat: int = 0) -> None:
    """`user` plays `seat`'s move (`my_action`) through the service, at `version`."""
    await db(
        services.action_submit,
        match_id=match_id,
        user=user,
        seat=seat,
        action=await my_action(match_id, seat),
        expected_version=version,
        request_id=rid(),
    )


MALFORMED: list[tuple[str, Any]] = [
    ("bad JSON", '{"type": "act", "seat": 0,'),
    ("not an object", '["act"]'),
    ("unknown type", json.dumps({"type": "cheat", "seat": 0})),
    ("no type", json.dumps({"seat": 0})),
    (
        "seat as text",
        json.dumps(
            {
                "type": "act",
                "seat": "0",
                "action": {"act": "engine"},
                "version": 1,
                "request_id": "r1",
            }
        ),
    ),
    (
        "version as text",
        json.dumps(
            {
                "type": "act",
                "seat": 0,
                "action": {"act": "engine"},
                "version": "1",
                "request_id": "r1",
            }
        ),
    ),
    (
        "action as text",
        json.dumps(
            {"type": "act", "seat": 0, "action": "engine", "version": 1, "request_id": "r1"}
        ),
    ),
    (
        "missing request id",
        json.dumps({"type": "act", "seat": 0, "action": {"act": "engine"}, "version": 1}),
    ),
    ("missing version", json.dumps({"type": "undo", "request_id": "r1"})),
    ("missing seat", json.dumps({"type": "hint"})),
    ("open as text", json.dumps({"type": "panel", "open": "true"})),
    ("extra field", json.dumps({"type": "sync", "as": "alice"})),
    (
        "nested too deep",
        json.dumps(
            {
                "type": "act",
                "seat": 0,
                "action": {"act": [[[[[[[["engine"]]]]]]]]},
                "version": 1,
                "request_id": "r1",
            }
        ),
    ),
    ("nested a thousand deep", "[" * 1500),
    (
        "big frame",
        json.dumps(
            {
                "type": "act",
                "seat": 0,
                "action": {"act": "engine"},
                "version": 1,
                "request_id": "r1",
                "pad": "x" * (MAX_FRAME - 150),
            }
        ),
    ),
]


async def test_malformed_messages_get_an_error_change_nothing_and_keep_the_connection(
    make_match: Any, alice: Any, connect: Any
) -> None:
    match = await db(make_match, "me", "computer")
    await to_my_turn(match.pk)
    me = await connect(match, alice)
    before = await db(snapshot, match.pk)
    for what, raw in MALFORMED:
        await me.send_raw(raw)
        error = await me.expect("error")
        assert error["code"] == "bad_request" and error["message"], what
        assert await me.quiet(0.05), what  # an error only: the frame was not acted on
    await me.send_raw(data=b'{"type": "sync"}')  # binary frames are not commands
    assert (await me.expect("error"))["code"] == "bad_request"
    # An action the engine cannot read: refused by the service, with a fresh board.
    await me.send(type="act", seat=0, action={"act": "fly"}, version=me.version, request_id=rid())
    assert (await me.expect("error"))["code"] == "bad_request"
    await me.expect("board")
    assert await db(snapshot, match.pk) == before
    assert not await db(lambda: ClientRequest.objects.exists())
    board = await me.alive()
    assert board["version"] == before[0] and board["your_turn"] is True


async def test_a_stranger_cannot_act_for_a_seat(
    make_match: Any, alice: Any, bob: Any, connect: Any
) -> None:
    match = await db(make_match, "me", "computer", "human")
    await db(services.seat_join, match_id=match.pk, user=bob, token=match.invite_token)
    await to_my_turn(match.pk)
    action = await my_action(match.pk)
    spectator = await connect(match, watch=match.watch_token)
    other = await connect(match, bob)
    before = await db(snapshot, match.pk)
    for browser, seat in [(spectator, 0), (spectator, 1), (other, 0), (other, 1), (other, 9)]:
        request = rid()
        await browser.send(
            type="act", seat=seat, action=action, version=browser.version, request_id=request
        )
        error = await browser.expect("error")
        assert error["code"] == "forbidden" and error["request_id"] == request, (seat, error)
        await browser.expect("board")
    # bob's own seat, with alice's action inside: the action's seat must be the request's.
    await other.send(
        type="act", seat=2, action={**action, "seat": 0}, version=other.version, request_id=rid()
    )
    assert (await other.expect("error"))["code"] == "forbidden"
    await other.expect("board")
    for command in ("undo", "redo", "restart", "next_round", "play_again", "leave_table"):
        await spectator.send(type=command, version=spectator.version, request_id=rid())
        assert (await spectator.expect("error"))["code"] == "forbidden", command
        await spectator.expect("board")
    await spectator.send(type="hint", seat=0)
    assert (await spectator.expect("error"))["code"] == "forbidden"
    await spectator.expect("board")
    await spectator.send(
        type="panel", open=True
    )  # a spectator reads the rules without pausing anyone
    assert await spectator.quiet()
    assert await db(snapshot, match.pk) == before
    assert not await db(lambda: Pause.objects.exists())


async def test_stale_version_and_repeated_request_id(
    make_match: Any, alice: Any, bob: Any, connect: Any
) -> None:
    match = await db(make_match, "me", "computer")
    await to_my_turn(match.pk)
    me = await connect(match, alice)
    watcher = await connect(match, watch=match.watch_token)
    version = me.version
    action = await my_action(match.pk)
    # Stale: the client acted on an older board; refused, and the current board follows.
    await me.send(type="act", seat=0, action=action, version=version - 1, request_id="stale-1")
    error = await me.expect("error")
    assert (error["code"], error["request_id"]) == ("stale", "stale-1")
    assert (await me.expect("board"))["version"] == version
    assert not await db(lambda: ClientRequest.objects.exists())
    # Applied once...
    await me.send(type="act", seat=0, action=action, version=version, request_id="once")
    ack = await me.expect("ack")
    assert (ack["request_id"], ack["version"], ack["duplicate"]) == ("once", version + 1, False)
    assert (await me.expect("board"))["version"] == version + 1
    assert (await watcher.board())["version"] == version + 1
    after = await db(snapshot, match.pk)
    # ...and a resend (a lost ack, a double click) is answered with the same result, not applied again.
    await me.send(type="act", seat=0, action=action, version=version, request_id="once")
    ack = await me.expect("ack")
    assert (ack["request_id"], ack["version"], ack["duplicate"]) == ("once", version + 1, True)
    assert await me.quiet() and await watcher.quiet()  # nothing changed: no new board
    assert await db(snapshot, match.pk) == after
    # A request id stands for one request: reused for another command, the first result comes back.
    await me.send(type="undo", version=version + 1, request_id="once")
    assert (await me.expect("ack"))["duplicate"] is True
    assert await db(snapshot, match.pk) == after


async def test_r27_undo_and_redo_over_the_socket_restore_the_exact_boards(
    make_match: Any, alice: Any, connect: Any
) -> None:
    match = await db(make_match, "me", "computer", "computer")
    await to_my_turn(match.pk)
    me = await connect(match, alice)
    before_html, before_state = me.last_board["html"], await db(state_of, match.pk)  # type: ignore[index]
    await me.send(
        type="act", seat=0, action=await my_action(match.pk), version=me.version, request_id=rid()
    )
    await me.expect("ack")
    await me.expect("board")
    while (await db(state_of, match.pk)).turn != 0 and not (await db(state_of, match.pk)).over:
        await db(services.computer_step, match_id=match.pk)  # the computers answer
    answered = await me.catch_up((await db(snapshot, match.pk))[0])
    await me.send(type="undo", version=answered["version"], request_id=rid())
    ack = await me.expect("ack")
    undone = await me.expect("board")
    assert undone["version"] == ack["version"] == answered["version"] + 1
    assert await db(state_of, match.pk) == before_state
    assert hand_and_trains(undone["html"]) == hand_and_trains(before_html)
    await me.send(type="redo", version=undone["version"], request_id=rid())
    await me.expect("ack")
    redone = await me.expect("board")
    assert hand_and_trains(redone["html"]) == hand_and_trains(answered["html"])
    await me.send(type="redo", version=redone["version"], request_id=rid())
    assert (await me.expect("error"))["code"] == "no_redo"
    await me.expect("board")


def hand_and_trains(html: str) -> tuple[Any, ...]:
    """What a board shows of the game (hand, trains and their markers, counts), without the log line and version."""
    import re

    hand = re.findall(r'data-tile="([\d-]+)" data-targets="([^"]*)"', html)
    trains = re.findall(r'data-train="(\w+)" data-end="(\d+)"', html)
    pips = re.findall(r'data-pips="([\d-]+)"', html)
    markers = html.count("train--open")
    return hand, trains, pips, markers, phase_of({"html": html})


async def test_r28_restart_and_next_round_over_the_socket(
    make_match: Any, alice: Any, connect: Any
) -> None:
    match = await db(make_match, "me", "computer")
    me = await connect(match, alice)
    dealt = await db(state_of, match.pk)
    await to_my_turn(match.pk)
    await me.catch_up((await db(snapshot, match.pk))[0])
    await me.send(type="restart", version=me.version, request_id=rid())
    await me.expect("ack")
    restarted = await me.expect("board")
    assert phase_of(restarted) == "engine"
    assert (await db(state_of, match.pk)).hands == dealt.hands  # R28: the same deal
    await me.send(type="next_round", version=me.version, request_id=rid())
    assert (await me.expect("error"))["code"] == "illegal"  # not before the round is over
    await me.expect("board")
    await me.communicator.disconnect()
    await db(play, match.pk, {0: alice}, until=lambda s: s.over)  # away from the table meanwhile
    me = await connect(match, alice)
    over = me.last_board
    assert over is not None and phase_of(over) == "round_over"
    await me.send(type="next_round", version=over["version"], request_id=rid())
    await me.expect("ack")
    second = await me.expect("board")
    assert phase_of(second) == "engine" and (await db(state_of, match.pk)).round == 2


async def test_r23_r25_hint_suggests_without_playing(
    make_match: Any, alice: Any, connect: Any
) -> None:
    match = await db(make_match, "me", "computer")
    me = await connect(match, alice, language="es")
    await to_my_turn(match.pk)
    await me.catch_up((await db(snapshot, match.pk))[0])
    before = await db(snapshot, match.pk)
    await me.send(type="hint", seat=0)
    hint = await me.expect("hint")
    state = await db(state_of, match.pk)
    legal = rules.legal_actions(state)
    assert any(a.act == hint["act"] for a in legal) and hint["reason"]
    english = await db(english_hint, match.pk)
    assert (hint["act"], hint["tile"], hint["train"]) == (
        english["act"],
        english["tile"],
        english["train"],
    )
    assert hint["reason"] != english["reason"]  # in Spanish, as the connection asked
    assert await db(snapshot, match.pk) == before and await me.quiet()
    await me.send(type="hint", seat=1)  # the computer's seat
    assert (await me.expect("error"))["code"] == "forbidden"


def english_hint(match_id: int) -> dict[str, Any]:
    from django.utils import translation

    from games.board.words import hint_message

    with translation.override("en"):
        return hint_message(view(state_of(match_id), 0))


async def test_messages_come_in_the_connections_language(
    make_match: Any, alice: Any, connect: Any
) -> None:
    match = await db(make_match, "me", "computer")
    words = {}
    for language in ("en", "es", "de"):
        me = await connect(match, alice, language=language)
        await me.send_raw("{")
        words[language] = (await me.expect("error"))["message"]
        await me.send(
            type="act", seat=1, action={"act": "draw"}, version=me.version, request_id=rid()
        )
        words[language + "-service"] = (await me.expect("error"))["message"]
        await me.expect("board")
    assert words["en"] == "That message is not valid JSON."
    assert len({words["en"], words["es"], words["de"]}) == 3
    assert len({words["en-service"], words["es-service"], words["de-service"]}) == 3


# ---------------------------------------------------------------- pauses (R26)


async def to_computer_turn(match_id: int, user: Any, seat: int = 0) -> None:
    """Let the person at `seat` play until the computer is to act."""
    for _ in range(200):
        state = await db(state_of, match_id)
        if state.turn != seat:
            return
        await db(
            services.action_submit,
            match_id=match_id,
            user=user,
            seat=seat,
            action=choose(view(state, seat), "casual").to_json(),
            expected_version=(await db(snapshot, match_id))[0],
            request_id=rid(),
        )
    raise AssertionError("the computer never got the turn")


async def test_r26_an_open_panel_pauses_the_computers_until_closed_or_gone(
    make_match: Any, alice: Any, connect: Any
) -> None:
    match = await db(make_match, "me", "computer")
    await to_computer_turn(match.pk, alice)
    me = await connect(match, alice)
    spectator = await connect(match, watch=match.watch_token)
    assert 'data-paused="false"' in me.last_board["html"]  # type: ignore[index]
    await me.send(type="panel", open=True)
    paused = await me.expect("board")  # everyone sees the "paused" badge
    assert 'data-paused="true"' in paused["html"] and paused["version"] == me.version
    assert 'data-paused="true"' in (await spectator.expect("board"))["html"]
    await spectator.communicator.disconnect()
    before = await db(snapshot, match.pk)
    assert await db(services.computer_step, match_id=match.pk) is None
    assert await db(snapshot, match.pk) == before
    await me.send(type="panel", open=True)  # opening again only renews the pause
    assert await me.quiet()
    await me.send(type="panel", open=False)
    assert 'data-paused="false"' in (await me.expect("board"))["html"]
    assert await db(services.computer_step, match_id=match.pk) is not None
    # A connection that goes away with its panel open does not hold the table.
    await to_my_turn(match.pk)
    await to_computer_turn(match.pk, alice)
    await me.send(type="panel", open=True)
    while 'data-paused="true"' not in (await me.board())["html"]:
        pass  # the boards of the moves before come first
    assert await db(lambda: Pause.objects.filter(match_id=match.pk).count()) == 1
    assert await db(services.computer_step, match_id=match.pk) is None
    await me.communicator.disconnect()
    assert await db(lambda: Pause.objects.filter(match_id=match.pk).count()) == 0
    assert await db(services.computer_step, match_id=match.pk) is not None


async def test_board_messages_carry_version_title_and_turn(
    make_match: Any, alice: Any, connect: Any
) -> None:
    match = await db(make_match, "me", "computer")
    me: Browser = await connect(match, alice)
    board = me.last_board
    assert board is not None and set(board) == {"type", "version", "html", "title", "your_turn"}
    assert board["version"] == (await db(snapshot, match.pk))[0]
    assert f'data-version="{board["version"]}"' in board["html"]
    assert isinstance(board["your_turn"], bool) and board["title"]


@pytest.mark.parametrize("renew", [True, False])
async def test_an_open_table_stays_in_its_group_past_the_layers_group_expiry(
    renew: bool,
    make_match: Any,
    alice: Any,
    connect: Any,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A page left open longer than the channel layer's group expiry (a day with
    channels-redis) is still told of moves made in another process: the process's hub
    renews its one membership of the match's group (games.table.hub). Without renewal
    the same page misses the move (so the set-up really expires)."""
    from games import notify
    from games.table import hub

    settings.CHANNEL_LAYERS = {
        "default": {**channel_layers(None)["default"], "CONFIG": {"group_expiry": 1}}
    }
    monkeypatch.setattr(hub, "GROUP_RENEW_SECONDS", 0.2 if renew else 3600.0)
    match = await db(make_match, "me", "computer")
    await to_my_turn(match.pk)
    spectator = await connect(match, watch=match.watch_token)
    me = await connect(match, alice)
    await asyncio.sleep(2.5)  # memberships older than 1 s (whole seconds) are forgotten
    action, version = await my_action(match.pk), me.version
    # The move is made in "another process": its notice reaches this one only through the layer.
    monkeypatch.setattr(notify, "hub_sink", None)
    await db(
        services.action_submit,
        match_id=match.pk,
        user=alice,
        seat=0,
        action=action,
        expected_version=version,
        request_id=rid(),
    )
    if renew:
        assert (await spectator.board())["version"] == version + 1
        assert (await me.board())["version"] == version + 1
    else:
        assert await spectator.quiet() and await me.quiet()


async def test_check_brings_the_board_a_lost_notice_did_not(
    make_match: Any, alice: Any, connect: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A notice lost on the channel layer (dropped or expired under overload) leaves a
    page behind until it checks: "check" answers with the board it missed, once, and
    with nothing when the page is up to date. It changes nothing."""
    from games import notify

    match = await db(make_match, "me", "computer")
    await to_my_turn(match.pk)
    me = await connect(match, alice)
    version = me.version
    await me.send(type="check")
    assert await me.quiet()  # up to date: nothing comes
    monkeypatch.setattr(
        notify, "match_changed", lambda match_id, version, **_: False
    )  # the notice is lost
    await play_my_move(match.pk, alice, version)
    assert await me.quiet()
    await me.send(type="check")
    assert (await me.board())["version"] == version + 1
    await me.send(type="check")
    assert await me.quiet()
    assert (await db(snapshot, match.pk))[0] == version + 1  # checking changed nothing


async def test_one_read_of_the_version_answers_the_tables_pages_in_turn(
    make_match: Any, alice: Any, connect: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pages of a table check in turn: the version read for one page's check answers
    another page that checks after it began; a page's own next check reads again, and so
    brings the board a lost notice did not."""
    from accounts.sessions import SessionCheck
    from games import notify
    from games.reads import selectors

    match = await db(make_match, "me", "computer")
    await to_my_turn(match.pk)
    me = await connect(match, alice)
    watcher = await connect(match, watch=match.watch_token)
    version = me.version
    reads: list[int] = []
    real = selectors.match_version

    def counted(**kwargs: Any) -> int | None:
        reads.append(1)
        return real(**kwargs)

    monkeypatch.setattr(selectors, "match_version", counted)
    sessions: list[int] = []
    checked = SessionCheck.user_id

    def session_counted(self: SessionCheck) -> int | None:
        sessions.append(1)
        return checked(self)

    monkeypatch.setattr(SessionCheck, "user_id", session_counted)
    await me.send(type="check")
    assert await me.quiet() and len(reads) == 1
    monkeypatch.setattr(notify, "match_changed", lambda match_id, version, **_: False)
    await play_my_move(match.pk, alice, version)
    await watcher.send(type="check")  # answered by the read made for my check: no new read
    assert await watcher.quiet() and len(reads) == 1
    await watcher.send(type="check")  # its own next check reads again: the missed board
    assert (await watcher.board())["version"] == version + 1 and len(reads) == 2
    await me.send(type="check")  # the watcher's read began after my last check: it answers
    assert (await me.board())["version"] == version + 1 and len(reads) == 2
    # A check gets only what the hub would push: no session check either (a session's end
    # closes the socket by its own notice), so one answered from the table's read costs
    # no database call at all.
    assert sessions == []
    await me.send(type="sync")  # any other command is checked against the session
    await me.board()
    assert sessions
