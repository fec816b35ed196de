"""The replay inside the admin reads as on the players' replay page, at 1280 and 1920 wide
: the board's boxes (the top bar, the trains, the totals, the log) do not overlap,
each train's tiles run along one line, nothing is wider than the window, and the board is
as wide as on the players' page."""

from __future__ import annotations

from typing import Any

import pytest

from games.history.replays import round_replay
from games.models import Match
from tests.games.history.fabricate import finished_match

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SIZES = {1280: {"width": 1280, "height": 800}, 1920: {"width": 1920, "height": 1080}}

#: the boxes of the viewer, as [x, y, width, height] by name, and every visible train tile's box per train
BOXES = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; };
  const one = (sel) => { const el = document.querySelector(sel); return el ? box(el) : null; };
  const trains = [...document.querySelectorAll('#replay-board .train')].map((t) =>
    [...t.querySelectorAll('.train__line .ttile')].filter((x) => x.getBoundingClientRect().width > 0).map(box));
  const rows = [...document.querySelectorAll('#replay-board .trains__row')].map(box);
  return {bar: one('#replay-board .tbar'), trains: one('#replay-board .trains'), side: one('#replay-board .board__side'),
          log: one('.replay__log'), board: one('#replay-board .board'), rows, tiles: trains,
          scroll: document.scrollingElement.scrollWidth, inner: window.innerWidth};
}"""


def overlap(a: list[float], b: list[float]) -> bool:
    """Whether two boxes share more than a pixel's sliver."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return min(ax + aw, bx + bw) - max(ax, bx) > 1 and min(ay + ah, by + bh) - max(ay, by) > 1


def test_admin_replay_boxes_do_not_overlap(
    live: str, make_user: Any, context_for: Any, shots: Any
) -> None:
    boss = make_user("boss", is_staff=True, is_superuser=True)
    ana = make_user("ana")
    match = finished_match([ana, "casual", "expert", "beginner"], seed=5151)
    k = round_replay(Match.objects.get(pk=match.pk), 3).last // 2
    for width, size in SIZES.items():
        context = context_for(boss, viewport=size)
        page = context.new_page()
        page.goto(f"{live}/admin/games/match/{match.pk}/replay/?round=3&step={k}")
        page.locator("#replay-board .board").wait_for()
        admin = page.evaluate(BOXES)
        page.screenshot(path=str(shots / f"admin-replay-{width}.png"), full_page=True)
        page.goto(f"{live}/m/{match.pk}/replay/?round=3&step={k}")
        page.locator("#replay-board .board").wait_for()
        players = page.evaluate(BOXES)
        context.close()

        assert admin["scroll"] <= admin["inner"], f"{width}: the admin page scrolls sideways"
        named = {n: admin[n] for n in ("bar", "trains", "side", "log")}
        assert all(named.values()), named
        for a in named:
            for b in named:
                if a < b:
                    assert not overlap(named[a], named[b]), (
                        f"{width}: {a} {named[a]} overlaps {b} {named[b]}"
                    )
        assert len(admin["rows"]) == 5  # four seats and the Mexican train
        for row in admin["rows"]:
            assert not overlap(row, admin["side"]), (
                f"{width}: a train {row} lies under the totals {admin['side']}"
            )
            assert row[2] >= 320, f"{width}: a train row {row[2]:.0f} px wide"
        for tiles in admin["tiles"]:
            tops = {round(t[1] + t[3] / 2) for t in tiles}
            assert max(tops, default=0) - min(tops, default=0) <= 2, (
                f"{width}: a train's tiles on several lines"
            )
        # as wide as the players' own page shows it (the admin keeps a little padding)
        assert admin["board"][2] >= 0.9 * players["board"][2], (
            width,
            admin["board"],
            players["board"],
        )
