"""The computers' pace and "skip to my turn" over the table's websocket: a seated person
changes them, everyone at the table sees the result, spectators and strangers cannot,
malformed commands are refused and change nothing."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from games import services
from games.models import Match
from tests.games.table.socket.conftest import db, rid, snapshot, state_of
from tests.games.table.socket.test_commands import to_computer_turn, to_my_turn

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def pace_shown(board: dict[str, Any]) -> str | None:
    found = re.search(r'data-pace-now="(\w+)"', board["html"])
    return found.group(1) if found else None


def skip_button(html: str) -> str | None:
    """ "Skip to my turn" on a board: None (not there), "disabled" (standing in place) or "enabled"."""
    found = re.search(r"<button[^>]*data-skip[^>]*>", html)
    return None if found is None else "disabled" if " disabled" in found.group(0) else "enabled"


def pace_of(match_id: int) -> tuple[str, bool]:
    m = Match.objects.get(pk=match_id)
    return m.pace, m.hurry


async def test_a_player_sets_the_pace_and_every_page_shows_it(
    make_match: Any, alice: Any, bob: Any, connect: Any
) -> None:
    match = await db(make_match, "me", "computer", "human")
    await db(services.seat_join, match_id=match.pk, user=bob, token=match.invite_token)
    me = await connect(match, alice)
    other = await connect(match, bob)
    spectator = await connect(match, watch=match.watch_token)
    assert pace_shown(me.last_board) == pace_shown(spectator.last_board) == "normal"  # type: ignore[arg-type]
    assert 'data-pace="fast"' in me.last_board["html"]  # type: ignore[index]  # the menu's choices
    assert 'data-pace="fast"' not in spectator.last_board["html"]  # type: ignore[index]
    await me.send(type="pace", pace="fast", request_id="pace-1")
    ack = await me.expect("ack")
    assert ack["request_id"] == "pace-1" and ack["version"] == me.version + 1
    for page in (me, other, spectator):
        board = await page.board(at_least=ack["version"])
        assert pace_shown(board) == "fast"
    assert await db(pace_of, match.pk) == ("fast", False)
    assert re.search(r'data-pace="fast" aria-pressed="true"', me.last_board["html"])  # type: ignore[index]


async def test_spectators_and_bad_paces_are_refused_and_change_nothing(
    make_match: Any, alice: Any, connect: Any
) -> None:
    match = await db(make_match, "me", "computer")
    await to_computer_turn(match.pk, alice)
    me = await connect(match, alice)
    spectator = await connect(match, watch=match.watch_token)
    before = await db(snapshot, match.pk)
    for message in [
        dict(type="pace", pace="fast", request_id=rid()),
        dict(type="skip", request_id=rid()),
    ]:
        await spectator.send(**message)
        assert (await spectator.expect("error"))["code"] == "forbidden", message
        await spectator.expect("board")
    # The service refuses (and sends the board as it is), or the protocol does (only the error).
    for message, board_follows in [
        (dict(type="pace", pace="ludicrous", request_id=rid()), True),
        (dict(type="pace", pace="normal", request_id=rid()), True),  # already so
        (dict(type="pace", pace=3, request_id=rid()), False),
        (dict(type="pace", pace="x" * 40, request_id=rid()), False),
        (dict(type="pace", request_id=rid()), False),
        (dict(type="pace", pace="fast"), False),
        (dict(type="skip", request_id=rid(), version=1), False),
    ]:
        await me.send(**message)
        assert (await me.expect("error"))["code"] == "bad_request", message
        if board_follows:
            await me.expect("board")
        assert await me.quiet()
    await me.alive()
    assert await db(snapshot, match.pk) == before
    assert await db(pace_of, match.pk) == ("normal", False)


async def test_skip_to_my_turn_is_offered_on_a_computers_turn_and_hurries_it(
    make_match: Any, alice: Any, connect: Any
) -> None:
    match = await db(make_match, "me", "computer", "computer")
    await to_my_turn(match.pk)
    me = await connect(match, alice)
    spectator = await connect(match, watch=match.watch_token)
    assert skip_button(me.last_board["html"]) == "disabled"  # type: ignore[index]  # it is my turn: in place, unusable
    # Refused on a person's turn: nothing changes.
    await me.send(type="skip", request_id=rid())
    assert (await me.expect("error"))["code"] == "illegal"
    await me.expect("board")
    await to_computer_turn(match.pk, alice)
    board = await me.board(at_least=await db(lambda: Match.objects.get(pk=match.pk).version))
    assert skip_button(board["html"]) == "enabled"
    assert skip_button((await spectator.board(at_least=board["version"]))["html"]) is None
    await me.send(type="skip", request_id="skip-1")
    ack = await me.expect("ack")
    board = await me.board(at_least=ack["version"])
    assert skip_button(board["html"]) == "disabled" and await db(pace_of, match.pk) == (
        "normal",
        True,
    )
    assert "data-pace-now" in (await spectator.board(at_least=ack["version"]))["html"]
    # The computers play to my turn; then the table is back at its pace.
    while (await db(state_of, match.pk)).turn != 0:
        assert await db(services.computer_step, match_id=match.pk) is not None
    assert await db(pace_of, match.pk) == ("normal", False)


async def test_the_undo_button_says_what_it_takes_back(
    make_match: Any, alice: Any, connect: Any
) -> None:
    match = await db(make_match, "me", "computer", "computer")
    await to_my_turn(match.pk)
    await to_computer_turn(match.pk, alice)
    await to_my_turn(match.pk)
    me = await connect(match, alice)
    html = me.last_board["html"]  # type: ignore[index]
    undo = re.search(r'<button[^>]*data-cmd="undo"[^>]*>', html)
    assert undo is not None, "Undo is offered after my move"
    title = re.search(r'title="([^"]*)"', undo.group(0)).group(1)  # type: ignore[union-attr]
    assert (
        re.match(r"Undo (your |the end of your first turn)", title) and "computer move" in title
    ), title
    # The same button in Spanish, with the words of the language's catalogue.
    es = await connect(match, alice, language="es")
    es_undo = re.search(r'<button[^>]*data-cmd="undo"[^>]*>', es.last_board["html"])  # type: ignore[index]
    assert es_undo is not None and re.search(
        r"Deshacer (tu |el final de tu primer turno)", es_undo.group(0)
    )
    assert "ordenador" in es_undo.group(0)
    json.dumps(es.last_board)  # a plain message


def autodraw_of(user: Any) -> bool:
    from accounts.models import Preferences

    return Preferences.objects.filter(user=user, autodraw=True).exists()


async def test_draw_and_pass_for_me_is_kept_on_the_account(
    make_match: Any, alice: Any, connect: Any
) -> None:
    """A player turns "draw and pass for me" on from the table: it is kept on their account
    (not in one browser), this page's board says so at once and so does every later page;
    a spectator cannot set it and nothing of the match changes."""
    match = await db(make_match, "me", "computer")
    me = await connect(match, alice)
    assert 'data-draw-pass="off"' in me.last_board["html"]  # type: ignore[index]
    version = me.version
    await me.send(type="autodraw", on=True)
    board = await me.expect("board")
    assert 'data-draw-pass="on"' in board["html"] and re.search(
        r'data-autodraw aria-pressed="true"', board["html"]
    )
    assert await db(autodraw_of, alice) and board["version"] == version  # the match did not change
    again = await connect(match, alice)  # another browser of hers
    assert 'data-draw-pass="on"' in again.last_board["html"]  # type: ignore[index]
    spectator = await connect(match, watch=match.watch_token)
    await spectator.send(type="autodraw", on=False)
    assert (await spectator.expect("error"))["code"] == "forbidden"
    assert await db(autodraw_of, alice)
    for bad in (
        dict(type="autodraw", on="yes"),
        dict(type="autodraw"),
        dict(type="autodraw", on=True, seat=0),
    ):
        await me.send(**bad)
        assert (await me.expect("error"))["code"] == "bad_request", bad
    await me.send(type="autodraw", on=False)
    assert 'data-draw-pass="off"' in (await me.expect("board"))["html"]
    assert not await db(autodraw_of, alice)
