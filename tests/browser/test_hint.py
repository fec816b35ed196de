"""A hint stays on the board it was given for (R23, table-ux.md "Hint").

The board is swapped whole on every board message (static/js/table.js). A board of the
same version comes again when nothing was played: the "computers paused" badge (R26),
a resync, a reconnect. The hint's marks and its words on the hand's line stay through
such a swap, said once to a screen reader; a new version (a move) drops them, as the
hint was for the position before it.
"""

from __future__ import annotations

from typing import Any

import pytest

from .table import Table, against_a_computer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_hint_stays_through_a_board_of_the_same_version_and_goes_with_a_move(
    live: str, make_user: Any, context_for: Any
) -> None:
    ana = make_user("ana")
    match = against_a_computer(ana)
    page = context_for(ana).new_page()
    table = Table(page).open(f"{live}/m/{match.pk}/")
    table.act_first_fit()  # Confirm engine (R7); our first turn follows
    table.wait("b.dataset.yourTurn === 'true'")

    hint = table.ask_hint()
    said = page.locator("#hand-say.hand__say--hint").inner_text()
    assert hint["reason"] in said
    marked = page.evaluate(
        "Array.from(document.querySelectorAll('#board .is-hint')).map(e => e.outerHTML.slice(0, 80))"
    )
    assert marked

    version = table.version()
    table.resync()  # the server sends the board again: the same version, swapped in whole
    assert table.version() == version
    assert (
        page.evaluate(
            "Array.from(document.querySelectorAll('#board .is-hint')).map(e => e.outerHTML.slice(0, 80))"
        )
        == marked
    )
    assert page.locator("#hand-say.hand__say--hint").inner_text() == said

    table.act_first_fit()  # a move: the hint was for the position before it
    assert table.version() > version
    assert page.locator("#board .is-hint").count() == 0
    assert page.locator("#hand-say.hand__say--hint").count() == 0
    table.assert_no_errors()
