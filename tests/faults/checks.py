"""What the fault tests check after a crash: the database against what the clients were told."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Any

from django.db import connection, transaction

from engine.replay import parse_action
from engine.serialize import state_to_json
from games import services
from games.models import ClientRequest, LogEntry, Match
from games.services import SeatSpec
from tests import reads, seeded
from tests.faults.conftest import db
from tests.faults.players import Player


def new_match(alice: Any, bob: Any, seed: int = 5150) -> Match:
    """alice (seat 0), a casual computer, bob (seat 2, joined by invitation), an expert computer."""
    match = seeded.match_create(
        creator=alice,
        seed=seed,
        seats=[
            SeatSpec("me"),
            SeatSpec("computer", level="casual"),
            SeatSpec("human"),
            SeatSpec("computer", level="expert"),
        ],
    )
    services.seat_join(match_id=match.pk, user=bob, token=match.invite_token)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    return match


def version_of(match_id: int) -> int:
    return int(Match.objects.values_list("version", flat=True).get(pk=match_id))


def stored(match_id: int) -> dict[str, Any]:
    """Everything the checks need from the database, read as one snapshot: the computers may
    still be moving, and a snapshot read before a move with a log read after it would differ."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        return _stored(match_id)


def _stored(match_id: int) -> dict[str, Any]:
    match = Match.objects.get(pk=match_id)
    entries = list(
        LogEntry.objects.filter(round__match=match)
        .order_by("round__number", "seq")
        .values("round__number", "seq", "kind", "seat", "action", "version", "by_computer")
    )
    requests = dict(ClientRequest.objects.filter(match=match).values_list("request_id", "version"))
    return {
        "version": match.version,
        "snapshot": match.state,
        "entries": entries,
        "requests": requests,
        "rebuilt": state_to_json(reads.rebuild_state(match)),
        "status": match.status,
    }


async def wait_quiet(match_id: int, *, quiet: float = 1.0, limit: float = 20.0) -> int:
    """Wait until the match stops changing (the computers wait for a person); its version."""
    end = time.monotonic() + limit
    last, since = await db(version_of, match_id), time.monotonic()
    while time.monotonic() < end:
        await asyncio.sleep(0.1)
        now = await db(version_of, match_id)
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return int(now)
    raise AssertionError("the match never came to rest")


def assert_acknowledged_actions_stored(players: Sequence[Player], data: dict[str, Any]) -> int:
    """Every ack any client saw is stored: its request at the acked version and, for a move,
    the log entry of that version with the sender's seat and move. Each request applied once.
    Returns the number of acks checked."""
    by_version = {e["version"]: e for e in data["entries"]}
    acked = 0
    for p in players:
        for request_id, version in p.sock.acks.items():
            sent = p.sent[request_id]
            assert data["requests"].get(request_id) == version, (p.sock.name, request_id, version)
            if sent["type"] == "act":
                entry = by_version[version]
                assert (
                    entry["kind"] == "action"
                    and entry["seat"] == sent["seat"]
                    and not entry["by_computer"]
                )
                assert parse_action(entry["action"]) == parse_action(
                    {**sent["action"], "seat": sent["seat"]}
                )
            acked += 1
    # A command re-sent with its request id after a drop was applied once at most.
    human_moves = [e for e in data["entries"] if e["kind"] == "action" and not e["by_computer"]]
    sent_moves = [
        r
        for p in players
        for r, c in p.sent.items()
        if c["type"] == "act" and r in data["requests"]
    ]
    assert len(human_moves) == len(sent_moves)
    return acked


def assert_resumable(data: dict[str, Any]) -> None:
    """The snapshot is the deal plus the log; versions only grow; each round's log has no gap."""
    assert data["snapshot"] == data["rebuilt"]
    versions = [e["version"] for e in data["entries"]]
    assert versions == sorted(set(versions))
    for rnd in {e["round__number"] for e in data["entries"]}:
        seqs = [e["seq"] for e in data["entries"] if e["round__number"] == rnd]
        assert seqs == list(range(1, len(seqs) + 1))


def assert_reconnects_got_the_current_board(players: Sequence[Player]) -> None:
    for p in players:
        for before, first, after in p.reconnects:
            assert before <= first <= after, (p.sock.name, before, first, after)


async def settle(players: Sequence[Player], version: int, timeout: float = 10.0) -> None:
    """Each connection holds the board at `version` (read what is still queued)."""
    for p in players:
        board = await p.sock.board(at_least=version, timeout=timeout)
        assert board["version"] == version, p.sock.name
