"""No frame or page shows a tile of another hand before the round ends (R24), over many sessions.

Each session is a match of its own shape (two to seven seats: signed-in players on
their own connections, pass-and-play seats sharing the creator's device with the
relay cover, computers of both levels) watched by spectators (the watch token, signed
in or not, and the creator when she holds no seat). It is played with seeded random
choices: the people through their websockets (moves read from their own board, hints,
wrong and right "Show my tiles", undo and redo, syncs), the computers through their
service, and now and then someone loads the table page or the log panel over HTTP.

Every raw frame each connection received and every page served is then checked
against the match as it was at that version (the engine state stored for it):

- a board shows the hand of at most one seat, one its viewer plays; on a shared device
  only the seat whose turn it is (after "Show my tiles") or the one last shown;
- the only tiles written anywhere in it (every form: see tests/games/table/hostile/secrets.py) are
  that hand's, tiles that have been on a train in this round (public, even if an undo
  took one back), and the engine double (R6: everyone knows who holds it); so no
  other hand and no boneyard tile, and the draw preview shows nothing of the tile;
- a hint names a tile of the hand shown; the log names no tile of any hand;
- once the round is over, every hand is shown (R21) and the detector finds them all.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from engine.serialize import state_from_json
from engine.state import RoundState
from engine.tiles import Tile
from games import services
from games.models import LogEntry, Match
from tests import frames, seeded
from tests.games.table.hostile.secrets import hand_sections, outside_hand, shown_seat, tiles_written
from tests.games.table.socket.conftest import Browser, covered, db, rid, spec
from tests.servers import choose_from_board

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

JOINERS = ["bob", "carol", "dave", "erin", "frank", "gina", "hugo"]


@dataclass
class Viewer:
    name: str
    user: Any
    seats: tuple[int, ...]
    watch: str | None = None
    browser: Browser | None = None
    client: Client | None = None


@dataclass
class Record:
    """The match at each version, and what was served over HTTP."""

    states: dict[int, RoundState] = field(default_factory=dict)
    #: version -> whether its round has a log entry yet (else the last log line is the previous round's)
    logged: dict[int, bool] = field(default_factory=dict)
    pages: list[tuple[Viewer, str, str, int]] = field(
        default_factory=list
    )  # (viewer, kind, html, version)
    draw_offers: int = 0
    hints: int = 0


def plan(seed: int) -> list[str]:
    """A random table: 2-7 seats of every kind."""
    rnd = random.Random(seed)
    n = rnd.randint(2, 7)
    kinds = [
        rnd.choice(["me", "human", "human", "local", "computer:casual", "computer:expert"])
        for _ in range(n)
    ]
    if kinds.count("me") > 1:
        kinds = ["human" if k == "me" and i else k for i, k in enumerate(kinds)]
    if all(k.startswith("computer") for k in kinds):
        kinds[0] = "human"
    return kinds


SESSIONS = [
    pytest.param(1, ["me", "human", "computer:casual"], 0, id="two-players-and-a-computer"),
    pytest.param(
        2, ["me", "local:Ana", "local:Ben", "computer:expert"], 1, id="pass-and-play-relay"
    ),
    pytest.param(
        3, ["human", "computer:casual", "human", "local:Lu"], 0, id="creator-with-one-local-seat"
    ),
    pytest.param(
        4,
        ["computer:casual", "human", "computer:expert", "human", "computer:casual"],
        0,
        id="creator-watches",
    ),
    *[pytest.param(seed, plan(seed), 0, id=f"random-{seed}") for seed in (11, 12, 13)],
    pytest.param(
        21,
        ["me", "local:Ana", "human", "computer:casual"],
        1,
        id="full-round-into-round-2",
        marks=pytest.mark.slow,
    ),
]


def make_table(kinds: list[str], seed: int) -> tuple[Match, list[Viewer]]:
    users = get_user_model().objects
    alice = users.create_user("alice")
    match = seeded.match_create(creator=alice, seats=[spec(k) for k in kinds], seed=seed)
    viewers: dict[str, Viewer] = {}
    joiners = iter(JOINERS)
    for index, kind in enumerate(kinds):
        if kind == "human":
            user = users.create_user(next(joiners))
            services.seat_join(
                match_id=match.pk, user=user, token=match.invite_token, seat_index=index
            )
            viewers[user.username] = Viewer(user.username, user, (index,))
    match.refresh_from_db()
    mine = tuple(i for i, k in enumerate(kinds) if k == "me" or k.startswith("local"))
    viewers["alice"] = Viewer("alice", alice, mine)  # with no seat: the creator watches
    eve = users.create_user("eve")
    viewers["eve"] = Viewer("eve", eve, (), watch=match.watch_token)
    viewers["anonymous"] = Viewer("anonymous", None, (), watch=match.watch_token)
    return match, list(viewers.values())


def remember(match_id: int, record: Record) -> int:
    match = Match.objects.get(pk=match_id)
    record.states[match.version] = state_from_json(match.state)
    record.logged[match.version] = LogEntry.objects.filter(
        round__match=match, round__number=match.round_number
    ).exists()
    return int(match.version)


def fetch(viewer: Viewer, match_id: int, path: str) -> str:
    if viewer.client is None:
        viewer.client = Client()
        if viewer.user is not None:
            viewer.client.force_login(viewer.user)
    response = viewer.client.get(path, {"watch": viewer.watch} if viewer.watch else {})
    assert response.status_code == 200, (viewer.name, path, response.status_code)
    return response.content.decode()


async def play_session(
    match: Match, viewers: list[Viewer], rounds: int, seed: int, connect: Any, limit: int
) -> Record:
    """Play up to `limit` steps; with `rounds`, play that many rounds to their end and a few
    steps into the next one."""
    rnd = random.Random(seed)
    record = Record()
    for v in viewers:
        v.browser = await connect(match, v.user, watch=v.watch)
    owner = {seat: v for v in viewers for seat in v.seats}
    version = await db(remember, match.pk, record)
    steps = 0
    into_next = 0  # steps played in the round after the last one to finish
    while steps < limit:
        state = record.states[version]
        if state.phase == "match_over":
            break
        if state.round > rounds > 0:
            into_next += 1
            if into_next > 8:
                break
        people = [v for v in viewers if v.seats]
        if state.over:
            if state.round > rounds or not people:
                break
            asker = rnd.choice(people).browser
            assert asker is not None
            await asker.send(type="next_round", version=version, request_id=rid())
            await asker.expect("ack")
        elif state.turn not in owner:
            assert await db(services.computer_step, match_id=match.pk) is not None
        else:
            seat = state.turn
            me = owner[seat].browser
            assert me is not None and me.last_board is not None
            if covered(me.last_board) == seat:  # R24: the device changed hands
                others = [s for s in owner[seat].seats if s != seat]
                if others and rnd.random() < 0.3:
                    await me.send(type="reveal", seat=rnd.choice(others))  # not their turn: refused
                    await me.expect("error")
                    await me.expect("board")
                await me.send(type="reveal", seat=seat)
                await me.expect("board")
            if rnd.random() < 0.25:
                await me.send(type="hint", seat=seat)
                await me.expect("hint")
                record.hints += 1
            if 'data-act="draw"' in me.last_board["html"]:
                record.draw_offers += 1
            command = choose_from_board(me.last_board["html"])
            assert command is not None and command.get("seat") == seat, (seat, command)
            await me.send(**command, version=version, request_id=rid())
            await me.expect("ack")
            if rnd.random() < 0.08:  # R27: take it back (the hand gets its tile again), maybe redo
                version = await db(remember, match.pk, record)
                await me.board(at_least=version)
                await me.send(type="undo", version=version, request_id=rid())
                answer = await me.recv()
                if answer["type"] == "ack" and rnd.random() < 0.5:
                    version = await db(remember, match.pk, record)
                    await me.board(at_least=version)
                    await me.send(type="redo", version=version, request_id=rid())
                    await me.recv()
        version = await db(remember, match.pk, record)
        for v in viewers:
            assert v.browser is not None
            await v.browser.board(at_least=version)
        if rnd.random() < 0.12:
            viewer = rnd.choice(viewers)
            for kind, path in [("table", f"/m/{match.pk}/"), ("log", f"/m/{match.pk}/log/")]:
                record.pages.append(
                    (viewer, kind, await db(fetch, viewer, match.pk, path), version)
                )
        if rnd.random() < 0.1:
            browser = rnd.choice(viewers).browser
            assert browser is not None
            await browser.send(type="sync")
            await browser.expect("board")
        steps += 1
    return record


# ---------------------------------------------------------------- the checks

_LOG_ROUND = re.compile(
    r'<section class="log__round">\s*<h3 class="log__title">[^<]*?(\d+)[^<]*</h3>.*?</section>',
    re.S,
)
_LAST_EVENT = re.compile(r'data-last-event="[^"]*"')
#: the rules drawer of the table page: the same fixed text for everyone ("10 with 7–8 players")
_RULES = re.compile(r'<aside class="drawer" id="rules-panel".*?</aside>', re.S)


def public_by_version(record: Record) -> dict[int, set[Tile]]:
    """Tiles that have been on a train in the round, up to each version (an undo cannot hide them again)."""
    out: dict[int, set[Tile]] = {}
    seen: set[Tile] = set()
    current = None
    for version in sorted(record.states):
        state = record.states[version]
        if state.round != current:
            current, seen = state.round, set()
        for train in state.trains:
            seen.update((min(t), max(t)) for t in train.tiles)
        out[version] = set(seen) | {(state.engine, state.engine)}
    return out


def scannable(html: str, state: RoundState, logged: bool) -> str:
    """The text to search: the rules drawer (fixed text) and the log lines of earlier rounds
    (over, every hand shown) are left out, and so is the last line of the previous round on
    a board before the new round's first move."""
    html = _RULES.sub("", html)
    html = _LOG_ROUND.sub(lambda m: m.group(0) if int(m.group(1)) == state.round else "", html)
    return html if logged else _LAST_EVENT.sub("", html)


