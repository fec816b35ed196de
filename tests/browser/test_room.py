"""Where room is short, nothing is cut or overlaps: the trains' newest tiles and open ends with
the chat docked beside the board at 1280 px; the site's header of a spectator (not signed in)
in German at 1280 with the chat open, 1024 and 768 px; the phone's top bar in Spanish and
German (whose turn it is, the Draw button). Screenshots: test-artifacts/screenshots/room-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from games import services
from games.services import SeatSpec
from tests import seeded
from tests.games.matches import play

from .table import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}

#: every train's newest tile and open end ("the end number"): the part of each that the train's
#: row shows (a row clips what does not fit), against each one's whole box
TRAIN_ENDS = """() => [...document.querySelectorAll('#board .train')].map(t => {
  const line = t.querySelector('.train__line').getBoundingClientRect();
  const box = el => { const r = el.getBoundingClientRect(); return [r.left, r.right, r.width]; };
  const tiles = [...t.querySelectorAll('.train__line .ttile')].filter(e => e.getBoundingClientRect().width > 0);
  const last = t.querySelector('.train__line .ttile:last-of-type');
  const slot = t.querySelector('.train__slot');
  return {train: t.dataset.train, line: [line.left, line.right], slot: box(slot), text: slot.innerText,
          last: last ? box(last) : null, shown: tiles.length,
          fold: [...t.querySelectorAll('.fold')].filter(f => f.getBoundingClientRect().width > 0).map(f => f.innerText)};
})"""

#: the boxes of what the site's header shows: [text, left, top, right, bottom, whether its
#: words spill out of its box (a button squeezed narrower than its words lets them run over the next)]
HEADER_PARTS = """() => [...document.querySelectorAll(
    '.topbar .brand, .topbar .chat-toggle, .topbar .mainnav a, .topbar .langswitch__btn, .topbar__account > .btn, .topbar .usermenu summary')]
  .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
  .map(e => { const r = e.getBoundingClientRect(); return [e.innerText.trim(), r.left, r.top, r.right, r.bottom,
                 e.scrollWidth > e.clientWidth + 1]; })"""

#: whose turn it is shows whole: its words not cut in their pill, the pill not clipped by the bar
TURN_WHOLE = """() => {
  const s = document.querySelector('.tbar__status'), facts = document.querySelector('.tbar__facts');
  const r = s.getBoundingClientRect(), f = facts.getBoundingClientRect();
  return s.scrollWidth <= s.clientWidth + 1 && r.right <= f.right + 1 && r.width > 0;
}"""


def overlaps(a: list[Any], b: list[Any]) -> bool:
    """Whether two [text, left, top, right, bottom] boxes share more than a pixel's sliver."""
    return min(a[3], b[3]) - max(a[1], b[1]) > 1 and min(a[4], b[4]) - max(a[2], b[2]) > 1


def people_far_into_a_round(make_user: Any) -> Any:
    """Four people (no computer: nothing moves while the page is looked at), 90 moves into
    round 1, so trains are long and their older tiles folded."""
    ana = make_user("ana")
    match = seeded.match_create(
        creator=ana, seed=7, seats=[SeatSpec("me")] + [SeatSpec("human")] * 3
    )
    for name in ("ben", "cy", "dee"):
        services.seat_join(match_id=match.pk, user=make_user(name), token=match.invite_token)
    return ana, play(match, 90)


def open_chat(page: Any) -> None:
    page.locator("#chat-toggle").wait_for(state="visible")
    page.click("#chat-toggle")
    page.locator("#chat-panel").wait_for(state="visible")
    page.wait_for_function("() => document.body.classList.contains('chat-open')")


def train_problems(page: Any) -> list[str]:
    """What is wrong with the trains' ends: each train's open end, its number, and its newest
    tile lie inside the train's row (the row clips what does not fit), and the end says what
    it takes."""
    rows = page.evaluate(TRAIN_ENDS)
    if not rows:
        return ["no train's row on the page"]
    out = []
    for row in rows:
        left, right = row["line"]
        for part in ("slot", "last"):
            box = row[part]
            if box is not None and (box[0] < left - 0.5 or box[1] > right + 0.5):
                out.append(f"train {row['train']}: its {part} is cut at the row's edge ({row})")
        if not row["text"].strip():
            out.append(f"train {row['train']}: its open end says nothing ({row})")
    return out


def assert_train_ends_whole(page: Any, where: str) -> None:
    problems = train_problems(page)
    assert not problems, (where, problems)


