"""The table looks like the game, on a desktop and on a phone, in English, Spanish and German.

A round against three computers (at "instant": the test server's computers wait
`COMPUTER_DELAY`), played once per language by clicking the first tile that fits; at each
of our turns the window takes each size in turn, asserting what a person sees there: the engine double as the hub the trains leave from (R5, R7), doubles
drawn crosswise (R17, R19), the playable tiles lifted and lit and the rest dimmed on
our turn (R23), the label "ana · 12 in hand", no sentence citing a rule id, no
horizontal page scroll; on the phones (375×667 and 390×844, upright) the table's top
bar is one row of at most 56 px with its tools behind one button (Undo in it says
what it takes back), our own train, the Mexican train and every train we may play
on are in view next to the hand, names keep room, every tap target is at least
44 px, and the round's result is shown over the board. Screenshots go to
test-artifacts/screenshots/looks-<size>-<lang>-*.png.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from games.services import SeatSpec
from tests import seeded

from .table import Table, against_a_computer, first_fit_policy, pick_seed, resize

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: the sizes the issue names: a laptop, and a small phone held upright
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 667}
PHONE_390 = {"width": 390, "height": 844}
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE, "phone390": PHONE_390}
#: the table's own top bar on a phone, and the smallest tap target
BAR_MAX = 56
TAP = 44
RULE_ID = re.compile(r"\bR\d+\b")
IN_HAND = {"en": "in hand", "es": "en mano", "de": "auf der Hand"}

#: how a box sits in the viewport, and whether a box is taller than wide
BOX = "el => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom, r.width, r.height]; }"
#: the engine double's hub is left of the first train (the trains leave it to its right)
HUB_LEFT_OF_TRAINS = (
    "() => { const hub = document.querySelector('.hub'), row = document.querySelector('.train');"
    " return !!hub && !!row && hub.getBoundingClientRect().right"
    " <= row.getBoundingClientRect().left + 1; }"
)


def a_double_on_a_train(actions: list[Any]) -> bool:
    """Someone plays a double on a train during the later turns, and we make a first-turn chain."""
    later_double = any(
        phase == "play" and a.act == "play" and a.tile[0] == a.tile[1] for phase, a in actions
    )
    ours = [a for phase, a in actions if a.seat == 0 and phase == "first" and a.act == "play"]
    return later_double and len(ours) >= 1


@cache
def round_seed() -> int:
    """The deal of `test_a_round_looks_like_the_game` (the same for every size and language:
    worked out once, by simulating a few hundred rounds)."""
    return pick_seed(4, first_fit_policy, a_double_on_a_train)


@cache
def shortest_round_seed() -> int:
    """The deal of the three-seat round that ends soonest."""
    return pick_seed(3, first_fit_policy, lambda actions: True)


def covers(a: list[float], b: list[float]) -> bool:
    """Whether box `a` lies over part of box `b` (BOX lists)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def no_horizontal_scroll(page: Any) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width}"


def in_viewport(page: Any, selector: str) -> bool:
    box = page.eval_on_selector(selector, BOX)
    size = page.viewport_size
    return (
        box[0] >= 0
        and box[1] >= 0
        and box[2] <= size["width"] + 0.5
        and box[3] <= size["height"] + 0.5
    )


def phone_bar_and_taps(page: Any) -> None:
    """The phone's top bar is one row, and every control a thumb uses is 44 px or more."""
    bar = page.eval_on_selector(".tbar", BOX)
    badges = page.eval_on_selector_all(
        ".tbar .badge", f"els => els.map({BOX}).filter(b => b[4] > 0)"
    )
    # A paused or open-double badge takes a short line of its own under the row.
    assert bar[5] <= BAR_MAX + sum(b[5] + 2 for b in badges), (bar, badges)
    fold = page.eval_on_selector(".tbar__fold", BOX)
    assert fold[4] >= TAP and fold[5] >= TAP and fold[1] >= bar[1] and fold[3] <= bar[1] + BAR_MAX
    small = page.eval_on_selector_all(
        ".tbar button, .tbar summary, .train, .hand__actions .btn, .hand .chip",
        f"els => els.map(e => [e.className, ...({BOX})(e)]).filter(b => b[5] > 0 && (b[5] < {TAP} || b[6] < {TAP}))",
    )
    assert small == [], small
    # The hand's tiles wrap to rows and shrink to fit: at least 24 px wide (WCAG 2.5.8), twice as tall.
    tiny = page.eval_on_selector_all(
        ".htile", f"els => els.map({BOX}).filter(b => b[4] > 0 && (b[4] < 24 || b[5] < 48))"
    )
    assert tiny == [], tiny
    # Names keep room: a seat's name is not cut, and no train's name is squeezed to nothing.
    names = page.eval_on_selector_all(
        ".train__name",
        "els => els.map(e => [e.innerText, e.clientWidth, "
        "e.scrollWidth, !!e.closest('.train[data-owner]')])",
    )
    assert all(width >= 48 for _, width, _, _ in names), names
    assert all(full <= width + 1 for _, width, full, owned in names if owned), names