def check_board(
    html: str,
    *,
    version: int,
    viewer: Viewer,
    record: Record,
    public: dict[int, set[Tile]],
    where: str,
) -> int | None:
    """Check one board (a frame's or a page's) and return the seat it shows."""
    state = record.states[version]
    text = scannable(html, state, record.logged[version])
    found = tiles_written(text)
    if state.over:
        for hand in state.hands:  # R21: every hand face up; proves the detector reads them all
            assert {(min(t), max(t)) for t in hand} <= found, where
        return shown_seat(html)
    shown = shown_seat(html)
    assert shown is None or shown in viewer.seats, (where, shown, viewer.seats)
    if len(viewer.seats) > 1 and state.turn in viewer.seats:
        assert shown in (None, state.turn), (
            where,
            "the relay shows a hand out of turn",
            shown,
            state.turn,
        )
    hands = [seat for seat, _ in hand_sections(html) if seat is not None]
    assert hands in ([], [shown]), (where, hands, shown)
    assert "data-why" not in outside_hand(html), where
    allowed = set(public[version])
    if shown is not None:
        own = {(min(t), max(t)) for t in state.hands[shown]}
        assert own <= found, (where, "the detector must see the shown hand")
        allowed |= own
    leaked = found - allowed
    assert not leaked, f"{where}: {viewer.name} (seats {viewer.seats}) was shown {sorted(leaked)}"
    return shown