def test_with_the_chat_open_every_trains_newest_tiles_and_end_show_whole(
    live: str, make_user: Any, context_for: Any, shots: Path
) -> None:
    ana, match = people_far_into_a_round(make_user)
    for lang in ("en", "de"):
        page = context_for(ana, lang=lang, viewport=DESKTOP).new_page()
        table = Table(page).open(f"{live}/m/{match.pk}/")
        assert_train_ends_whole(page, f"{lang}, chat closed")
        open_chat(page)
        page.screenshot(path=str(shots / f"room-chat-open-{lang}.png"))
        assert_train_ends_whole(page, f"{lang}, chat open")
        # A row whose older tiles give way says how many: "… 9 more" counts what is hidden.
        for row in page.evaluate(TRAIN_ENDS):
            assert len(row["fold"]) <= 1, row
        # Whose turn it is stays whole in the narrower top bar ("cy ist am" was cut there).
        page.wait_for_function(TURN_WHOLE, timeout=3000)
        table.assert_no_errors()
        page.close()


@pytest.mark.parametrize("width", [1280, 1024, 768])
def test_a_german_spectators_header_has_room_for_log_in_and_sign_up(
    width: int, live: str, make_user: Any, new_context: Any, shots: Path
) -> None:
    ana, match = people_far_into_a_round(make_user)
    context = new_context(viewport={"width": width, "height": 800})
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "de", "url": live}])
    page = context.new_page()
    Table(page).open(f"{live}/m/{match.pk}/watch/{match.watch_token}/")
    states = ["closed"]
    if width == 1280:
        open_chat(page)  # the page makes room for the docked chat: the header is narrower
        states.append("chat open")
    page.locator("#chat-toggle").wait_for(state="visible")
    page.screenshot(path=str(shots / f"room-header-de-{width}.png"))
    parts = page.evaluate(HEADER_PARTS)
    words = [p[0] for p in parts]
    assert "Anmelden" in words, words
    room = page.evaluate("document.querySelector('.topbar__inner').getBoundingClientRect().right")
    for i, a in enumerate(parts):
        assert a[1] >= -0.5 and a[3] <= room + 0.5, (states, "off the bar", a)
        assert not a[5], (states, "its words spill out of it", a)
        for b in parts[i + 1 :]:
            assert not overlaps(a, b), (states, a, b)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


PHONE = {"width": 375, "height": 667}
#: whether `name` shows whole in whose turn it is: the name element not cut, inside the pill
NAME_WHOLE = """(name) => {
  const n = document.querySelector('.tbar__status--them .pname');
  if (!n || n.textContent.replace(/[\u2068\u2069]/g, '').trim() !== name) return null;  // (names come between Unicode isolates)
  const pill = document.querySelector('.tbar__turn').getBoundingClientRect(), r = n.getBoundingClientRect();
  return [n.scrollWidth <= n.clientWidth + 1 && r.width > 0 && r.right <= pill.right + 1, n.clientWidth, n.scrollWidth];
}"""
#: the lines the words of a button take (its shown text's boxes by their middle)
TEXT_LINES = """(el) => {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT), middles = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.data.trim() || !node.parentElement.offsetParent) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) if (r.width > 1) middles.add(Math.round((r.top + r.bottom) / 2));
  }
  return middles.size;
}"""


#: whether the Draw button shows its words on one line, whole inside a window `width` wide
DRAW_ON_ONE_LINE = f"""(width) => {{
  const el = document.querySelector('.hand__actions [data-act="draw"]');
  if (!el || !el.isConnected) return false;
  const r = el.getBoundingClientRect();
  return ({TEXT_LINES})(el) === 1 && r.width > 0 && r.left >= 0 && r.right <= width;
}}"""


def two_people_until_one_must_draw(make_user: Any) -> tuple[Any, Any, int]:
    """SunnyPanda4242 and MoonlitOtter77 (two long guest-like names, no computer: nothing moves
    while the pages are looked at), played on until one of them can only draw. Returns the
    match, that player and their seat."""
    from games.reads import selectors

    sunny, otter = make_user("SunnyPanda4242"), make_user("MoonlitOtter77")
    match = seeded.match_create(creator=sunny, seed=11, seats=[SeatSpec("me"), SeatSpec("human")])
    services.seat_join(match_id=match.pk, user=otter, token=match.invite_token)
    for _ in range(200):
        match.refresh_from_db()
        state = selectors.match_state(match)
        if state.phase not in ("engine", "first") and state.turn is not None:
            legal = {a.act for a in selectors.seat_view(match, state.turn).legal}
            if legal == {"draw"}:
                return match, (sunny, otter)[state.turn], state.turn
        play(match, 1)
    raise AssertionError("nobody had to draw")


