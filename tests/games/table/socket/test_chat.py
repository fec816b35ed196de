"""Table talk on the table's websocket (games.chat): phrases in each reader's own
language, free text under the name rules, flood limits, mutes, the creator's switch, and the
two rooms (a spectator never reads nor writes the players' room)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games import services
from games.chat.models import Action, Message, Mute, TableChat
from games.chat.services import FLOOD_COUNT, FLOOD_WINDOW
from games.models import Match
from tests.games.table.socket.conftest import Browser, db, rid

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def duo(make_match: Any, bob: Any) -> Match:
    """alice (seat 0, the creator) and bob (seat 1), and a computer."""
    match = make_match("me", "human", "computer")
    services.seat_join(match_id=match.pk, user=bob, token=match.invite_token)
    match.refresh_from_db()
    return match


async def chat(browser: Browser, event: str | None = None) -> dict[str, Any]:
    """The next chat frame (boards and other frames are skipped), of `event` if given."""
    while True:
        message = await browser.recv()
        if message["type"] == "chat" and (event is None or message["event"] == event):
            return message


async def answer(browser: Browser) -> dict[str, Any]:
    """The answer to a chat command (its ack or error), skipping the lines that come meanwhile."""
    while True:
        message = await chat(browser)
        if message["event"] in ("ack", "error"):
            return message


async def opened(
    connect: Any, match: Match, user: Any = None, **kw: Any
) -> tuple[Browser, dict[str, Any]]:
    browser = await connect(match, user, **kw)
    await browser.send(type="chat_join")
    return browser, await chat(browser, "history")


def stored() -> list[Message]:
    return list(Message.objects.order_by("id"))


async def test_a_german_and_a_spanish_player_each_read_phrases_in_their_own_language(
    connect: Any, make_match: Any, bob: Any, alice: Any
) -> None:
    match = await db(duo, make_match, bob)
    de, history = await opened(connect, match, alice, language="de")
    es, _ = await opened(connect, match, bob, language="es")
    assert history["own"] == "players" and history["rooms"] == {"players": []}
    assert {"code": "good_move", "text": "Guter Zug!"} in history["menu"]["phrases"]

    await de.send(type="chat_say", room="players", say="good_move", request_id=rid())
    assert await chat(de, "ack")
    mine = (await chat(de, "message"))["line"]
    theirs = (await chat(es, "message"))["line"]
    assert mine["text"] == "Guter Zug!" and mine["mine"] is True and mine["name"] == "alice"
    assert theirs["text"] == "¡Buena jugada!" and theirs["mine"] is False

    await es.send(type="chat_say", room="players", say="thanks_for_game", request_id=rid())
    assert (await chat(de, "message"))["line"]["text"] == "Danke für die Partie!"
    assert (await chat(es, "message"))["line"]["text"] == "¡Gracias por la partida!"
    await es.send(type="chat_say", room="players", say="clap", request_id=rid())
    line = (await chat(de, "message"))["line"]
    assert line["text"] == "\U0001f44f" and line["label"] == "Applaus"
    # Stored as codes, not words: a later reader in a third language reads their own.
    assert [(m.kind, m.code, m.text) for m in await db(stored)] == [
        ("phrase", "good_move", ""),
        ("phrase", "thanks_for_game", ""),
        ("reaction", "clap", ""),
    ]
    en, history = await opened(connect, match, alice, language="en")
    assert [x["text"] for x in history["rooms"]["players"]] == [
        "Good move!",
        "Thanks for the game!",
        "\U0001f44f",
    ]


HOSTILE = [
    ("<script>alert(1)</script>", None),
    ("see https://evil.example/x?<b>", None),
    ("abc\u202edcba", "chat_invisible"),  # a bidi override
    ("a\u200bb", "chat_invisible"),  # zero-width space
    ("line\nbreak", "chat_invisible"),
    ("x" * 201, "chat_too_long"),
    ("   ", "chat_empty"),
]


async def test_free_text_is_stored_as_text_and_hostile_text_is_refused_clearly(
    connect: Any, make_match: Any, bob: Any, alice: Any
) -> None:
    match = await db(duo, make_match, bob)
    a, _ = await opened(connect, match, alice)
    b, _ = await opened(connect, match, bob)
    for text, code in HOSTILE:
        request = rid()
        await a.send(type="chat_text", room="players", text=text, request_id=request)
        got = await answer(a)
        if code is None:
            assert got["event"] == "ack"
            line = (await chat(b, "message"))["line"]
            assert (
                line["text"] == text and line["free"] is True
            )  # as written; the page sets it as text
        else:
            assert got == {**got, "event": "error", "code": code, "request_id": request}
            assert got["message"]
    assert [m.text for m in await db(stored)] == [t for t, code in HOSTILE if code is None]
    # Full-width letters become plain ones (NFKC).
    await a.send(type="chat_text", room="players", text="ＧＧ", request_id=rid())
    assert (await chat(b, "message"))["line"]["text"] == "GG"
    # Ten kilobytes never reach the chat: over the frame limit, the connection is closed.
    await a.send(type="chat_text", room="players", text="x" * 10_000, request_id=rid())
    out = await a.communicator.receive_output(10)
    while out["type"] == "websocket.send":  # the lines said before it
        assert "x" * 300 not in out.get("text", "")
        out = await a.communicator.receive_output(10)
    assert out["type"] == "websocket.close"
    assert await db(Message.objects.count) == 3


async def test_a_flood_is_refused_in_words_and_nothing_past_the_limit_is_stored(
    connect: Any, make_match: Any, bob: Any, alice: Any, settings: Any
) -> None:
    # The chat's own limit, per person across tables: the connection's frame budget
    # (games.table.budget, tested in tests/games/table/hostile/test_ws_flood.py) is lifted here.
    settings.TABLE_FRAME_BUDGET = (1e6, 10**6, 10**6)
    match = await db(duo, make_match, bob)
    a, _ = await opened(connect, match, alice, language="en")
    for _ in range(100):
        await a.send(type="chat_say", room="players", say="oops", request_id=rid())
    answers = [await answer(a) for _ in range(100)]
    errors = [x for x in answers if x["event"] == "error"]
    assert {x["code"] for x in errors} == {"chat_flood"} and len(errors) >= 100 - 2 * FLOOD_COUNT
    assert "too fast" in errors[0]["message"]
    # Nothing stored beyond the limit: no ten seconds hold more than five (a slow machine may
    # take more than ten seconds over the hundred, and then a second five is fair).
    times = await db(
        lambda: list(Message.objects.order_by("id").values_list("created_at", flat=True))
    )
    assert len(times) == [x["event"] for x in answers].count("ack") >= FLOOD_COUNT
    for i, at in enumerate(times):
        assert sum(1 for t in times[: i + 1] if at - t < FLOOD_WINDOW) <= FLOOD_COUNT


async def test_a_guest_sends_phrases_but_not_free_text(
    connect: Any, make_match: Any, bob: Any
) -> None:
    from accounts.models import Guest

    match = await db(duo, make_match, bob)
    await db(lambda: Guest.objects.create(user=bob, last_seen=match.created_at))
    b, history = await opened(connect, match, bob, language="en")
    assert history["may"]["free_text"] is False and history["may"]["post"] is True
    await b.send(type="chat_text", room="players", text="hello", request_id=rid())
    answer = await chat(b, "error")
    assert answer["code"] == "chat_guest_text" and "Guests" in answer["message"]
    await b.send(type="chat_say", room="players", say="hello", request_id=rid())
    assert (await chat(b, "message"))["line"]["text"] == "Hello!"
    assert [m.kind for m in await db(stored)] == ["phrase"]


async def test_a_muted_person_is_not_read_live_nor_in_the_history_and_the_mute_is_kept(
    connect: Any, make_match: Any, bob: Any, alice: Any
) -> None:
    match = await db(duo, make_match, bob)
    a, _ = await opened(connect, match, alice)
    b, _ = await opened(connect, match, bob)
    await b.send(type="chat_text", room="players", text="annoying", request_id=rid())
    first = (await chat(a, "message"))["line"]
    await a.send(type="chat_mute", ref=first["id"])
    notice = await chat(a, "notice")
    assert "bob" in notice["message"] and [m["name"] for m in notice["mutes"]] == ["bob"]
    assert await db(
        lambda: list(Mute.objects.values_list("user__username", "muted__username"))
    ) == [("alice", "bob")]
    await b.send(type="chat_text", room="players", text="still annoying", request_id=rid())
    await chat(b, "message")
    await a.send(type="chat_say", room="players", say="hello", request_id=rid())
    assert (await chat(a, "message"))["line"][
        "mine"
    ] is True  # bob's second line never came before it
    again, history = await opened(connect, match, alice)
    assert history["rooms"]["players"][-1]["text"] == "Hello!"
    assert all(x["name"] != "bob" for x in history["rooms"]["players"])
    # Unmuted: bob is read again.
    await again.send(type="chat_unmute", ref=notice["mutes"][0]["id"])
    assert (await chat(again, "notice"))["mutes"] == []
    await b.send(type="chat_say", room="players", say="sorry", request_id=rid())
    assert (await chat(again, "message"))["line"]["name"] == "bob"
    kinds = await db(lambda: list(Action.objects.order_by("id").values_list("kind", flat=True)))
    assert kinds == ["mute", "unmute"]
    # Nobody mutes themselves.
    await b.send(type="chat_mute", ref=first["id"])
    assert (await chat(b, "error"))["code"] == "chat_own_message"


async def test_only_the_creator_turns_the_chat_off_and_then_nobody_writes(
    connect: Any, make_match: Any, bob: Any, alice: Any
) -> None:
    match = await db(duo, make_match, bob)
    a, history = await opened(connect, match, alice)
    b, other = await opened(connect, match, bob)
    assert history["may"]["switch"] is True and other["may"]["switch"] is False
    await b.send(type="chat_switch", on=False)
    assert (await chat(b, "error"))["code"] == "chat_not_creator"
    await a.send(type="chat_switch", on=False)
    assert (await chat(b, "state"))["on"] is False
    await b.send(type="chat_say", room="players", say="hello", request_id=rid())
    answer = await chat(b, "error")
    assert answer["code"] == "chat_off" and "turned the chat off" in answer["message"]
    assert await db(Message.objects.count) == 0
    assert (await opened(connect, match, bob))[1]["on"] is False
    await a.send(type="chat_switch", on=True)
    assert (await chat(b, "state"))["on"] is True
    await b.send(type="chat_say", room="players", say="hello", request_id=rid())
    await chat(b, "ack")
    assert await db(lambda: TableChat.objects.get(match=match).on) is True
    assert await db(lambda: list(Action.objects.values_list("kind", flat=True))) == [
        "chat_off",
        "chat_on",
    ]


async def test_spectators_have_their_own_room_and_never_read_nor_write_the_players_room(
    connect: Any, make_match: Any, bob: Any, alice: Any, carol: Any
) -> None:
    match = await db(duo, make_match, bob)
    a, _ = await opened(connect, match, alice)
    s, history = await opened(connect, match, carol, watch=match.watch_token)
    anon, anon_history = await opened(connect, match, None, watch=match.watch_token)
    assert history["own"] == "spectators" and set(history["rooms"]) == {"spectators"}
    assert set(anon_history["rooms"]) == {"spectators"} and anon_history["may"]["post"] is False
    await a.send(type="chat_text", room="players", text="players only", request_id=rid())
    await chat(a, "message")
    # The spectator may not write in the players' room, nor read it.
    await s.send(type="chat_text", room="players", text="let me in", request_id=rid())
    assert (await chat(s, "error"))["code"] == "chat_no_room"
    await s.send(type="chat_text", room="spectators", text="from the rail", request_id=rid())
    assert (await chat(s, "message"))["line"]["room"] == "spectators"
    assert (await chat(anon, "message"))["line"]["text"] == "from the rail"
    await anon.send(type="chat_say", room="spectators", say="hello", request_id=rid())
    assert (await chat(anon, "error"))["code"] == "chat_not_signed_in"
    await s.send(type="chat_open", open=True)
    assert (await chat(s, "error"))["code"] == "chat_not_player"
    assert all("players only" not in frame for frame in s.frames + anon.frames)
    # A player opens the spectators' room by choice, and reads it from then on.
    assert await a.quiet()
    await a.send(type="chat_open", open=True)
    room = await chat(a, "room")
    assert [x["text"] for x in room["lines"]] == ["from the rail"]
    await s.send(type="chat_say", room="spectators", say="good_luck", request_id=rid())
    assert (await chat(a, "message"))["line"]["room"] == "spectators"
    await a.send(type="chat_open", open=False)
    await s.send(type="chat_say", room="spectators", say="bye", request_id=rid())
    await chat(s, "message")
    assert await a.quiet()
    assert all("players only" not in frame for frame in s.frames + anon.frames)


async def test_a_report_is_stored_and_a_hidden_message_leaves_every_page(
    connect: Any, make_match: Any, bob: Any, alice: Any, django_user_model: Any
) -> None:
    from games.chat import services as chat_services

    match = await db(duo, make_match, bob)
    a, _ = await opened(connect, match, alice)
    b, _ = await opened(connect, match, bob)
    await b.send(type="chat_text", room="players", text="rude words", request_id=rid())
    line = (await chat(a, "message"))["line"]
    await a.send(type="chat_report", ref=line["id"])
    assert (await chat(a, "notice"))["message"]
    await a.send(type="chat_report", ref=10**9)
    assert (await chat(a, "error"))["code"] == "chat_no_message"
    staff = await db(lambda: django_user_model.objects.create_user("mod", is_staff=True))
    await db(lambda: chat_services.hide(Message.objects.filter(pk=line["id"]), by=staff))
    assert (await chat(a, "hidden"))["id"] == line["id"]
    assert (await chat(b, "hidden"))["id"] == line["id"]
    assert (await opened(connect, match, alice))[1]["rooms"]["players"] == []
    await db(lambda: chat_services.block([bob.pk], by=staff))
    await b.send(type="chat_say", room="players", say="sorry", request_id=rid())
    assert (await chat(b, "error"))["code"] == "chat_blocked"
    kinds = await db(lambda: list(Action.objects.order_by("id").values_list("kind", flat=True)))
    assert kinds == ["report", "hide", "block"]


async def test_chat_commands_are_checked_like_every_frame(
    connect: Any, make_match: Any, bob: Any, alice: Any
) -> None:
    match = await db(duo, make_match, bob)
    a, _ = await opened(connect, match, alice)
    for bad in (
        {"type": "chat_say", "room": "kitchen", "say": "hello", "request_id": "r1"},
        {"type": "chat_say", "room": ["players"], "say": "hello", "request_id": "r1"},
        {"type": "chat_text", "room": "players", "text": 5, "request_id": "r1"},
        {"type": "chat_mute", "ref": "1"},
        {"type": "chat_say", "room": "players", "say": "hello"},
    ):
        await a.send_raw(json.dumps(bad))
        assert (await a.expect("error"))["code"] == "bad_request"
    await a.send(type="chat_say", room="players", say="no_such_phrase", request_id=rid())
    assert (await chat(a, "error"))["code"] == "chat_unknown_phrase"
    assert await db(Message.objects.count) == 0
