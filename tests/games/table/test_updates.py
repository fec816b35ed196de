"""Render once, send what changed (games/board/parts.py): the update frames of a played round.

Random rounds of 2 to 10 seats, played through the real services with legal actions
chosen by a seeded random generator. After every change, every seat and a spectator
get what the table's websocket sends them: an update frame of the parts that changed
since their last board (or a whole board). The core property: the page made by
applying each update's parts in order, by id, equals a fresh full render at that
version. And no frame, and no shared part, shows anyone a tile of another seat's
hand before the round ends (R24).
"""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

import pytest
from django.utils import translation
from markupsafe import Markup

from engine import rules
from engine.views import view
from games import services
from games.board import parts
from games.board.viewer import Viewer
from games.reads import selectors
from games.reads.seats import match_with_seats
from games.services import SeatSpec
from games.table import board, board_reads
from tests import frames, seeded
from tests.games.table.hostile.secrets import tiles_written

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _nothing_kept() -> Any:
    board_reads.forget()
    yield
    board_reads.forget()


def seated(django_user_model: Any, players: int, seed: int) -> tuple[Any, list[Any]]:
    users = [django_user_model.objects.create_user(f"u{seed}-{i}") for i in range(players)]
    match = seeded.match_create(
        creator=users[0],
        seed=seed,
        listed=False,
        seats=[SeatSpec("me")] + [SeatSpec("human")] * (players - 1),
    )
    for user in users[1:]:
        services.seat_join(match_id=match.pk, user=user, token=match.invite_token)
    return match, users


def act(match_id: int, users: list[Any], rng: random.Random) -> None:
    """The seat to play takes a random legal action, through the service."""
    match = match_with_seats(match_id)
    assert match is not None
    state = selectors.match_state(match)
    actions = rules.legal_actions(state)
    action = rng.choice(actions)
    services.action_submit(
        match_id=match_id,
        user=users[action.seat],
        seat=action.seat,
        action=action.to_json(),
        expected_version=match.version,
        request_id=uuid.uuid4().hex,
    )


class Connection:
    """What one table page holds: its board as the frames made it, and what it was sent."""

    def __init__(self, user: Any, seat: int | None) -> None:
        self.user, self.seat = user, seat
        self.sent = parts.Sent()
        self.html = ""
        self.frames: list[dict[str, Any]] = []

    def viewer(self) -> Viewer:
        return Viewer(user=self.user, controlled=(self.seat,) if self.seat is not None else ())

    def receive(self, reads: board_reads.BoardReads) -> None:
        """The consumer's `board_message`: an update when it can, else the whole board."""
        page = board.match_page(
            match=reads.match, viewer=self.viewer(), reads=reads, kept=self.sent.kept
        )
        frame = parts.update_frame(page, self.sent, board.events_since(reads, self.sent.version))
        if frame is None:
            self.sent = parts.Sent(kept=self.sent.kept)
            self.sent.took(page)
            frame = page.message()
            self.html = frame["html"]
        else:
            self.html = frames.apply(self.html, frame)
        self.frames.append(frame)


@pytest.mark.parametrize(
    ("players", "seed", "steps"), [(2, 101, 200), (3, 102, 200), (5, 103, 90), (10, 106, 60)]
)
def test_the_updates_applied_in_order_make_the_board_a_full_render_makes(
    django_user_model: Any, players: int, seed: int, steps: int
) -> None:
    match, users = seated(django_user_model, players, seed)
    rng = random.Random(seed)
    connections = [Connection(users[i], i) for i in range(players)] + [Connection(None, None)]
    rendered = []
    original = parts.shared_parts

    def counted(public: Any, rows: Any = None) -> Any:
        rendered.append(public.version)
        return original(public, rows)

    updates = edited = quiet = 0
    turn: int | None = None
    version = -1
    with translation.override("en"):
        for _ in range(steps):
            reads = board_reads.current(match.pk, at_least=None if version < 0 else version + 1)
            assert reads is not None
            version = reads.version
            state = selectors.match_state(reads.match)
            with pytest.MonkeyPatch.context() as mp:
                mp.setattr(parts, "shared_parts", counted)
                for c in connections:
                    c.receive(reads)
            # Render once: the shared parts of a version are rendered for the first viewer only.
            assert rendered.count(version) == 1
            fresh = match_with_seats(match.pk)
            assert fresh is not None
            for c in connections:
                whole = board.board_message(match=fresh, viewer=c.viewer())
                assert c.html == whole["html"], f"seat {c.seat} at version {version}"
                frame = c.frames[-1]
                if frame["type"] == "update":
                    updates += 1
                    edited += bool(frame.get("edits"))
                    near = {c.seat, (c.seat + 1) % players} if c.seat is not None else set()
                    if (
                        c.seat is not None
                        and state.turn is not None
                        and turn not in near | {None}
                        and state.turn not in near
                    ):
                        # The turn passed between others (and not from the seat after this one,
                        # which ends this seat's undo): this seat's "tools" stay as they were —
                        # "What can I do?"'s line of the moment comes from the board's data-status.
                        quiet += 1
                        assert "tools" not in frame["parts"] and "tools" not in frame.get(
                            "edits", {}
                        )
                    sent = set().union(*map(tiles_written, frames.frame_texts(frame)))
                else:
                    sent = tiles_written(frame["html"])
                # R24: nothing sent to a seat or a spectator names a tile hidden from it.
                assert not sent & frames.hidden(state, c.seat), (
                    f"a hidden tile reached seat {c.seat}"
                )
            public = view(state, None)
            shared = reads.shared[("shared", "en")]
            # The shared parts come from the spectator view: no hidden tile in them at all.
            assert not tiles_written("".join(shared.values())) & frames.hidden(state, None)
            assert public.phase == state.phase
            if state.phase in ("round_over", "match_over"):
                break
            turn = state.turn
            act(match.pk, users, rng)
    assert updates > 0 and edited > 0  # parts went as line edits too, and made the same page
    assert quiet > 0 or players < 4


