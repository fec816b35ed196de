"""Undo and restart requests at a shared table, over the websocket (fault 3):
the others see Accept and Decline on their board, the asker sees that the others are
asked, and the answer is a command of its own (``accept`` / ``decline`` with ``ask``)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import services
from games.models import ChangeRequest, Match
from games.table import protocol
from tests.games.table.socket.conftest import db

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def ask_of(board: dict[str, Any]) -> int | None:
    found = re.search(r'data-cmd="accept" data-ask="(\d+)"', board["html"])
    return int(found.group(1)) if found else None


def shared(make_match: Any, bob: Any) -> Match:
    match = make_match("me", "human", "computer")
    services.seat_join(match_id=match.pk, user=bob, token=match.invite_token)
    return Match.objects.get(pk=match.pk)


def restarts(match_id: int) -> int:
    return Match.objects.get(pk=match_id).rounds.get().restarts


async def test_the_others_accept_a_restart_on_their_board(
    connect: Any, make_match: Any, alice: Any, bob: Any, carol: Any
) -> None:
    match = await db(shared, make_match, bob)
    me = await connect(match, alice)
    other = await connect(match, bob)
    spectator = await connect(match, watch=match.watch_token)
    await me.send(type="restart", version=me.version, request_id="ask-1")
    ack = await me.expect("ack")
    assert ack["asked"] is True
    mine = await me.board(at_least=ack["version"])
    assert "Waiting for the others" in mine["html"] and ask_of(mine) is None
    assert 'data-cmd="restart"' not in mine["html"]  # one request at a time
    theirs = await other.board(at_least=ack["version"])
    ask = ask_of(theirs)
    assert ask is not None and "alice" in theirs["html"]
    watched = await spectator.board(at_least=ack["version"])
    assert ask_of(watched) is None  # a spectator is not asked
    assert await db(restarts, match.pk) == 0
    # The asker cannot answer for the others; an answer needs the request's id.
    await me.send(type="accept", ask=ask, request_id="self")
    assert (await me.expect("error"))["code"] == "forbidden"
    await other.send(type="accept", request_id="no-ask")
    assert (await other.expect("error"))["code"] == protocol.BAD_REQUEST
    await other.send(type="accept", ask=ask, request_id="yes")
    assert (await other.expect("ack"))["request_id"] == "yes"
    assert await db(restarts, match.pk) == 1


async def test_a_decline_closes_the_request(
    connect: Any, make_match: Any, alice: Any, bob: Any
) -> None:
    match = await db(shared, make_match, bob)
    me = await connect(match, alice)
    other = await connect(match, bob)
    await me.send(type="restart", version=me.version, request_id="ask-1")
    version = (await me.expect("ack"))["version"]
    ask = ask_of(await other.board(at_least=version))
    await other.send(type="decline", ask=ask, request_id="no")
    version = (await other.expect("ack"))["version"]
    board = await me.board(at_least=version)
    assert "Waiting for the others" not in board["html"]
    assert (
        await db(lambda: ChangeRequest.objects.get(pk=ask).status) == ChangeRequest.Status.DECLINED
    )
    assert await db(restarts, match.pk) == 0


async def test_a_request_nobody_answers_closes_on_time_on_every_board(
    connect: Any, make_match: Any, alice: Any, bob: Any
) -> None:
    """The banner says when answers close; once the minute is over, the computer worker's
    next pass closes the request for everyone watching — nobody has to ask anything."""
    from datetime import timedelta

    from django.utils import timezone

    from games.worker import ComputerWorker

    match = await db(shared, make_match, bob)
    me = await connect(match, alice)
    other = await connect(match, bob)
    spectator = await connect(match, watch=match.watch_token)
    await me.send(type="restart", version=me.version, request_id="ask-1")
    asked = (await me.expect("ack"))["version"]
    theirs = await other.board(at_least=asked)
    ask = ask_of(theirs)
    assert ask is not None
    expires = await db(lambda: ChangeRequest.objects.get(pk=ask).expires_at)
    assert f'datetime="{expires.isoformat()}"' in theirs["html"]  # "Answers close at …"
    assert "Answers close at" in theirs["html"] and expires.strftime("%H:%M:%S") in theirs["html"]
    worker = ComputerWorker()
    await db(worker.expire_requests)  # within its minute: nothing happens
    assert await db(lambda: ChangeRequest.objects.get(pk=ask).status) == ChangeRequest.Status.OPEN

    await db(
        lambda: ChangeRequest.objects.filter(pk=ask).update(
            expires_at=timezone.now() - timedelta(seconds=1)
        )
    )
    worker.requests_at = None  # its next look is due
    await db(worker.expire_requests)
    for viewer in (me, other, spectator):
        board = await viewer.board(at_least=asked + 1)
        assert ask_of(board) is None and "Waiting for the other" not in board["html"]
        assert "Nobody answered the restart request in time" in board["html"]
    assert (
        await db(lambda: ChangeRequest.objects.get(pk=ask).status) == ChangeRequest.Status.EXPIRED
    )
    assert await db(restarts, match.pk) == 0
