"""The replay viewer in Chromium: from a player's match history to a finished match's
replay, autoplay through a round, a jump from the log, and the running-totals chart with
13 points per seat (R21, R22)."""

from __future__ import annotations

from typing import Any

import pytest

from games.history.replays import round_replay
from games.models import Match
from tests.conftest import PHONE
from tests.games.history.fabricate import finished_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_history_replay_autoplay_log_jump_and_chart(
    live: str, make_user: Any, context_for: Any, shots: Any
) -> None:
    ana = make_user("ana")
    match = finished_match([ana, "casual"], seed=5151)
    context = context_for(ana, viewport=PHONE)
    page = context.new_page()
    page.goto(live + "/players/ana/")
    page.get_by_role("link", name=f"Replay Match {match.pk}").click()
    page.wait_for_url(f"**/m/{match.pk}/replay/**")

    # the chart: one point per round for each seat
    for seat in (1, 2):
        assert page.locator(f'.chart__point[data-seat="{seat}"]').count() == 13

    # round 2 from the round list, then autoplay at the fastest speed to its end
    page.locator('[data-round-link="2"]').click()
    page.wait_for_url("**round=2**")
    replay = round_replay(Match.objects.get(pk=match.pk), 2)
    root = page.locator("#replay")
    assert root.get_attribute("data-step") == "0"
    page.select_option("#replay-speed", "150")
    page.locator("#replay-play").click()
    assert page.locator("#replay-play").get_attribute("aria-pressed") == "true"
    page.wait_for_function(
        f"() => document.getElementById('replay').dataset.step === '{replay.last}'", timeout=60_000
    )
    assert page.locator("#replay-play").get_attribute("aria-pressed") == "false"  # stops at the end
    final = replay.steps[-1]
    assert page.locator(f'#replay-board .board[data-version="{final.version}"]').count() == 1
    assert page.locator("#replay-board .reveal").count() == 2  # both hands face up
    page.screenshot(path=str(shots / "replay-phone-end.png"), full_page=True)

    # a jump to an action from the log
    k = min(7, replay.last)
    page.locator(f'#replay-lines [data-step="{k}"]').click()
    page.wait_for_function(f"() => document.getElementById('replay').dataset.step === '{k}'")
    assert f"round=2&step={k}" in page.url
    assert (
        page.locator(f'#replay-board .board[data-version="{replay.steps[k].version}"]').count() == 1
    )
    assert page.locator(f'#replay-lines [data-step="{k}"]').get_attribute("aria-current") == "step"

    # keys: ← one back, Home to the deal, End to the end
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => document.getElementById('replay').dataset.step === '{k - 1}'")
    page.keyboard.press("Home")
    page.wait_for_function("() => document.getElementById('replay').dataset.step === '0'")
    page.keyboard.press("End")
    page.wait_for_function(
        f"() => document.getElementById('replay').dataset.step === '{replay.last}'"
    )
    context.close()