@pytest.mark.parametrize("lang", ["es", "de"])
def test_on_a_phone_whose_turn_shows_the_whole_name_and_draw_reads_on_one_line(
    lang: str, live: str, make_user: Any, context_for: Any, shots: Path
) -> None:
    match, drawer, seat = two_people_until_one_must_draw(make_user)
    other = next(s.user for s in match.seats.all() if s.index != seat)
    # The other player sees whose turn it is: the drawer's whole name, beside the chat and menu.
    page = context_for(other, lang=lang, viewport=PHONE).new_page()
    Table(page).open(f"{live}/m/{match.pk}/")
    page.locator("#chat-toggle").wait_for(state="visible")
    page.screenshot(path=str(shots / f"room-phone-turn-{lang}.png"))
    whole = page.evaluate(NAME_WHOLE, drawer.username)
    assert whole is not None and whole[0], (drawer.username, whole)
    bar = page.eval_on_selector(".tbar", "el => el.getBoundingClientRect().height")
    assert bar <= 56, bar
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # The drawer's Draw button says its words on one line ("Einen Stein ziehen" took three).
    page = context_for(drawer, lang=lang, viewport=PHONE).new_page()
    table = Table(page).open(f"{live}/m/{match.pk}/")
    draw = page.locator('.hand__actions [data-act="draw"]')
    draw.wait_for()
    page.screenshot(path=str(shots / f"room-phone-draw-{lang}.png"))
    # Waited for, not read once: the page may still be settling in (the player's first tips).
    try:
        page.wait_for_function(DRAW_ON_ONE_LINE, arg=PHONE["width"], timeout=5_000)
    except Exception as timed_out:
        box = draw.bounding_box()
        raise AssertionError((draw.inner_text(), draw.evaluate(TEXT_LINES), box)) from timed_out
    assert page.eval_on_selector(".tbar", "el => el.getBoundingClientRect().height") <= 56
    table.assert_no_errors()


#: what lies at the middle of the bottom edge of the match end's chart: null when it is the chart
CHART_FOOT = """() => {
  const chart = document.querySelector('.result--match .stable__chart');
  const r = chart.getBoundingClientRect();
  const y = Math.min(r.bottom - 4, innerHeight - 2);
  const hit = document.elementFromPoint(r.left + r.width / 2, y);
  return !hit || chart.contains(hit) ? null : (hit.id || String(hit.className));
}"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=lambda v: f"{v['width']}x{v['height']}")
def test_at_the_match_end_the_tip_bar_covers_no_part_of_the_chart(
    viewport: dict[str, int], live: str, make_user: Any, context_for: Any, shots: Path
) -> None:
    from tests.games.history.fabricate import finished_match

    # a new player: the tips are on (static/js/tips.js), their slot at the bottom
    ana = make_user("ana")
    match = finished_match([ana, "casual", "expert"], seed=99)
    page = context_for(ana, viewport=viewport).new_page()
    table = Table(page).open(f"{live}/m/{match.pk}/")
    table.wait("b.dataset.phase === 'match_over'")
    page.wait_for_selector(".tip-slot", state="attached")
    # The chart's foot at the foot of the screen, where a bar fixed at the bottom lies.
    page.evaluate(
        "document.querySelector('.result--match .stable__chart').scrollIntoView({block: 'end'})"
    )
    page.screenshot(path=str(shots / f"room-match-end-{viewport['width']}.png"))
    assert page.evaluate(CHART_FOOT) is None
    table.assert_no_errors()


def test_the_chats_reactions_are_drawn_not_left_to_an_emoji_font(
    live: str, make_user: Any, context_for: Any, shots: Path
) -> None:
    """Without an emoji font 👍 and 👏 were empty boxes: each reaction is drawn (an inline SVG),
    in its button and in the line it makes, its name its accessible name."""
    ana, match = people_far_into_a_round(make_user)
    page = context_for(ana, viewport=DESKTOP).new_page()
    table = Table(page).open(f"{live}/m/{match.pk}/")
    open_chat(page)
    page.locator(".chat__reaction").first.wait_for()
    buttons = page.eval_on_selector_all(
        ".chat__reaction",
        "els => els.map(b => { const s = b.querySelector('svg use'), r = s && s.closest('svg').getBoundingClientRect();"
        " return [b.getAttribute('aria-label'), !!s && !!document.querySelector(s.getAttribute('href')),"
        " r ? r.width : 0, b.innerText.trim()]; })",
    )
    assert len(buttons) == 6, buttons
    for name, drawn, width, text in buttons:
        assert name and drawn and width >= 16 and text == "", (name, drawn, width, text)
    page.click('.chat__reaction[aria-label="Thumbs up"]')
    line = page.locator(".chat__line .chat__text").last
    line.locator("svg").wait_for()
    assert line.get_attribute("aria-label") == "Thumbs up"
    page.screenshot(path=str(shots / "room-chat-reactions.png"))
    table.assert_no_errors()