def visible_text_has_no_rule_id(page: Any) -> None:
    text = page.evaluate(
        "document.querySelector('#board').innerText + ' ' + "
        "[...document.querySelectorAll('#board [title], #board [aria-label]')]"
        ".map(e => (e.title || '') + ' ' + (e.getAttribute('aria-label') || '')).join(' ')"
    )
    assert not RULE_ID.search(text), RULE_ID.findall(text)


@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_a_round_looks_like_the_game(
    lang: str, live: str, context_for: Any, make_user: Any, shots: Path
) -> None:
    """One round, played once per language; at each of our turns, and at its end, the window
    takes every size in turn and the page is looked at as a person on that device sees it."""
    seed = round_seed()
    ana = make_user("ana")  # a new player: the first-time tips come (static/js/tips.js)
    match = seeded.match_create(
        creator=ana, seats=[SeatSpec("me")] + [SeatSpec("computer", level="casual")] * 3, seed=seed
    )
    page = context_for(ana, lang=lang, viewport=DESKTOP).new_page()
    table = Table(page).open(f"{live}/m/{match.pk}/")
    # Our train (board.css marks it from the board's data-seat and the train's data-owner).
    mine = f'.train[data-owner="{table.data("seat")}"]'

    for size in VIEWPORTS:
        resize(page, VIEWPORTS[size])
        # The hub: the engine double the trains leave from, in view (on a phone, too narrow
        # for a hub beside the trains, the engine double is in the top bar).
        if size == "desktop":
            hub = page.locator(".hub")
            assert hub.is_visible() and hub.locator(".hub__tile").is_visible()
            # Waited for, not read once: the page may still be taking in the first board.
            try:
                page.wait_for_function(HUB_LEFT_OF_TRAINS, timeout=5_000)
            except Exception as timed_out:
                name = f"looks-{size}-{lang}"
                (shots / f"{name}-hub.html").write_text(page.inner_html("#board"))
                page.screenshot(path=str(shots / f"{name}-hub.png"))
                hub_box = page.eval_on_selector(".hub", BOX)
                row_box = page.eval_on_selector(".train", BOX)
                raise AssertionError(
                    f"the trains leave the hub to its right: {hub_box} {row_box}"
                ) from timed_out
        else:
            assert page.locator(".tbar__engine .tile").is_visible(), size
        # Our train's label: the name and the tiles in hand, not "Your train · 12 tiles".
        label = page.locator(f"{mine} .train__who").inner_text()
        assert "ana" in label and IN_HAND[lang] in label, (size, label)

    shot_turn: set[str] = set()
    shot_menu: set[str] = set()
    tips_seen: set[str] = set()
    for _ in range(200):
        table.wait_turn_or_over()
        if table.phase() in ("round_over", "match_over"):
            break
        playable = table.playable()
        for size in VIEWPORTS:
            resize(page, VIEWPORTS[size])
            our_turn_looks(page, table, size, lang, playable, mine, shots, tips_seen, shot_menu)
            if size not in shot_turn:
                page.screenshot(path=str(shots / f"looks-{size}-{lang}-turn.png"))
                shot_turn.add(size)
        table.act_first_fit()
    else:
        raise AssertionError("the round did not end")
    table.wait("b.dataset.phase === 'round_over'")
    assert "engine" in tips_seen  # the first tip came (and others in their moments)
    # The last move is marked, once the moves have slid in (a sliding tile flies as a copy, table.js).
    page.wait_for_function("() => document.querySelectorAll('.ttile--ghost').length === 0")
    for size in VIEWPORTS:
        resize(page, VIEWPORTS[size])
        the_rounds_end_looks(page, size)
        page.screenshot(path=str(shots / f"looks-{size}-{lang}-over.png"))
    table.assert_no_errors()


