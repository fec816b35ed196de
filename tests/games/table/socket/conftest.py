"""Fixtures for the table's websocket and the computer-player worker (PostgreSQL, pytest-asyncio).

- every test here gets the in-memory channel layer (fresh), `COMPUTER_DELAY = 0`
  and no background worker (``COMPUTER_WORKER=off``): tests drive the computers
  themselves, through `services.computer_step` or `games.worker.ComputerWorker`;
- `alice`, `bob`, `carol`: users; `make_match(...)` as in tests/games;
- `connect(match, user=None, watch=None, language=None)` (async): a `Browser` on
  ``/ws/m/<id>/`` through the real ASGI application (origin check, session cookie);
- `db(fn, ...)`: run ORM code from an async test;
- `tiles_in(text)`: every tile a frame mentions (to prove no hand leaks, R24).
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from engine.serialize import state_from_json
from engine.state import RoundState
from engine.tiles import Tile
from games import services
from games.models import Match
from games.services import SeatSpec
from tablesite.env import channel_layers
from tests import frames, seeded
from tests.games.conftest import rid
from tests.games.conftest import spec as games_spec

SEED = 20261202
TIMEOUT = 30  # generous: only a failing test waits this long


def spec(kind: str) -> SeatSpec:
    """The games tests' seat shorthand; computers here are casual (fast, predictable)."""
    return games_spec(kind, computer_level="casual")


