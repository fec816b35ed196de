"""Who is at the table (games.attendance.presence): a dot before each person's name on their
train, filled while their table is open, a ring once they are away ("Away since 11:05", in the
reader's own time),
changing as soon as the other player's last page at the table closes (no waiting for the
away limit), and back as soon as they open it again (no waiting for the next move)."""

from __future__ import annotations

import time
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from games import services
from games.models import Presence
from games.services import SeatSpec
from tests import seeded

from .table import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.slow]

ZONE = "America/Sao_Paulo"
#: how the browser's clock (Intl, hour and minute in two digits) writes a time in each language
CLOCK = {"en": "%I:%M %p", "de": "%H:%M"}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_dot_changes_when_the_other_players_page_closes(
    lang: str, live: str, context_for: Any, make_user: Any, shots: Path
) -> None:
    ana, ben = make_user("ana"), make_user("ben")
    match = seeded.match_create(creator=ana, seats=[SeatSpec("me"), SeatSpec("human")], seed=7)
    services.seat_join(match_id=match.pk, user=ben)
    # ben's table is open first: ana's board, read when her page opens, shows him here
    ben_page = context_for(ben, lang=lang).new_page()
    Table(ben_page).open(f"{live}/m/{match.pk}/")
    # ana reads the table in São Paulo (UTC-3 all year)
    mine = Table(context_for(ana, lang=lang, timezone_id=ZONE).new_page()).open(
        f"{live}/m/{match.pk}/"
    )
    bens_dot = '#board .train[data-owner="1"] .presence'
    page = mine.page
    page.wait_for_selector(f"{bens_dot}.presence--here")
    assert page.locator('#board .train[data-owner="0"] .presence--here').count() == 1  # ana herself
    assert (
        page.get_attribute(bens_dot, "aria-label") == {"en": "At the table", "de": "Am Tisch"}[lang]
    )
    page.screenshot(path=str(shots / f"presence-here-{lang}.png"))
    ben_page.close()
    page.wait_for_selector(f"{bens_dot}.presence--away", timeout=10_000)
    words = page.get_attribute(bens_dot, "aria-label")
    assert words.startswith({"en": "Away since", "de": "Abwesend seit"}[lang]), words
    # in ana's own time, not in UTC, in the page's language's clock
    since = datetime.fromisoformat(page.get_attribute(bens_dot, "data-since"))
    local = since.astimezone(ZoneInfo(ZONE))
    assert "UTC" not in words and local.strftime(CLOCK[lang]) in words, (words, local)
    assert page.get_attribute(bens_dot, "title") == words
    page.screenshot(path=str(shots / f"presence-away-{lang}.png"))
    # ben comes back: his dot fills again at once, nobody having moved
    # (games.attendance.presence `came_back`)
    version = match.__class__.objects.get(pk=match.pk).version
    ben_page = context_for(ben, lang=lang).new_page()
    Table(ben_page).open(f"{live}/m/{match.pk}/")
    page.wait_for_selector(f"{bens_dot}.presence--here", timeout=10_000)
    assert match.__class__.objects.get(pk=match.pk).version == version
    ben_page.close()
    mine.assert_no_errors()
    # Leave the table quiet before the database is emptied: ana's page closes, and her leaving
    # (its presence row, its notice to the table) is written first.
    page.close()
    for _ in range(100):
        if not Presence.objects.filter(closed=False).exists():
            break
        time.sleep(0.05)