def our_turn_looks(
    page: Any,
    table: Table,
    size: str,
    lang: str,
    playable: dict[str, list[str]],
    mine: str,
    shots: Path,
    tips_seen: set[str],
    shot_menu: set[str],
) -> None:
    """What a person at `size` sees on their turn: no sideways scroll, no rule id, whose turn
    it is whole; the tiles that fit lifted and lit, the others dimmed; what they may play on
    in view, beside the hand and any tip; on a phone, a one-row top bar and thumb-sized taps."""
    no_horizontal_scroll(page)
    visible_text_has_no_rule_id(page)
    if size == "desktop":
        # Whose turn it is is never cut short ("Your tu…"): the badges and the tools' words give way.
        cut = page.eval_on_selector(
            ".tbar__status", "el => [el.scrollWidth, el.clientWidth, el.innerText]"
        )
        assert cut[0] <= cut[1] + 1, cut
    if not playable or table.phase() == "engine":
        return
    # Playable tiles stand out: lifted and lit; the others are dimmed.
    # (Read once the tile is laid out: a style read while the hand is being morphed in
    # can meet a node with no computed style yet, all empty strings.)
    lit = page.wait_for_function(
        "() => { const el = document.querySelector('.htile--playable');"
        " if (!el || !el.isConnected) return null; const cs = getComputedStyle(el);"
        " return cs.opacity ? [cs.transform, cs.opacity, cs.filter] : null; }",
        timeout=5000,
    ).json_value()
    assert lit[0] not in ("none", "") and float(lit[1]) == 1.0, lit
    # the others step back by a greyed face, their pips as dark as ever; a
    # tile just drawn that does not fit keeps its face, to be found in the hand
    dull = ".htile:not(.htile--playable):not(.htile--drawn)"
    if page.locator(dull).count():
        page.wait_for_function(
            f"() => {{ const el = document.querySelector('{dull} .tile');"
            " return !!el && el.isConnected"
            " && getComputedStyle(el).getPropertyValue('--face-fill').trim() !== ''; }",
            timeout=5000,
        )
    if size == "desktop":
        if page.locator("#tip").is_visible():
            # A tip in its slot under the hand pushes no train we may play on, nor the Mexican
            # train, under the hand (which stays at the bottom): all in view without scrolling.
            tips_seen.add(page.get_attribute("#tip", "data-tip"))
            hand_top = page.eval_on_selector(".hand", BOX)[1]
            for part in {".train--mexican"} | {
                f'.train[data-train="{key}"]' for targets in playable.values() for key in targets
            }:
                row = page.eval_on_selector(part, BOX)
                assert row[3] <= hand_top + 1, (part, row, hand_top)
        return
    # Our train, the Mexican train and every train we may play on can be reached
    # without leaving the hand, and a tip, left open, lies over none of them (it
    # has its own slot under the hand).
    assert in_viewport(page, mine), (size, page.eval_on_selector(mine, BOX))
    assert in_viewport(page, ".train--mexican"), (
        size,
        page.eval_on_selector(".train--mexican", BOX),
    )
    assert in_viewport(page, ".hand__tiles"), size
    for key in {t for targets in playable.values() for t in targets}:
        assert in_viewport(page, f'.train[data-train="{key}"]'), (size, key)
    if page.locator("#tip").is_visible():
        tips_seen.add(page.get_attribute("#tip", "data-tip"))
        tip = page.eval_on_selector("#tip", BOX)
        assert not covers(tip, page.eval_on_selector(".hand__tiles", BOX)), (size, tip)
        hand_top = page.eval_on_selector(".hand", BOX)[1]
        for part in (mine, ".train--mexican"):  # what of them shows above the hand
            row = page.eval_on_selector(part, BOX)
            assert not covers(tip, visible_part(row, hand_top)), (size, part, tip, row)
    phone_bar_and_taps(page)
    if size not in shot_menu and page.locator('.tbar [data-cmd="undo"]:not([disabled])').count():
        # The tools open from the one button; Undo's words are its label there.
        page.click(".tbar__fold")
        undo = page.locator('.tbar [data-cmd="undo"]')
        assert undo.is_visible() and in_viewport(page, '.tbar [data-cmd="undo"]')
        words = undo.inner_text().strip()
        assert words and undo.get_attribute("title") == f"{words} (U)", words
        # "Undo your 6-4 and 3 computer moves", not "Undo"
        assert len(words.split()) >= 3, words
        page.screenshot(path=str(shots / f"looks-{size}-{lang}-menu.png"))
        page.keyboard.press("Escape")
        assert not undo.is_visible()
        shot_menu.add(size)


