"""After-commit notices (no private data, never failing a service) and error words."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.utils import translation

from engine.rules import legal_actions
from games import notify
from games.errors import CODES, GameError
from games.models import Match
from games.table.commands.undo import match_undo
from tests.games.conftest import Driver, state_of


def test_match_changed_reaches_the_match_group_with_only_the_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(
        notify, "hub_sink", None
    )  # no hub in this process: nothing marks the origin
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(notify.match_group(41), channel)
    assert notify.match_group(41) == "match-41"
    assert notify.match_changed(41, 9) is True
    assert async_to_sync(layer.receive)(channel) == {
        "type": "match.changed",
        "version": 9,
        "match": 41,
    }
    assert notify.match_paused(41, True) is True
    assert async_to_sync(layer.receive)(channel) == {
        "type": "match.paused",
        "paused": True,
        "match": 41,
    }


@pytest.mark.asyncio
async def test_a_notice_sent_from_a_thread_running_an_event_loop_still_arrives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Code driving a browser calls the services from its own event loop's thread: the
    notice still goes (the pages there would otherwise never hear of the change)."""
    monkeypatch.setattr(notify, "hub_sink", None)
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(notify.match_group(42), channel)
    assert notify.match_changed(42, 3) is True  # a plain call, inside the running loop
    assert await layer.receive(channel) == {"type": "match.changed", "version": 3, "match": 42}


class ElsewhereLayer:
    """A layer that sends a group message to the other processes only, as the site's Redis
    layer does (tablesite.layers), recording what it was asked to send."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.fail = False

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        raise AssertionError("a notice told here goes to the other processes only")

    async def group_send_elsewhere(self, group: str, message: dict[str, Any]) -> None:
        if self.fail:
            raise ConnectionError("redis is down")
        self.sent.append((group, message))


@pytest.mark.asyncio
async def test_a_commands_notices_are_kept_and_the_layers_copies_sent_from_the_loop_in_order(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Within `held` (a table connection's command, in a database thread) the hubs' notices
    and the layer's copies are kept: the thread waits for nobody. The connection then hands
    the first to its hubs and sends the copies from its event loop, in the order they were
    made; a layer that fails is logged, not raised (the change is committed)."""
    told_here: list[tuple[int, dict[str, Any]]] = []
    layer = ElsewhereLayer()
    monkeypatch.setattr(notify, "hub_sink", lambda match_id, m: told_here.append((match_id, m)))
    monkeypatch.setattr(notify, "get_channel_layer", lambda: layer)
    with notify.held() as told:
        assert notify.match_changed(7, 10, computer_next=False) is True
        assert notify.match_changed(7, 11, computer_next=False) is True
    assert told_here == [] and layer.sent == []  # nothing yet
    assert [m["version"] for _, m in told.hubs] == [10, 11]
    sending = notify.send_elsewhere(told.elsewhere)
    assert sending is not None
    await sending
    assert [(group, m["version"]) for group, m in layer.sent] == [("match-7", 10), ("match-7", 11)]
    assert all(m["origin"] == notify.ORIGIN for _, m in layer.sent)

    layer.fail = True
    with caplog.at_level(logging.WARNING, logger="games.notify"):
        sending = notify.send_elsewhere([("match-7", {"type": "match.changed", "version": 12})])
        assert sending is not None
        await sending
    assert "channel layer unreachable" in caplog.text

    # outside `held` (the computers' worker, a management command): sent before it returns
    layer.fail = False
    assert await asyncio.to_thread(notify.match_changed, 7, 13, computer_next=False) is True
    assert layer.sent[-1][1]["version"] == 13 and told_here[-1][1]["version"] == 13


def test_a_missing_channel_layer_is_logged_not_raised(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken() -> Any:
        raise ConnectionError("redis is down")

    monkeypatch.setattr(notify, "get_channel_layer", broken)
    with caplog.at_level(logging.WARNING, logger="games.notify"):
        assert notify.match_changed(1, 2) is False
    assert "could not notify match 1" in caplog.text
    monkeypatch.setattr(notify, "get_channel_layer", lambda: None)
    assert notify.match_changed(1, 2) is False


@pytest.mark.django_db
def test_a_failing_notice_never_fails_the_committed_change(
    make_match: Callable[..., Match],
    alice: Any,
    driver: Callable[..., Driver],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    match = make_match("me", "computer")
    d = driver(match, {0: alice})
    state = d.to_human_turn()

    def broken() -> Any:
        raise ConnectionError("redis is down")

    monkeypatch.setattr(notify, "get_channel_layer", broken)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        result = d.submit(legal_actions(state)[0])
    assert len(callbacks) == 1
    match.refresh_from_db()
    assert match.version == result.version and state_of(match) != state


def test_error_codes_and_the_rules_anchor() -> None:
    with pytest.raises(ValueError):
        GameError("oops", "no such code")
    e = GameError("illegal", "Ben's train is not open to you.", rule="R13", reason="train_not_open")
    assert e.to_json() == {
        "type": "error",
        "code": "illegal",
        "message": e.message,
        "rule": "R13",
        "reason": "train_not_open",
        "why_url": "/rules/#R13",
    }
    assert GameError("stale", "Refresh").to_json() == {
        "type": "error",
        "code": "stale",
        "message": "Refresh",
    }
    assert {
        "not_found",
        "forbidden",
        "not_your_turn",
        "stale",
        "illegal",
        "bad_request",
        "not_started",
        "seat_taken",
        "no_undo",
        "no_redo",
        "request_open",
        "no_request",
    } == set(CODES)


@pytest.mark.django_db
def test_refusals_speak_the_players_language(
    make_match: Callable[..., Match], alice: Any, carol: Any
) -> None:

    match = make_match("me", "computer")
    expected = {"es": "Recarga la página", "de": "Lade die Seite neu"}
    for language, words in expected.items():
        with translation.override(language), pytest.raises(GameError) as info:
            match_undo(
                match_id=match.pk, user=alice, expected_version=match.version + 5, request_id="r"
            )
        assert info.value.code == "stale" and words in info.value.message