def test_a_part_goes_as_the_edits_of_its_lines_when_that_is_shorter() -> None:
    row = [
        '<li id="train-1">',
        '<span class="train__count">3 in hand</span>',
        *(f'<span class="ttile"><svg data-pips="{n}-{n + 1}"></svg></span>' for n in range(7)),
        "</li>",
    ]
    old = "\n".join(row)
    laid = "\n".join(
        [
            row[0],
            '<span class="train__count">2 in hand</span>',
            *row[2:-1],
            '<span class="ttile"><svg data-pips="8-9"></svg></span>',
            row[-1],
        ]
    )
    diff = parts.edits(old, laid)
    assert diff is not None and parts.apply_edits(old, diff) == laid
    assert len(json.dumps(diff)) < len(laid) / 3
    # Nothing in common: the part goes whole.
    assert parts.edits("<p>\na\n</p>", "<div>\nb\n</div>") is None
    rng = random.Random(3)
    for _ in range(300):
        a = [rng.choice("abcdefg") * rng.randint(1, 40) for _ in range(rng.randint(0, 30))]
        b = [x for x in a if rng.random() < 0.8]
        for _ in range(rng.randint(0, 4)):
            b.insert(rng.randint(0, len(b)), rng.choice("xyz") * rng.randint(1, 9))
        old, new = "\n".join(a), "\n".join(b)
        diff = parts.edits(old, new)
        assert diff is None or parts.apply_edits(old, diff) == new


def test_an_update_carries_the_board_attributes_that_changed_only() -> None:
    base = {"class": "board", "data-version": "4", "data-turn": "1", "data-cover": "1"}
    html = f'<div{frames.xmlattr(base)}>\n<p id="status">a</p>\n</div>'
    page = parts.Page(
        version=5,
        round=1,
        title="t",
        your_turn=False,
        attrs={"class": "board", "data-version": "5", "data-turn": "1"},
        parts={"status": Markup('<p id="status">a</p>')},
        trains=(),
    )
    sent = parts.Sent(version=4, round=1, attrs=base, texts={"status": '<p id="status">a</p>'})
    frame = parts.update_frame(page, sent, [])
    assert frame is not None and frame["parts"] == {} and "edits" not in frame
    assert frame["board"] == {"data-version": "5", "data-cover": None}
    assert (
        frames.apply(html, frame)
        == f'<div{frames.xmlattr(page.attrs)}>\n<p id="status">a</p>\n</div>'
    )


def test_an_update_carries_only_the_changed_parts_and_the_events_name_no_drawn_tile(
    django_user_model: Any,
) -> None:
    match, users = seated(django_user_model, 4, 7)
    rng = random.Random(7)
    watcher = Connection(None, None)
    drew = 0
    with translation.override("en"):
        reads = board_reads.current(match.pk, at_least=None)
        assert reads is not None
        watcher.receive(reads)
        for _ in range(120):
            before = reads.version
            if reads.match.state["phase"] in ("round_over", "match_over"):
                break
            act(match.pk, users, rng)
            reads = board_reads.current(match.pk, at_least=before + 1)
            assert reads is not None
            watcher.receive(reads)
            frame = watcher.frames[-1]
            if frame["type"] != "update":
                break
            assert frame["base"] == before and frame["v"] == before + 1
            # A move changes a few parts, never all of them (the hub and the banner stay).
            changed = {*frame["parts"], *frame.get("edits", {})}
            assert "banner" not in changed and "tools" not in changed
            assert len(changed) < len(parts.SHARED) + len(parts.PRIVATE) + reads.match.players
            for event in frame["events"]:
                if event["e"] == "draw":
                    drew += 1
                    assert set(event) == {"e", "seat"}  # "seat 2 drew": no tile (R24)
                if event["e"] == "play":
                    assert event["tile"] and event["train"] is not None
    assert drew > 0