async def db(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run synchronous ORM code from an async test (closing the connection after, as consumers do)."""
    return await database_sync_to_async(fn)(*args, **kwargs)


def state_of(match_id: int) -> RoundState:
    return state_from_json(Match.objects.get(pk=match_id).state)


def snapshot(match_id: int) -> tuple[Any, ...]:
    """What a refused request must leave as it was: version, log size, state, pauses, requests."""
    m = Match.objects.get(pk=match_id)
    return (
        m.version,
        m.status,
        m.state,
        m.round_number,
        m.rounds.count(),
        sum(r.log.count() for r in m.rounds.all()),
        m.pauses.count(),
    )


def play(
    match_id: int, users: dict[int, Any], *, until: Callable[[RoundState], bool], limit: int = 3000
) -> RoundState:
    """Play through the services until `until(state)`: people (seat -> user) choose with the
    casual computer player's judgement from their own view, computers take their steps."""
    from engine.bots import choose
    from engine.views import view

    for _ in range(limit):
        state = state_of(match_id)
        if until(state):
            return state
        if state.turn in users:
            version = Match.objects.values_list("version", flat=True).get(pk=match_id)
            services.action_submit(
                match_id=match_id,
                user=users[state.turn],
                seat=state.turn,
                action=choose(view(state, state.turn), "casual").to_json(),
                expected_version=version,
                request_id=rid(),
            )
        else:
            assert services.computer_step(match_id=match_id) is not None
    raise AssertionError("the match did not get there")


_SVG_PATH = re.compile(r'\sd="[^"]*"')


def tiles_in(frame: str | dict[str, Any]) -> set[Tile]:
    """Every tile written as "a-b" in a frame or one of its texts (either order; SVG path data
    ignored), normalised. A decoded message is searched in all its string values."""
    if isinstance(frame, dict):
        frame = "\n".join(str(value) for value in frame.values())
    text = _SVG_PATH.sub("", frame)
    found = set()
    for a, b in re.findall(r"(?<![\d.\-])(\d{1,2})-(\d{1,2})(?![\d.\-])", text):
        x, y = int(a), int(b)
        if x <= 12 and y <= 12:
            found.add((min(x, y), max(x, y)))
    return found


class Browser:
    """One websocket connection, as a table page holds it; keeps every raw frame."""

    def __init__(self, communicator: WebsocketCommunicator) -> None:
        self.communicator = communicator
        self.frames: list[str] = []
        self.last_board: dict[str, Any] | None = None

    async def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        raw = await self.communicator.receive_from(timeout)
        self.frames.append(raw)
        message = json.loads(raw)
        if message.get("type") == "update":
            # The page applies the changed parts to its board (games/board/parts.py): so do we.
            message = frames.as_board(self.last_board, message)
        if message.get("type") == "board":
            self.last_board = message
        return message

    async def expect(self, kind: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message, which must be of type `kind`."""
        message = await self.recv(timeout)
        assert message["type"] == kind, message
        return message

    async def board(self, at_least: int = 0, timeout: float = TIMEOUT) -> dict[str, Any]:
        """Boards until one at version `at_least` or later (other messages are kept in `frames`)."""
        while True:
            message = await self.recv(timeout)
            if message["type"] == "board" and message["version"] >= at_least:
                return message

    async def catch_up(self, version: int) -> dict[str, Any]:
        """The board at `version` (or later): the last one received, else the next ones."""
        if self.last_board is not None and self.last_board["version"] >= version:
            return self.last_board
        return await self.board(at_least=version)

    async def send(self, **message: Any) -> None:
        await self.communicator.send_to(text_data=json.dumps(message))

    async def send_raw(self, text: str | None = None, data: bytes | None = None) -> None:
        await self.communicator.send_to(text_data=text, bytes_data=data)

    async def quiet(self, timeout: float = 0.2) -> bool:
        return await self.communicator.receive_nothing(timeout)

    async def alive(self) -> dict[str, Any]:
        """Proof the connection survived: a sync is answered with a board."""
        await self.send(type="sync")
        return await self.expect("board")

    @property
    def version(self) -> int:
        assert self.last_board is not None
        return int(self.last_board["version"])


def seat_of(board: dict[str, Any]) -> int | None:
    found = re.search(r'data-seat="(\d*)"', board["html"])
    return int(found.group(1)) if found and found.group(1) else None


def phase_of(board: dict[str, Any]) -> str:
    return re.search(r'data-phase="(\w+)"', board["html"]).group(1)  # type: ignore[union-attr]


def hand_tiles(board: dict[str, Any]) -> list[str]:
    return re.findall(r'data-tile="(\d+-\d+)"', board["html"])


def covered(board: dict[str, Any]) -> int | None:
    found = re.search(r'data-cover="(\d+)"', board["html"])
    return int(found.group(1)) if found else None


@pytest.fixture(autouse=True)
def realtime_settings(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPUTER_WORKER", "off")
    settings.COMPUTER_DELAY = 0
    # A fresh in-memory layer per test (changing the setting resets channels' layers):
    # the one the site runs without REDIS_URL.
    settings.CHANNEL_LAYERS = channel_layers(None)


@pytest.fixture
def alice(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("alice")


@pytest.fixture
def bob(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("bob")


@pytest.fixture
def carol(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("carol")


@pytest.fixture
def make_match(alice: Any) -> Callable[..., Match]:
    def make(*kinds: str, creator: Any = None, seed: int | None = SEED) -> Match:
        return seeded.match_create(
            creator=creator or alice, seats=[spec(k) for k in kinds], seed=seed
        )

    return make


def session_cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


@pytest_asyncio.fixture
async def connect() -> AsyncIterator[Callable[..., Any]]:
    from tablesite.asgi import application

    opened: list[WebsocketCommunicator] = []

    async def open_(
        match: Match | int,
        user: Any = None,
        *,
        watch: str | None = None,
        language: str | None = None,
        origin: bytes = b"http://testserver",
        expect_board: bool = True,
    ) -> Browser:
        match_id = match if isinstance(match, int) else match.pk
        headers = [(b"origin", origin), (b"host", b"testserver")]
        cookies = []
        if user is not None:
            cookies.append(f"sessionid={await db(session_cookie, user)}")
        if language is not None:
            cookies.append(f"django_language={language}")
        if cookies:
            headers.append((b"cookie", "; ".join(cookies).encode()))
        path = f"/ws/m/{match_id}/" + (f"?watch={watch}" if watch is not None else "")
        communicator = WebsocketCommunicator(application, path, headers=headers)
        opened.append(communicator)
        connected, _ = await communicator.connect(timeout=TIMEOUT)
        assert connected
        browser = Browser(communicator)
        if expect_board:
            await browser.expect("board")
        return browser

    yield open_
    for communicator in opened:
        try:
            await communicator.disconnect(timeout=TIMEOUT)
        except Exception:  # already closed by the server, or never connected
            pass
    # The consumers' database thread keeps no connection past the test (the test
    # database is dropped at the end of the session).
    await database_sync_to_async(_close_connection)()


def _close_connection() -> None:
    from django.db import connection

    connection.close()
