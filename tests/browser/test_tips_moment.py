"""Tips that fit the moment (issue 19): a tip shows only while its situation holds, and on a
wide screen it lies over the side panel, pushing no train and no hand. A tip whose moment
has passed goes without being dismissed (it comes again next time); one dismissed stays
dismissed in every later match (stored on the account: tests/guests/test_learning.py).
Screenshots: test-artifacts/screenshots/tip-wide-*.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from accounts.models import Preferences

from .table import Table, against_a_computer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.slow]

BOX = "el => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"


def overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_tip_moves_nothing_and_goes_when_its_moment_passes(
    lang: str, live: str, context_for: Any, make_user: Any, shots: Path
) -> None:
    ana = make_user("ana")  # a new player: tips on
    match = against_a_computer(ana)  # ana holds the engine double (R7)
    page = context_for(ana, lang=lang, viewport={"width": 1280, "height": 800}).new_page()
    table = Table(page).open(f"{live}/m/{match.pk}/")
    page.wait_for_function("() => document.getElementById('tip')?.dataset.tip === 'engine'")
    # Over the side panel: no train, tile or hand under it, and the board where it was.
    tip = page.eval_on_selector("#tip", BOX)
    for part in (".trains", ".hand"):
        assert not overlap(tip, page.eval_on_selector(part, BOX)), part
    page.screenshot(path=str(shots / f"tip-wide-{lang}.png"))
    board_top = page.eval_on_selector(".board__main", BOX)[1]
    page.evaluate("document.getElementById('tip').hidden = true")
    assert page.eval_on_selector(".board__main", BOX)[1] == board_top
    page.evaluate("document.getElementById('tip').hidden = false")

    # The engine's tip belongs to the engine and the first turns (R7–R12): once every seat has
    # made its first turn it goes, not dismissed.
    for _ in range(30):
        table.wait_turn_or_over()
        if table.phase() not in ("engine", "first"):
            break
        table.act_first_fit()
    assert table.phase() == "play"
    page.wait_for_function(
        "() => document.getElementById('tip').dataset.tip !== 'engine'"
        " || document.getElementById('tip').hidden"
    )
    prefs = Preferences.objects.filter(user=ana).first()
    assert prefs is None or "engine" not in prefs.tips_seen
    table.assert_no_errors()