def the_rounds_end_looks(page: Any, size: str) -> None:
    """At the round's end: doubles drawn crosswise, the last move marked, the result over the
    board and in view, no sideways scroll, no rule id."""
    # Doubles on the trains are drawn crosswise: taller than wide, where the others are wider.
    # (A phone shows the last three tiles of a train: the older ones take no room.)
    doubles = [
        b
        for b in page.eval_on_selector_all(".ttile--double .tile", f"els => els.map({BOX})")
        if b[4]
    ]
    singles = [
        b
        for b in page.eval_on_selector_all(
            ".ttile:not(.ttile--double) .tile", f"els => els.map({BOX})"
        )
        if b[4]
    ]
    assert singles and (doubles or size != "desktop"), size
    assert all(b[5] > b[4] for b in doubles), (size, doubles)
    assert all(b[4] > b[5] for b in singles[:5]), (size, singles[:5])
    assert page.locator(".ttile--lastmove").count() == 1
    # The result is shown over the board, in view, not below it.
    assert in_viewport(page, ".result h2"), size
    no_horizontal_scroll(page)
    visible_text_has_no_rule_id(page)


def visible_part(row: list[float], hand_top: float) -> list[float]:
    """The part of a row's box above the hand (which stays at the bottom, over the rows)."""
    return row[:3] + [min(row[3], hand_top)]


@pytest.mark.parametrize(
    "viewport", [PHONE, {"width": 390, "height": 844}], ids=["375x667", "390x844"]
)
def test_on_a_phone_a_tip_has_its_place_under_the_hand_moves_nothing_and_goes_with_escape(
    viewport: dict[str, int], live: str, context_for: Any, make_user: Any, shots: Path
) -> None:
    ana = make_user("ana")  # a new player: tips on
    match = against_a_computer(ana)  # ana holds the engine double (R7)
    page = context_for(ana, viewport=viewport).new_page()
    table = Table(page).open(f"{live}/m/{match.pk}/")
    page.wait_for_function("() => document.getElementById('tip')?.dataset.tip === 'engine'")
    page.wait_for_timeout(100)
    assert page.evaluate("document.activeElement === document.body")  # the tip took no focus
    mine = f'.train[data-owner="{table.data("seat")}"]'
    parts = (mine, ".train--mexican", ".hub__confirm", ".hand")
    page.screenshot(path=str(shots / f"tip-phone-{viewport['width']}x{viewport['height']}.png"))
    tip = page.eval_on_selector("#tip", BOX)
    hand_top = page.eval_on_selector(".hand", BOX)[1]
    assert not covers(tip, page.eval_on_selector(".hand", BOX)), tip  # its slot is under the hand
    for part in parts[:3]:
        row = page.eval_on_selector(part, BOX)
        assert not covers(tip, visible_part(row, hand_top)), (part, tip, row)
    page.screenshot(path=str(shots / f"tip-phone-{viewport['width']}x{viewport['height']}.png"))
    before = [page.eval_on_selector(part, BOX) for part in parts]
    page.keyboard.press("Escape")  # dismissed like "Got it"
    page.wait_for_function("() => document.getElementById('tip').hidden")
    assert [page.eval_on_selector(part, BOX) for part in parts] == before  # nothing moved

    # One tap on a lit tile: the holder's confirmation places the engine (R7), and the tile
    # starts our train (R8).
    starter = page.locator(".htile[data-after-engine]").first
    tile = starter.get_attribute("data-tile")
    starter.click()
    table.wait(f"!!b.querySelector('{mine} .ttile')")
    assert table.phase() == "first" and tile not in table.hand()
    assert [m["action"]["act"] for m in table.sent if m["type"] == "act"] == ["engine", "play"]
    table.assert_no_errors()


#: a guest's name as accounts.guests makes them, among the widest (15 characters)
GUEST_NAME = "GentleFalcon999"
#: where `name` lies in an element's text: the boxes of its lines (one box: on one line), and the element's box
NAME_BOXES = """(el, name) => {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf(name);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + name.length);
    const box = el.getBoundingClientRect();
    return {lines: [...range.getClientRects()].map(r => [r.left, r.top, r.right, r.bottom]),
            box: [box.left, box.top, box.right, box.bottom], cut: el.scrollHeight > el.clientHeight + 1
              || el.scrollWidth > el.clientWidth + 1};
  }
  return null;
}"""


def whole_name(page: Any, selector: str, name: str) -> None:
    """`name` shows whole in the element `selector`: on one line, inside its box, not cut."""
    found = page.eval_on_selector(selector, NAME_BOXES, name)
    assert found is not None, (selector, name)
    box = found["box"]
    assert not found["cut"], found
    assert len({round(line[1]) for line in found["lines"]}) == 1, found  # not broken over two lines
    for line in found["lines"]:
        assert box[0] - 0.5 <= line[0] and line[2] <= box[2] + 0.5, found
        assert box[1] - 2 <= line[1] and line[3] <= box[3] + 2, (
            found
        )  # (a line's glyphs may pass its line box)


