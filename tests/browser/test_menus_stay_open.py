"""What a person opened stays open while the computers play (table-ux.md: the board's parts
are morphed in by id so that focus, selection and open dialogs survive an update;
static/js/table.js).

Each of the table's menu, "What can I do?", the scores dialog and the chat panel (with a
half-typed message and the focus in it) is opened, then our moves are made from the server
side (no click on the page, which would close a menu by itself) until the computers have
played at least five moves at the Fast pace: it is still open, and still usable. The page
fetches our moves by its check for a newer board, made every `CHECK_MS` here.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest

from engine.rules import legal_actions
from engine.serialize import state_from_json
from games import services
from games.models import Match
from games.services import SeatSpec

from .table import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}
COMPUTER_MOVES = 5
#: how often the page asks for a newer board (the server's pages hear nothing of our moves)
CHECK_MS = 250


def let_the_computers_play(table: Table, match: Match, ana: Any, moves: int) -> None:
    """Play our seat's first legal action from the server side whenever it is ours to act,
    until this page has been shown `moves` actions of the computers."""
    start, ours = table.version(), 0
    for _ in range(200):
        table.wait_turn_or_over(timeout=30_000)
        assert table.phase() not in ("round_over", "match_over"), "the round ended first"
        if table.version() - start - ours >= moves:
            return
        row = Match.objects.get(pk=match.pk)
        mine = [a for a in legal_actions(state_from_json(row.state)) if a.seat == 0]
        if not mine:  # the computers are still at it: the page is shown their next move
            table.wait_version_above(row.version, timeout=30_000)
            continue
        services.action_submit(
            match_id=match.pk,
            user=ana,
            seat=0,
            action=mine[0].to_json(),
            expected_version=row.version,
            request_id=uuid.uuid4().hex,
        )
        ours += 1
        table.wait_version_above(row.version, timeout=30_000)
    raise AssertionError("the computers never made their moves")


def fast_match(ana: Any) -> Match:
    return services.match_create(
        creator=ana,
        seed=5,  # a known deal: the table holds nobody else, so the site takes it
        listed=False,
        pace="fast",
        seats=[
            SeatSpec("me"),
            SeatSpec("computer", level="beginner"),
            SeatSpec("computer", level="casual"),
            SeatSpec("computer", level="expert"),
        ],
    )


def open_menu(page: Any) -> Callable[[], None]:
    page.click("#board details.tmenu > summary")
    page.locator('#board [data-pace="fast"]').wait_for(state="visible")

    def still() -> None:
        assert page.locator("#board details.tmenu").get_attribute("open") is not None
        # usable: an item is clicked (Relaxed), and the pace changes for the table
        page.click('#board [data-pace="relaxed"]', timeout=5_000)
        page.wait_for_selector("#board .badge--pace:has-text('Computers: Relaxed')")

    return still


def open_cando(page: Any) -> Callable[[], None]:
    page.click("#board details.cando-menu > summary")
    page.locator("#board .cando__list").wait_for(state="visible")

    def still() -> None:
        assert page.locator("#board details.cando-menu").get_attribute("open") is not None
        page.locator("#board .cando__list").wait_for(state="visible", timeout=2_000)

    return still


def open_scores(page: Any) -> Callable[[], None]:
    page.click('#board [data-dialog="scores-dialog"]')
    page.locator("#scores-dialog").wait_for(state="visible")

    def still() -> None:
        page.locator("#scores-dialog").wait_for(state="visible", timeout=2_000)

    return still


def open_chat(page: Any) -> Callable[[], None]:
    page.locator("#chat-toggle").wait_for(state="visible")
    page.click("#chat-toggle")
    page.locator("#chat-panel").wait_for(state="visible")
    page.fill("#chat-text", "half a sente")
    page.focus("#chat-text")

    def still() -> None:
        page.locator("#chat-panel").wait_for(state="visible", timeout=2_000)
        assert page.input_value("#chat-text") == "half a sente"
        assert page.evaluate("document.activeElement && document.activeElement.id") == "chat-text"
        page.keyboard.type("nce")  # still typed into, where the caret was
        assert page.input_value("#chat-text") == "half a sentence"

    return still


@pytest.mark.parametrize(
    "opener", [open_menu, open_cando, open_scores, open_chat], ids=lambda f: f.__name__
)
def test_what_a_person_opened_survives_the_computers_moves(
    live: str, make_user: Any, context_for: Any, opener: Callable[[Any], Callable[[], None]]
) -> None:
    ana = make_user("ana")
    match = fast_match(ana)
    context = context_for(ana, viewport=DESKTOP)
    # Our moves are made in this process, whose notices reach no page of the server's (the
    # two share no channel layer): the page sees each at its next check for a newer board
    # (static/js/table.js, every 20 s), shortened here as in test_check.py.
    context.add_init_script(f"window.MT_CHECK_MS = {CHECK_MS};")
    table = Table(context.new_page()).open(f"{live}/m/{match.pk}/")
    table.wait_turn_or_over(timeout=30_000)
    still_open = opener(table.page)
    let_the_computers_play(table, match, ana, COMPUTER_MOVES)
    still_open()
    table.assert_no_errors()
