"""A computer standing in for an away player, through the table's websocket
(games.attendance.standin): the heartbeat that keeps a connection present, a killed server's
connection that stops counting, the worker's notice that brings the offer to the others'
pages, the hand-over and the owner's one-click return — and no page showing the away
player's hand."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from engine.serialize import state_from_json
from games import services
from games.attendance import presence, standin
from games.models import Match, Presence, Seat
from tests import seeded
from tests.games.table.socket.conftest import db, hand_tiles, spec

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def make_table(alice: Any, bob: Any) -> Match:
    match = seeded.match_create(
        creator=alice,
        seats=[spec("me"), spec("human"), spec("computer")],
        seed=77,
        away_limit="10m",
    )
    services.seat_join(match_id=match.pk, user=bob, token=match.invite_token)
    return Match.objects.get(pk=match.pk)


def backdate(user: Any, minutes: float) -> int:
    """`user`'s presence rows as if last renewed `minutes` ago (their server stopped renewing)."""
    return Presence.objects.filter(user=user).update(
        alive_at=timezone.now() - timedelta(minutes=minutes)
    )


def bobs_hand(match_id: int) -> set[str]:
    hand = state_from_json(Match.objects.get(pk=match_id).state).hands[1]
    return {f"{max(t)}-{min(t)}" for t in hand}


async def until(predicate: Any, browser: Any, tries: int = 10) -> dict[str, Any]:
    for _ in range(tries):
        board = await browser.board()
        if predicate(board["html"]):
            return board
    raise AssertionError("no such board came")


async def acked(browser: Any) -> dict[str, Any]:
    """The ack of the last command (boards sent before it are kept, as the page keeps them)."""
    for _ in range(10):
        message = await browser.recv()
        if message["type"] == "ack":
            return message
        assert message["type"] == "board", message
    raise AssertionError("no ack")


async def test_the_connection_renews_its_presence_while_open(
    alice: Any, bob: Any, connect: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(presence, "RENEW", timedelta(seconds=0.05))
    match = await db(make_table, alice, bob)
    await connect(match, alice)
    await db(backdate, alice, 60)
    await asyncio.sleep(0.4)  # a few heartbeats
    assert await db(presence.connected, alice.pk)


async def test_a_killed_servers_connection_stops_counting_and_the_seat_is_handed_over(
    alice: Any, bob: Any, connect: Any
) -> None:
    match = await db(make_table, alice, bob)
    bob_page = await connect(match, bob)  # open; its server "dies": no close, no renewal
    alice_page = await connect(match, alice)
    await alice_page.send(type="stand_in", seat=1, request_id="too-early")
    error = await alice_page.expect("error")
    assert error["code"] == "illegal" and "at the table" in error["message"]
    await db(backdate, bob, 11)  # not renewed for 11 minutes: bob is away since then

    # The worker's look for limits just passed brings the offer to alice's page (no new version).
    now = timezone.now()
    assert await db(standin.announce_due, since=now - timedelta(minutes=2), now=now) == [match.pk]
    board = await until(lambda html: 'data-stand-in="1"' in html, alice_page)
    assert "Let a computer play for" in board["html"]

    await alice_page.send(type="stand_in", seat=1, request_id="hand-over")
    ack = await acked(alice_page)
    board = await alice_page.catch_up(ack["version"])
    assert "(a computer plays)" in board["html"]
    assert not set(hand_tiles(board)) & await db(bobs_hand, match.pk)
    assert (await db(Seat.objects.get, match=match, index=1)).standin == "casual"

    # bob's old page hears of it too: no hand, and the one click that takes the seat back
    bob_board = await until(lambda html: 'data-take-back="1"' in html, bob_page)
    assert hand_tiles(bob_board) == []
    await bob_page.send(type="take_back", seat=1, request_id="back")
    ack = await acked(bob_page)
    bob_board = await bob_page.catch_up(ack["version"])
    assert set(hand_tiles(bob_board)) == await db(bobs_hand, match.pk)
    assert "data-take-back" not in bob_board["html"]
    assert (await db(Seat.objects.get, match=match, index=1)).standin == ""


async def test_stand_in_frames_are_checked_like_every_command(
    alice: Any, bob: Any, connect: Any
) -> None:
    match = await db(make_table, alice, bob)
    page = await connect(match, alice)
    for frame in (
        {"type": "stand_in", "seat": "1", "request_id": "a"},
        {"type": "stand_in", "seat": 1},
        {"type": "take_back", "seat": 1, "request_id": "b", "extra": 1},
        {"type": "away_limit", "limit": 10, "request_id": "c"},
    ):
        await page.send(**frame)
        assert (await page.expect("error"))["code"] == "bad_request"
    await page.send(type="take_back", seat=1, request_id="not-mine")
    assert (await page.expect("error"))["code"] == "forbidden"
    watcher = await connect(match, None, watch=match.watch_token)
    await watcher.send(type="stand_in", seat=1, request_id="watcher")
    assert (await watcher.expect("error"))["code"] == "forbidden"
    await page.send(type="away_limit", limit="1d", request_id="limit")
    ack = await acked(page)  # at a table shared with bob it is asked of him (games.consent)
    assert ack["asked"] is True and ack["request"] == "open"
    assert (await db(Match.objects.get, pk=match.pk)).away_limit == "10m"
