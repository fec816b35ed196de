"""The Spanish and German pages show no English: home, lobby, rules and a live table.

The table is read after its websocket brought the board (rendered by the consumer
in the connection's language), with the engine confirmed and a tile played, so the
End-of-turn preview, a hint, the log panel and the "computers paused" badge (R26)
are on the page too. The check is
tests/i18n_helpers.english_leaks: no English source string of the catalogues in
the visible text (attributes like aria-label and title included).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.i18n_helpers import english_leaks

from .table import Table, against_a_computer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("lang", ["es", "de"])
def test_pages_and_the_table_show_no_english(
    lang: str, live: str, make_user: Any, context_for: Any, shots: Path
) -> None:
    ana = make_user("ana")
    match = against_a_computer(ana)
    page = context_for(ana, lang=lang).new_page()

    for path in ("/", "/lobby/", "/rules/"):
        page.goto(live + path)
        assert page.locator("html").get_attribute("lang") == lang
        assert english_leaks(page.content(), lang) == [], path

    table = Table(page).open(f"{live}/m/{match.pk}/")
    assert page.locator("html").get_attribute("lang") == lang
    assert english_leaks(page.content(), lang) == [], "the table before the engine is placed"
    table.act_first_fit()  # Confirm engine (R7)
    table.act_first_fit()  # a first tile on our own train: End first turn and its preview appear
    assert page.locator('.hand__actions [data-act="end"]').count() == 1
    assert english_leaks(page.content(), lang) == [], "the table during the first turn"

    table.ask_hint()
    page.locator(".hand__say--hint").wait_for(state="visible")  # the hint reads on the hand's line
    page.click('[data-panel="log"]')
    page.wait_for_function(
        "() => document.querySelectorAll('#log-body li').length >= 2"
    )  # a function: the page's CSP forbids eval
    page.wait_for_selector(".badge--paused")  # R26: the open log pauses the computers
    assert english_leaks(page.content(), lang) == [], (
        "the table with a hint, the log open, computers paused"
    )
    page.keyboard.press("?")  # the rules drawer: its text is fetched when it first opens
    page.locator("#rules-panel #panel-R19").wait_for()
    assert page.evaluate("() => document.activeElement.id") == "rules-panel-title"
    assert english_leaks(page.content(), lang) == [], "the table with the rules open"
    page.screenshot(path=str(shots / f"table-{lang}-desktop-1280.png"))
    table.assert_no_errors()
