"""Tips that fit the moment: a tip shows only while its situation holds, in its own
slot under the hand (static/js/tips.js), so it pushes no train and no hand and lies over no
train row, no tile, no total and no result, its title whole, on a phone and a wide screen in
English, Spanish and German. A tip whose moment has passed goes without being dismissed (it
comes again next time); one dismissed stays dismissed in every later match (stored on the
account: tests/games/lobby/test_learning.py).
Screenshots: test-artifacts/screenshots/tip-wide-*.png, tip-slot-*.png, tip-over-*.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from accounts.models import Preferences
from games import services
from games.reads import selectors
from games.services import SeatSpec
from tests.games.matches import near_the_rounds_end

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
    # Under the hand: no train, tile, hand or total under it, and the board where it was.
    tip = page.eval_on_selector("#tip", BOX)
    for part in (".trains", ".hand", "#board-side"):
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


SIZES = {"phone": {"width": 375, "height": 667}, "wide": {"width": 1280, "height": 800}}
#: the parts a tip never lies over: every train row, the hand, and the totals (a wide screen's side panel)
KEEP = ".trains__row, .hand, #board-side, .scores__seat"
#: the boxes of every part of KEEP that is shown
KEPT = f"() => [...document.querySelectorAll('{KEEP}')].filter(e => e.getClientRects().length)" + (
    ".map(e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })"
)
#: whether an element's text shows whole: wrapped, not cut, not ended with an ellipsis
WHOLE = """el => { const s = getComputedStyle(el);
  return s.textOverflow !== 'ellipsis' && s.whiteSpace !== 'nowrap'
    && el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1; }"""

#: the first word of an element's text laid out over two lines, or ""
BROKEN_WORD = """el => { const t = el.firstChild; if (!t || t.nodeType !== 3) return "";
  const re = /\\S+/g; let m;
  while ((m = re.exec(t.textContent))) {
    const r = document.createRange(); r.setStart(t, m.index); r.setEnd(t, m.index + m[0].length);
    if (new Set([...r.getClientRects()].map(b => Math.round(b.top))).size > 1) return m[0];
  }
  return ""; }"""


def four_seats(user: Any, rounds: int = 13) -> Any:
    """`user` against three computers: a full table, the rows a phone has least room for."""
    return services.match_create(
        creator=user,
        rounds=rounds,
        seats=[SeatSpec("me")] + [SeatSpec("computer", level="casual")] * 3,
    )


#: in one frame: the tip's box, the hand's top, and the boxes of every part of KEEP that is shown
LAYOUT = """() => {
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const hand = document.querySelector('.hand');  // (none at the match's end)
  return {tip: box(document.getElementById('tip')), handTop: hand ? box(hand)[1] : 1e9,
          parts: [...document.querySelectorAll('KEEP')].filter(e => e.getClientRects().length)
            .map(e => box(e).concat([e.className]))};
}""".replace("KEEP", KEEP)


def tip_covers_nothing(page: Any) -> None:
    """The tip lies over no train row, no hand and no total, wherever the page is scrolled."""
    for where in ("0", "document.documentElement.scrollHeight"):
        page.evaluate(f"window.scrollTo(0, {where})")
        seen = page.evaluate(LAYOUT)
        for part in seen["parts"]:
            # (a row the page has to scroll to is under the hand, which stays at the bottom)
            shows = part[:4] if "hand" in part[4] else part[:3] + [min(part[3], seen["handTop"])]
            assert not overlap(seen["tip"], shows), (where, part, seen["tip"])
    page.evaluate("window.scrollTo(0, 0)")


@pytest.mark.parametrize("lang", ["en", "es", "de"])
@pytest.mark.parametrize("size", SIZES)
def test_a_tip_has_its_own_place_and_its_whole_title(
    size: str, lang: str, live: str, context_for: Any, make_user: Any, shots: Path
) -> None:
    """The tip lay over the last train row on a phone and over the player's totals on a
    wide screen, and its title was cut ("Tip: The engine dou…")."""
    ana = make_user("ana")  # a new player: tips on
    match = four_seats(ana)
    page = context_for(ana, lang=lang, viewport=SIZES[size]).new_page()
    Table(page).open(f"{live}/m/{match.pk}/")
    page.wait_for_function("() => document.getElementById('tip')?.dataset.tip === 'engine'")
    page.screenshot(path=str(shots / f"tip-slot-{size}-{lang}.png"))
    tip_covers_nothing(page)
    assert page.eval_on_selector("#tip .tip__title", WHOLE)
    title = page.eval_on_selector("#tip .tip__title", BOX)
    assert all(
        (title[i] >= edge) if i < 2 else (title[i] <= edge)
        for i, edge in enumerate(page.eval_on_selector("#tip", BOX))
    ), title
    if size == "phone" and page.locator("#tip.tip--compact").count():
        # Its buttons beside its title, not under it: the slot takes one row from the trains.
        buttons = page.eval_on_selector("#tip .tip__buttons", BOX)
        assert buttons[1] < title[3] and buttons[0] >= title[2], (title, buttons)
    # No word of the title is broken over two lines ("Eröffnungsdoppe" / "l").
    assert page.eval_on_selector("#tip .tip__title", BROKEN_WORD) == "", "a word broken"
    # Shown or not (in one frame, while the computers play), the tip takes the same room.
    moved = page.evaluate(f"""() => {{
      const kept = {KEPT}, tip = document.getElementById('tip');
      const shown = JSON.stringify(kept()); tip.hidden = true;
      const hidden = JSON.stringify(kept()); tip.hidden = false;
      return [shown, hidden];
    }}""")
    assert moved[0] == moved[1]


@pytest.mark.parametrize("lang", ["es", "de"])
def test_on_a_phone_the_scoring_tip_leaves_the_players_own_result_in_view(
    lang: str, live: str, context_for: Any, make_user: Any, shots: Path
) -> None:
    """At the match's end the "Round scoring" tip hid the player's own result."""
    ana = make_user("ana")
    # played on by the services until the round (the match) is a few moves from its end
    match = near_the_rounds_end(four_seats(ana, rounds=1), beside_a_server=True)
    assert selectors.match_state(match).phase != "match_over"
    page = context_for(ana, lang=lang, viewport=SIZES["phone"]).new_page()
    table = Table(page).open(f"{live}/m/{match.pk}/")
    for _ in range(200):
        table.wait_turn_or_over()
        if table.phase() == "match_over":
            break
        table.act_first_fit()
    page.screenshot(path=str(shots / f"tip-over-phone-{lang}.png"))
    page.wait_for_function("() => document.getElementById('tip')?.dataset.tip === 'scoring'")
    page.screenshot(path=str(shots / f"tip-over-phone-{lang}.png"))
    own = page.locator(".result__seat", has=page.locator(".pname", has_text="ana"))
    mine = own.evaluate(BOX)
    assert mine[3] <= SIZES["phone"]["height"], mine  # in view without scrolling
    assert not overlap(page.eval_on_selector("#tip", BOX), mine), mine
    tip_covers_nothing(page)
    table.assert_no_errors()