@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_on_a_phone_whose_turn_it_is_shows_the_whole_name(
    lang: str, live: str, make_user: Any, new_context: Any, shots: Path
) -> None:
    guest = make_user(GUEST_NAME)
    match = against_a_computer(guest)  # the guest holds the engine double (R7): the guest's turn
    context = new_context(viewport=PHONE)
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": live}])
    page = context.new_page()
    watcher = Table(page)
    page.goto(f"{live}/m/{match.pk}/watch/{match.watch_token}/")
    watcher.wait_connected()
    assert GUEST_NAME in page.locator(".tbar__status").inner_text()
    page.screenshot(path=str(shots / f"turn-name-phone-{lang}.png"))
    # The one rule for names: where the pill has no room left (the boneyard's count
    # reads on one line beside it), the name ends in an ellipsis inside the pill, and the
    # whole sentence with the whole name is the pill's title (hover, focus, screen readers).
    status = page.locator(".tbar__status")
    assert GUEST_NAME in (status.get_attribute("title") or "")
    assert status.evaluate(
        "e => { const p = e.closest('.tbar__turn').getBoundingClientRect(),"
        " r = e.getBoundingClientRect(); return r.right <= p.right + 1 && r.left >= p.left - 1; }"
    )
    phone_bar_and_taps_of_a_spectator(page)


def phone_bar_and_taps_of_a_spectator(page: Any) -> None:
    """The phone's top bar stays one row of at most 56 px with the pill on two lines."""
    bar = page.eval_on_selector(".tbar", BOX)
    assert bar[5] <= BAR_MAX, bar
    no_horizontal_scroll(page)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_rounds_result_shows_whole_names_on_a_laptop_and_a_phone(
    lang: str, live: str, make_user: Any, context_for: Any, new_context: Any, shots: Path
) -> None:
    seed = shortest_round_seed()
    guest = make_user(GUEST_NAME)
    match = seeded.match_create(
        creator=guest,
        seed=seed,
        seats=[
            SeatSpec("me"),
            SeatSpec("computer", level="casual"),
            SeatSpec("computer", level="casual"),
        ],
    )
    table = Table(context_for(guest, lang=lang, viewport=DESKTOP).new_page()).open(
        f"{live}/m/{match.pk}/"
    )
    context = new_context(viewport=PHONE)
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": live}])
    watcher = Table(context.new_page())
    watcher.page.goto(f"{live}/m/{match.pk}/watch/{match.watch_token}/")
    watcher.wait_connected()
    for _ in range(200):
        table.wait_turn_or_over()
        if table.phase() in ("round_over", "match_over"):
            break
        table.act_first_fit()
    else:
        raise AssertionError("the round did not end")
    for who, t in (("laptop", table), ("phone", watcher)):
        t.wait("b.dataset.phase === 'round_over'")
        t.page.wait_for_selector(".result__name")
        t.page.screenshot(path=str(shots / f"result-names-{who}-{lang}.png"))
        names = [
            n.strip("\u2068\u2069")
            for n in t.page.eval_on_selector_all(  # (names come between Unicode isolates)
                ".result__name", "els => els.map(e => e.textContent.trim())"
            )
        ]
        assert GUEST_NAME in names, names
        for i, name in enumerate(names):
            whole_name(t.page, f".result__seat:nth-child({i + 1}) .result__name", name)
        no_horizontal_scroll(t.page)
    table.assert_no_errors()


@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_the_engine_doubles_name_under_the_hub_stays_on_one_line(
    lang: str, live: str, make_user: Any, new_context: Any, shots: Path
) -> None:
    guest = make_user(GUEST_NAME)
    match = against_a_computer(
        guest
    )  # the guest holds the engine double (R7) and has not placed it
    context = new_context(viewport=DESKTOP)
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": live}])
    page = context.new_page()
    Table(page).open(
        f"{live}/m/{match.pk}/watch/{match.watch_token}/"
    )  # listening before the socket opens
    caption = page.locator(".hub__caption")  # "GentleFalcon999 holds 12-12", under the double
    assert caption.is_visible() and "12-12" in caption.inner_text()
    page.screenshot(path=str(shots / f"hub-caption-{lang}.png"))
    whole_name(page, ".hub__caption", "12-12")
