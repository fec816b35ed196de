"""R32 "End the match after this round" over the websocket: asked of the other person at a
shared table, declined (the asker's board names who declined), asked again with
the same request id (answered with the request's true state), then accepted."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine.serialize import state_from_json
from games import services
from games.models import ChangeRequest, Match
from tests.games.table.socket.conftest import db

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def ask_of(board: dict[str, Any]) -> int | None:
    found = re.search(r'data-cmd="accept" data-ask="(\d+)"', board["html"])
    return int(found.group(1)) if found else None


def shared(make_match: Any, bob: Any) -> Match:
    match = make_match("me", "human", "computer")
    services.seat_join(match_id=match.pk, user=bob, token=match.invite_token)
    return Match.objects.get(pk=match.pk)


def final(match_id: int) -> bool:
    return state_from_json(Match.objects.get(pk=match_id).state).start.final


async def test_end_after_this_round_by_consent_over_the_socket(
    connect: Any, make_match: Any, alice: Any, bob: Any
) -> None:
    match = await db(shared, make_match, bob)
    me = await connect(match, alice)
    other = await connect(match, bob)
    assert 'data-cmd="last_round"' in me.last_board["html"]
    await me.send(type="last_round", version=me.version, request_id="end-1")
    ack = await me.expect("ack")
    assert (ack["asked"], ack["request"]) == (True, "open")
    theirs = await other.board(at_least=ack["version"])
    ask = ask_of(theirs)
    assert ask is not None and "asks to end the match after this round" in theirs["html"]
    await other.send(type="decline", ask=ask, request_id="no")
    version = (await other.expect("ack"))["version"]
    mine = await me.board(at_least=version)
    assert "bob\u2069 declined your request to end the match after this round." in mine["html"]
    assert not await db(final, match.pk)
    # the page sends its request again (a reconnect): it is told the request was declined
    await me.send(type="last_round", version=ack["version"], request_id="end-1")
    again = await me.expect("ack")
    assert (again["duplicate"], again["asked"], again["request"]) == (True, True, "declined")
    await me.send(type="last_round", version=version, request_id="end-2")
    asked = (await me.expect("ack"))["version"]
    ask = ask_of(await other.board(at_least=asked))
    await other.send(type="accept", ask=ask, request_id="yes")
    await other.expect("ack")
    assert await db(final, match.pk)
    assert (
        await db(lambda: ChangeRequest.objects.filter(match_id=match.pk, status="done").count())
        == 1
    )