_VERSION = re.compile(r'<div class="board[^"]*"[^>]*?\bdata-version="(\d+)"', re.S)


def check_everything(record: Record, viewers: list[Viewer]) -> int:
    public = public_by_version(record)
    checked = 0
    for viewer in viewers:
        assert viewer.browser is not None
        shown: int | None = None
        version: int | None = None
        page: dict[str, Any] | None = None
        for n, raw in enumerate(viewer.browser.frames):
            message = json.loads(raw)
            where = f"{viewer.name} frame {n} ({message['type']})"
            if message["type"] in ("board", "update"):
                # An update frame (games/board/parts.py) makes the page the browser shows: that
                # page is checked like a whole board, and the frame itself below.
                page = message if message["type"] == "board" else frames.as_board(page, message)
                version = int(page["version"])
                shown = check_board(
                    page["html"] + " " + (page["title"] or ""),
                    version=version,
                    viewer=viewer,
                    record=record,
                    public=public,
                    where=where,
                )
                checked += 1
                if message["type"] == "board":
                    continue
            assert version is not None
            state = record.states[version]
            allowed = set(public[version])
            if shown is not None and not state.over:
                allowed |= {(min(t), max(t)) for t in state.hands[shown]}
            if state.over:
                continue
            if message["type"] == "update":
                # Its texts as the browser reads them (JSON's escapes would glue words together).
                texts = frames.frame_texts(message)
                leaked = set().union(*map(tiles_written, texts)) - allowed
            else:
                leaked = tiles_written(raw) - allowed
            assert not leaked, f"{where}: {sorted(leaked)}"
            if message["type"] == "hint" and message["tile"]:
                assert shown is not None and tiles_written(message["tile"]) <= allowed
    for viewer, kind, html, at in record.pages:
        if kind == "table":
            found = _VERSION.search(html)
            assert found, "the table page carries its version"
            check_board(
                html,
                version=int(found.group(1)),
                viewer=viewer,
                record=record,
                public=public,
                where=f"{viewer.name}'s table page",
            )
        else:
            # The log: the same text for everyone, never a tile of a hand (R24).
            state = record.states[at]
            if not state.over:
                leaked = tiles_written(scannable(html, state, True)) - public[at]
                assert not leaked, f"{viewer.name}'s log panel: {sorted(leaked)}"
        checked += 1
    return checked


@pytest.mark.parametrize(("seed", "kinds", "rounds"), SESSIONS)
async def test_no_hand_reaches_anyone_else_before_the_round_ends(
    seed: int, kinds: list[str], rounds: int, connect: Any, settings: Any
) -> None:
    # One connection plays every seat of its person as fast as the server answers: on a
    # quick server more than the frame budget's 20 a second (games.table.budget, tested in
    # test_ws_flood.py), whose "too many" error then fails the session. Lifted here.
    settings.TABLE_FRAME_BUDGET = (1e6, 10**6, 10**6)
    match, viewers = await db(make_table, kinds, seed)
    limit = 400 if rounds else 35
    record = await play_session(match, viewers, rounds, seed, connect, limit)
    checked = await db(check_everything, record, viewers)
    assert checked >= len(viewers) * 10
    if rounds:
        assert record.states[max(record.states)].round == rounds + 1
        assert record.draw_offers > 0, "the draw preview was never on screen"
        assert any(s.over for s in record.states.values())
