"""The expert's choices in the replay, in Chromium on a phone: the button asks for them, the
server's worker works them out (never the request), the page shows them once ready, by
keyboard as by touch, at the person's moves only (games.history.reviews)."""

from __future__ import annotations

from typing import Any

import pytest

from games.history.models import RoundReview
from games.models import LogEntry
from tests.conftest import PHONE
from tests.games.history.fabricate import finished_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_show_the_experts_choices(live: str, make_user: Any, context_for: Any, shots: Any) -> None:
    ana = make_user("ana")
    match = finished_match([ana, "expert"], seed=6161)
    # seat 2 is the computer: its moves are a computer's (the fabricated log does not say so)
    LogEntry.objects.filter(round__match=match, seat=1).update(by_computer=True)
    context = context_for(ana, viewport=PHONE)
    page = context.new_page()
    page.goto(live + f"/m/{match.pk}/replay/?round=1&step=0")
    toggle = page.locator("#replay-expert-toggle")
    assert toggle.inner_text() == "Show the expert's choices"
    assert toggle.get_attribute("aria-pressed") == "false"
    assert page.locator("#replay-expert-note").is_hidden()

    # by keyboard: the button takes the focus and Enter presses it
    toggle.focus()
    page.keyboard.press("Enter")
    assert toggle.get_attribute("aria-pressed") == "true"
    assert toggle.inner_text() == "Hide the expert's choices"
    note = page.locator("#replay-expert-note")
    assert note.is_visible()
    # the worker's thread works the round out; the page asks again until it is ready
    page.wait_for_function(
        "() => document.getElementById('replay-expert').dataset.status === 'done'",
        timeout=120_000,
    )
    review = RoundReview.objects.get(round__match=match, round__number=1)
    assert review.status == RoundReview.Status.DONE
    assert {m["seat"] for m in review.moves} == {0}
    differs = next(m for m in review.moves if m["taken"] != m["expert"])
    assert (
        note.inner_text()
        == "The expert's choices are shown at the moves where a person had a choice."
    )

    # a mark on the log's lines where the expert chose otherwise; a tap on one shows its note
    line = page.locator(f'#replay-lines a[data-step="{differs["step"]}"]')
    assert line.locator(".replay__differs").is_visible()
    line.click()
    page.wait_for_function(
        f"() => document.getElementById('replay').dataset.step === '{differs['step']}'"
    )
    text = note.inner_text()
    assert "The expert would have played" in text or "The expert would have ended" in text
    if differs["playouts"]:
        assert "from 12 playouts" in text and "Your choice left about" in text
    page.screenshot(path=str(shots / "replay-expert-phone.png"), full_page=True)
    page.locator("#replay-expert").screenshot(path=str(shots / "replay-expert-note-phone.png"))
    box = note.bounding_box()
    assert box is not None and box["width"] > 200  # readable on a phone, not squeezed

    # a step with no choice of a person (a computer's move, or the only move possible): no review
    unreviewed = next(
        k
        for k in range(differs["step"] + 1, differs["step"] + 40)
        if k not in {m["step"] for m in review.moves}
    )
    page.goto(live + f"/m/{match.pk}/replay/?round=1&step={unreviewed}&expert=1")
    assert page.locator("#replay-expert-toggle").get_attribute("aria-pressed") == "true"
    assert "The expert would have" not in page.locator("#replay-expert-note").inner_text()

    # hidden again, by touch
    page.locator("#replay-expert-toggle").click()
    assert page.locator("#replay-expert-note").is_hidden()
    assert page.locator(".replay__differs").first.is_hidden()
    context.close()
