"""The table's scripts (static/js) in Debian's Chromium, against a stand-in websocket.

The page is the real table template rendered for real positions (tests/games/table/
snapshots.py) and opened from a file; `window.WebSocket` is replaced by a recorder
so each test sees exactly the JSON the client sends (games/table/board.py documents the
contract) and can feed it server messages. Screenshots at desktop and phone size
go to test-artifacts/board/.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from engine.views import view
from games.board.presenter import Flags
from games.board.viewer import Viewer
from tests.browser.table import resize
from tests.games.board import states as S

from .snapshots import render_page

pytestmark = pytest.mark.browser

FAKE_SOCKET = """
window.__sent = [];
window.__sockets = [];
class FakeSocket {
  constructor(url) {
    this.url = url; this.readyState = 0; window.__sockets.push(this);
    setTimeout(() => { this.readyState = 1; this.onopen && this.onopen(); }, 5);
  }
  send(data) { window.__sent.push(JSON.parse(data)); }
  close() {}
}
FakeSocket.OPEN = 1; FakeSocket.CONNECTING = 0;
window.WebSocket = FakeSocket;
window.__serve = (msg) => window.__sockets[window.__sockets.length - 1].onmessage({data: JSON.stringify(msg)});
"""


@pytest.fixture
def shots(artifacts_dir: Path) -> Path:
    out = artifacts_dir / "board"
    out.mkdir(exist_ok=True)
    return out


def write(
    tmp_path: Path,
    name: str,
    v: Any,
    seats: Any,
    viewer: Any = None,
    flags: Any = None,
    lang: str = "en",
) -> str:
    with translation.override(lang):
        html = render_page(v, seats, viewer, flags or Flags(match_id=1, version=5))
    path = tmp_path / f"{name}.html"
    path.write_text(html)
    return path.as_uri()


def open_page(new_context: Any, url: str, *, clock: bool = False, **options: Any) -> Any:
    """The page at `url` on the stand-in socket, synced. With `clock`, its timers run on
    Playwright's clock (at the real pace, until a test moves it on: ``page.clock``)."""
    context = new_context(**options)
    context.add_init_script(FAKE_SOCKET)
    if clock:
        context.clock.install()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_function("window.__sent.length > 0")  # connected: the chat joins its room
    page.errors = errors
    return page


def sent(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("window.__sent")


def board_html(page: Any) -> str:
    return page.evaluate("document.getElementById('board').innerHTML")


@pytest.fixture
def first_turn(tmp_path: Path) -> tuple[Any, str]:
    st = S.first_turn_chain(4)
    return st, write(tmp_path, "first", view(st, st.turn), S.seats(4))


@pytest.fixture
def later_turn(tmp_path: Path) -> tuple[Any, str]:
    """A later turn (R13) where a tile of the hand fits two trains: selecting chooses."""
    st = S.mid_game(4)
    v = view(st, st.turn)
    fits: dict[Any, int] = {}
    for a in v.legal:
        if a.act == "play":
            fits[a.tile] = fits.get(a.tile, 0) + 1
    assert st.phase == "play" and max(fits.values(), default=0) >= 2, "choose another position"
    return st, write(tmp_path, "later", v, S.seats(4))


def test_connects_to_the_match_socket_and_waits_for_the_board_it_sends(new_context, first_turn):
    _st, url = first_turn
    page = open_page(new_context, url)
    assert page.evaluate("window.__sockets[0].url").endswith("/ws/m/1/")
    # The server sends the current board as the socket opens: asking for one would make it twice.
    assert {"type": "sync"} not in sent(page), sent(page)
    assert not page.errors


def test_r23_select_a_tile_then_a_glowing_train_plays_it(new_context, later_turn, shots):
    st, url = later_turn
    page = open_page(new_context, url)
    tile = page.locator(".htile[data-targets*=' ']").first  # a tile that fits two trains
    tile_name = tile.get_attribute("data-tile")
    targets = tile.get_attribute("data-targets").split()
    tile.click()
    glowing = page.eval_on_selector_all(".train.is-target", "els => els.map(e => e.dataset.train)")
    assert glowing == targets
    assert page.locator(".board.is-selecting").count() == 1
    assert [m for m in sent(page) if m["type"] == "act"] == []  # selecting plays nothing
    page.screenshot(path=str(shots / "selected-1280.png"))
    page.locator(f'.train[data-train="{targets[-1]}"]').click()
    act = sent(page)[-1]
    assert act["type"] == "act" and act["seat"] == st.turn and act["version"] == 5
    train = targets[-1] if targets[-1] == "mexican" else int(targets[-1])
    assert act["action"] == {"seat": st.turn, "act": "play", "tile": tile_name, "train": train}
    assert len(act["request_id"]) >= 32


def test_r8_in_the_first_turn_one_tap_lays_a_lit_tile_on_your_train(new_context, first_turn):
    """Your first turn's tiles go on your own train only (R8): a tap on a lit tile lays it
    there; its train glows while the pointer is over it (R23). Keys still select, then play."""
    st, url = first_turn
    page = open_page(new_context, url)
    tile = page.locator(".htile[data-targets]:not([data-targets=''])").first
    assert tile.get_attribute("data-targets") == str(st.turn)
    tile.hover()
    assert page.eval_on_selector_all(
        ".train.is-lays-here", "els => els.map(e => e.dataset.train)"
    ) == [str(st.turn)]
    tile.click()
    act = sent(page)[-1]
    assert act["type"] == "act"
    assert act["action"] == {
        "seat": st.turn,
        "act": "play",
        "tile": tile.get_attribute("data-tile"),
        "train": st.turn,
    }
    assert len([m for m in sent(page) if m["type"] == "act"]) == 1


def test_a_tile_that_fits_nowhere_shakes_and_says_why(new_context, first_turn):
    _st, url = first_turn
    page = open_page(new_context, url)
    tile = page.locator(".htile[data-why]").first
    why = tile.get_attribute("data-why")
    tile.click()
    assert page.inner_text("#hand-say") == why + " " + "why?" and "your own train" in why
    assert page.locator("#hand-say a.why").get_attribute("href") == "/rules/#R8"
    assert page.locator(".board.is-selecting").count() == 0
    assert [m for m in sent(page) if m["type"] == "act"] == []


def test_r30_keyboard_alone_selects_and_plays(new_context, first_turn):
    st, url = first_turn
    page = open_page(new_context, url)
    page.locator(".htile").first.focus()
    playable = page.eval_on_selector_all(".htile", "els => els.map(e => !!e.dataset.targets)")
    for _ in range(playable.index(True)):
        page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.tile")
    page.keyboard.press("Enter")  # select: focus moves to the first train it may go on
    assert page.evaluate("document.activeElement.classList.contains('train')")
    page.keyboard.press("Enter")  # play there
    act = sent(page)[-1]
    assert act["type"] == "act" and act["action"]["tile"] == focused


def test_r9_end_first_turn_is_previewed_then_confirmed_by_key(new_context, first_turn):
    st, url = first_turn
    page = open_page(new_context, url)
    page.keyboard.press("e")
    assert page.locator("#end-dialog[open]").count() == 1
    assert not [m for m in sent(page) if m["type"] == "act"]
    page.locator("#end-dialog [data-confirm-act]").click()
    assert sent(page)[-1]["action"] == {"seat": st.turn, "act": "end"}


def test_r15_draw_shows_a_face_down_tile_and_one_click_draws(new_context, tmp_path):
    # Drawing is the only legal action here (R14, R15): the button is the face-down preview.
    st = S.with_draw(4)
    page = open_page(new_context, write(tmp_path, "draw", view(st, st.turn), S.seats(4)))
    button = page.locator('[data-act="draw"]')
    assert button.locator(".tile--back").count() == 1 and "mt-pips" not in button.inner_html()
    assert page.locator("#draw-dialog").count() == 0
    button.click()
    assert sent(page)[-1]["action"] == {"seat": st.turn, "act": "draw"}
    assert len([m for m in sent(page) if m["type"] == "act"]) == 1


def test_r26_opening_the_log_or_rules_asks_to_pause(new_context, first_turn):
    _st, url = first_turn
    page = open_page(new_context, url)
    page.keyboard.press("l")
    # the drawers' script comes on first use (static/js/lazy.js): the first opening waits for it
    page.locator("#log-panel").wait_for(state="visible", timeout=5000)
    assert sent(page)[-1] == {"type": "panel", "open": True}
    page.keyboard.press("Escape")
    assert not page.locator("#log-panel").is_visible()
    assert sent(page)[-1] == {"type": "panel", "open": False}
    page.keyboard.press("?")
    # A page opened from a file cannot fetch the rules' text: the drawer keeps its link to the
    # rules page (tests/browser/test_languages.py sees the text come, in Spanish and German).
    assert page.locator("#rules-panel").is_visible()
    assert page.locator('#rules-body a[href="/rules/"]').is_visible()
    assert sent(page)[-1] == {"type": "panel", "open": True}


def test_r26_an_open_panel_renews_its_pause_until_closed(new_context, first_turn):
    """The server forgets a pause nobody renews (its page or server gone), so the
    page says "still open" every few seconds (here every 100 ms) — and stops once closed."""
    _st, url = first_turn
    context = new_context()
    context.add_init_script("window.MT_PAUSE_RENEW_MS = 100;")
    context.add_init_script(FAKE_SOCKET)
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("window.__sent.length > 0")
    page.keyboard.press("?")
    page.wait_for_function("window.__sent.filter(m => m.type === 'panel' && m.open).length >= 4")
    page.keyboard.press("Escape")
    assert sent(page)[-1] == {"type": "panel", "open": False}
    count = len(sent(page))
    page.wait_for_timeout(400)
    assert [m for m in sent(page)[count:] if m["type"] == "panel"] == []


def test_a_new_board_is_swapped_in_keeping_the_selection(new_context, later_turn):
    _st, url = later_turn
    page = open_page(new_context, url)
    tile = page.locator(".htile[data-targets*=' ']").first
    name = tile.get_attribute("data-tile")
    tile.click()
    html = board_html(page).replace('data-version="5"', 'data-version="6"')
    page.evaluate(
        "h => window.__serve({type: 'board', version: 6, html: h, title: 'New title', your_turn: true})",
        html,
    )
    assert page.evaluate("MT.version()") == 6
    assert page.title() == "● New title"  # your turn shows in the tab's title, and in its favicon
    assert page.get_attribute("#favicon", "href").endswith("favicon-turn.svg")
    assert page.locator(f'.htile.is-selected[data-tile="{name}"]').count() == 1
    # An older board arriving late is ignored.
    page.evaluate(
        "h => window.__serve({type: 'board', version: 4, html: '<div class=\"board\" data-version=\"4\"></div>', title: 'old', your_turn: false})",
        html,
    )
    assert page.evaluate("MT.version()") == 6 and page.locator(".htile").count() > 0


def test_a_drawer_asked_for_while_its_script_loads_opens_though_a_whole_board_came_meanwhile(
    new_context, later_turn
):
    """The drawers' script comes on first use (static/js/lazy.js): the click waits for it, and
    a whole new board arriving meanwhile (a connect, a resync) replaces the button it was on."""
    _st, url = later_turn
    page = open_page(new_context, url)
    html = board_html(page).replace('data-version="5"', 'data-version="6"')
    page.evaluate(
        "h => { const old = document.querySelector('#board [data-panel=\"log\"]'); old.click();"
        " window.__serve({type: 'board', version: 6, html: h, title: 't', your_turn: true});"
        " window.__replaced = !old.isConnected; }",
        html,
    )
    assert page.evaluate("window.__replaced")  # the button clicked is gone before the script came
    page.locator("#log-panel").wait_for(state="visible", timeout=5000)
    assert sent(page)[-1] == {"type": "panel", "open": True}
    assert page.get_attribute('#board [data-panel="log"]', "aria-expanded") == "true"


def test_an_ack_without_its_board_asks_for_a_sync(new_context, first_turn):
    _st, url = first_turn
    page = open_page(new_context, url)
    before = len(sent(page))
    page.evaluate("window.__serve({type: 'ack', request_id: 'x', version: 9})")
    page.wait_for_function(f"window.__sent.length > {before}", timeout=4000)
    assert sent(page)[-1] == {"type": "sync"}


def test_a_stale_refusal_of_a_play_asks_for_the_board_and_says_so_only_if_none_comes(
    new_context, later_turn
):
    _st, url = later_turn
    page = open_page(new_context, url)
    tile = page.locator(".htile[data-targets*=' ']").first
    name = tile.get_attribute("data-tile")
    tile.click()
    page.locator(".train.is-target").first.click()
    assert "is-pending" in (tile.get_attribute("class") or "")  # on its way, out of the hand
    request = sent(page)[-1]
    page.evaluate(
        "m => window.__serve(m)",
        {
            "type": "error",
            "code": "stale",
            "message": "Refresh first",
            "request_id": request["request_id"],
        },
    )
    assert sent(page)[-1] == {"type": "sync"}  # stale: fetch the current board
    assert page.locator("#toast").is_hidden()  # the board it asked for will say what changed
    assert "is-pending" not in (page.get_attribute(f'.htile[data-tile="{name}"]', "class") or "")
    # No board comes (this page has no server): then the refusal's words show.
    page.wait_for_function(
        "() => document.getElementById('toast').textContent === 'Refresh first'"
        " && !document.getElementById('toast').hidden",
        timeout=8000,
    )


def test_r23_hint_highlights_one_tile_and_one_train(new_context, first_turn):
    st, url = first_turn
    page = open_page(new_context, url)
    page.keyboard.press("h")
    assert sent(page)[-1] == {"type": "hint", "seat": st.turn}
    tile = page.locator(".htile[data-targets]:not([data-targets=''])").first.get_attribute(
        "data-tile"
    )
    page.evaluate(
        "m => window.__serve(m)",
        {"type": "hint", "tile": tile, "train": st.turn, "act": "play", "reason": "Because."},
    )
    assert (
        page.locator(".htile.is-hint").count() == 1 and page.locator(".train.is-hint").count() == 1
    )
    # The hint reads on the hand's line; no toast repeats it over the hand.
    assert page.inner_text(".hand__say.hand__say--hint") == "Hint: Because."
    assert page.locator("#toast").is_hidden()


def test_r24_relay_cover_reveals_on_request_only(new_context, tmp_path, shots):
    st = S.play_until(S.start(3, seed=5), lambda s: s.phase == "play" and s.turn == 1)
    seats = S.seats(3, {0: "local", 1: "local", 2: "local"})
    url = write(tmp_path, "relay", view(st, None), seats, Viewer(controlled=(0, 1, 2), revealed=0))
    page = open_page(new_context, url)
    assert page.locator(".cover").is_visible() and page.locator(".htile").count() == 0
    page.keyboard.press("d")  # shortcuts do nothing under the cover
    page.locator("[data-reveal]").click()
    assert sent(page)[-1] == {"type": "reveal", "seat": 1}
    page.screenshot(path=str(shots / "relay-1280.png"))


def test_refused_connection_is_not_retried(new_context, first_turn):
    _st, url = first_turn
    page = open_page(new_context, url)
    page.evaluate("window.__sockets[0].onclose({code: 4403})")
    page.wait_for_timeout(700)
    assert page.evaluate("window.__sockets.length") == 1
    assert page.locator("#conn").is_visible()


@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_screenshots_desktop_and_phone(new_context, tmp_path, shots, lang):
    """Pictures for people to look at; also: nothing overflows a 375 px phone."""
    out = shots
    pages = {
        "mid4": (lambda st: (view(st, st.turn), S.seats(4), None, Flags(undo=True, restart=True)))(
            S.mid_game(4)
        ),
        "mid10": (lambda st: (view(st, None), S.seats(10), Viewer(), Flags()))(
            S.mid_game(10, seed=3, plays_after_first=30)
        ),
    }
    history, st = S.history_of(4, seed=7, rounds=2)
    pages["round_over"] = (
        view(st, 0),
        S.seats(4),
        None,
        Flags(next_round=True, history=tuple(history)),
    )
    for name, (v, seats, viewer, flags) in pages.items():
        url = write(tmp_path, f"{name}-{lang}", v, seats, viewer, flags, lang=lang)
        # Loaded once, the window resized under it: the desktop, then the phone.
        page = open_page(new_context, url, viewport={"width": 1280, "height": 900})
        for size, viewport in (
            ("1280", {"width": 1280, "height": 900}),
            ("375", {"width": 375, "height": 740}),
        ):
            resize(page, viewport)
            page.screenshot(path=str(out / f"{name}-{lang}-{size}.png"), full_page=True)
            if size == "375":
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= 375, f"{name} overflows a phone: {width}px"
                small = page.evaluate("""() => [...document.querySelectorAll('#board button, #board a, #board summary')]
                    .filter(e => e.offsetParent && !e.closest('dialog'))
                    .map(e => e.getBoundingClientRect()).filter(r => r.height < 40 || r.width < 40).length""")
                assert small == 0, "tap targets under 40 px"
            assert not page.errors
        assert json.dumps(page.evaluate("MT.strings"))  # translated words reached the script


def test_r24_a_cover_arriving_takes_the_focus_and_makes_the_board_inert(new_context, tmp_path):
    from games.board.draw import board_html
    from games.board.presenter import present

    st = S.play_until(S.start(3, seed=5), lambda s: s.phase == "play" and s.turn == 0)
    seats = S.seats(3, {0: "local", 1: "local", 2: "local"})
    shown = Viewer(controlled=(0, 1, 2), revealed=0)
    page = open_page(new_context, write(tmp_path, "relay-shown", view(st, 0), seats, shown))
    assert page.locator(".htile").count() == len(st.hands[0])
    page.locator(".train").first.focus()
    covered = S.play_until(st, lambda s: s.turn == 1)
    with translation.override("en"):
        html = board_html(
            present(
                view(covered, None),
                seats,
                viewer=Viewer(controlled=(0, 1, 2), revealed=0),
                flags=Flags(version=9),
            )
        )
    page.evaluate(
        "h => window.__serve({type: 'board', version: 9, html: h, title: 't', your_turn: false})",
        html,
    )
    assert page.evaluate("document.activeElement.dataset.reveal") == "1"
    assert page.locator(".htile").count() == 0
    assert page.evaluate("document.querySelector('.trains').closest('[inert]') !== null")
    page.keyboard.press("Enter")
    assert sent(page)[-1] == {"type": "reveal", "seat": 1}


@pytest.mark.parametrize("lang", ["es", "de"])
def test_the_whose_turn_words_stay_whole_while_the_tools_go_icons_only(
    new_context, tmp_path, shots, lang
):
    """es/de at 1280 px with the R26 badge and every tool: the tools drop their words
    (kept as accessible names), the whose-turn label is not cut short."""
    st = S.first_turn_chain(4)
    flags = Flags(match_id=1, version=5, paused=True, undo=True, redo=True, restart=True)
    page = open_page(
        new_context,
        write(tmp_path, f"tight-{lang}", view(st, st.turn), S.seats(4), flags=flags, lang=lang),
    )
    assert page.locator(".badge--paused").is_visible()
    status = page.locator(".tbar__status")
    assert status.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), status.inner_text()
    assert page.locator(".tbar.tbar--tight").count() == 1
    hint = page.locator('.tbar [data-cmd="hint"]')
    assert hint.locator(".tool__text").bounding_box()["width"] <= 1
    name = hint.evaluate("e => e.querySelector('.tool__text').textContent")
    assert page.get_by_role("button", name=name, exact=True).count() >= 1  # still named
    page.screenshot(path=str(shots / f"tight-{lang}-1280.png"))
    assert not page.errors


def test_undo_gives_its_words_up_when_the_badges_are_still_cut(new_context, tmp_path, shots):
    """1280 px, an open double, the R26 badge and a long Undo ("Undo the end of your first
    turn and 3 computer moves"): when dropping the other tools' words is not enough
    (tbar--tighter), Undo's words go too, so the badges are whole. The rule that hides them
    was less specific than the one showing an enabled Undo's words, so they stayed."""
    st = S.with_open_double(4)
    flags = Flags(
        match_id=1,
        version=5,
        paused=True,
        undo=True,
        redo=True,
        restart=True,
        undo_text="Undo the end of your first turn and 3 computer moves",
    )
    page = open_page(
        new_context,
        write(tmp_path, "tighter", view(st, st.turn), S.seats(4), flags=flags),
        viewport={"width": 1280, "height": 800},
    )
    assert page.locator(".badge--doubles").is_visible()
    page.evaluate("() => window.dispatchEvent(new Event('resize'))")
    page.wait_for_timeout(100)
    undo_words = page.locator('.tbar [data-cmd="undo"] .tool__text')
    if page.locator(".tbar.tbar--tighter").count():
        assert undo_words.bounding_box()["width"] <= 1
    cut = page.evaluate("""() => [...document.querySelectorAll('.tbar__facts .badge')]
        .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent.trim())""")
    assert cut == [], cut
    page.screenshot(path=str(shots / "tighter-1280.png"))
    assert not page.errors


def test_the_open_double_badge_stays_whole_the_pace_badge_gives_way(new_context, tmp_path, shots):
    """German at 1280 px against computers, an open double to satisfy: "1 offener Doppelstein"
    read "1 offener Dop…" beside a whole "Computertempo: Normal". The pace (also in the
    table's menu) gives way first; the open double, a duty of the game (R19), stays whole."""
    st = S.with_open_double(4)
    seats = S.seats(4, {1: "computer", 2: "computer", 3: "computer"})
    flags = Flags(
        match_id=1,
        version=5,
        undo=True,
        redo=True,
        restart=True,
        may_pace=True,
        undo_text="Undo your 6-4 and 3 computer moves",
    )
    page = open_page(
        new_context,
        write(tmp_path, "doubles-de", view(st, st.turn), seats, flags=flags, lang="de"),
        viewport={"width": 1280, "height": 800},
    )
    page.evaluate("() => window.dispatchEvent(new Event('resize'))")
    page.wait_for_timeout(100)
    doubles = page.locator(".badge--doubles")
    assert doubles.is_visible()
    pace = page.locator(".badge--pace")
    # The pace gives way: shown whole, or not at all (it is in the table's menu), never cut.
    assert not pace.is_visible() or pace.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    assert doubles.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), doubles.inner_text()
    facts = page.locator(".tbar__facts")
    right = doubles.evaluate("e => e.getBoundingClientRect().right")
    assert (
        right <= facts.evaluate("e => e.getBoundingClientRect().right") + 1
    )  # not clipped by the facts' end
    page.screenshot(path=str(shots / "doubles-de-1280.png"))
    assert not page.errors


def test_the_more_menu_closes_with_escape_and_a_click_outside(new_context, first_turn):
    """The table's "More" menu (a <details>) closed only on its own summary: Escape left it
    open over the board, focus inside it. Now Escape closes it and gives the focus back to
    its summary; a click outside closes it too."""
    _st, url = first_turn
    page = open_page(new_context, url)
    menu = page.locator("details.tmenu")
    summary = menu.locator("summary")
    summary.click()
    assert menu.evaluate("d => d.open")
    page.keyboard.press("Tab")
    assert menu.evaluate("d => d.contains(document.activeElement)")
    page.keyboard.press("Escape")
    assert not menu.evaluate("d => d.open")
    assert summary.evaluate("s => s === document.activeElement")
    summary.click()
    assert menu.evaluate("d => d.open")
    page.locator(".hand__title, .hand h2, #hand").first.click(position={"x": 2, "y": 2})
    assert not menu.evaluate("d => d.open")
    assert not page.errors


def test_flash_messages_float_close_by_keyboard_and_fade_without_moving_the_board(
    new_context, first_turn, shots
):
    """'Match N has started' (django messages, templates/base.html) neither stays nor pushes
    the board: it floats, has a keyboard-reachable close button, and fades by itself."""
    _st, url = first_turn
    path = Path(url.removeprefix("file://"))
    html = path.read_text()
    main = '<main id="main" class="page" tabindex="-1">'
    assert main in html
    path.write_text(
        html.replace(
            main,
            main + '<ul class="messages" role="status">'
            '<li class="message message--success">Match 1 has started.</li>'
            '<li class="message message--error">Something is wrong.</li></ul>',
        )
    )
    page = open_page(new_context, url, clock=True)
    top = page.locator(".tbar").bounding_box()["y"]
    ok, bad = page.locator(".message--success"), page.locator(".message--error")
    assert ok.is_visible() and bad.is_visible()
    page.screenshot(path=str(shots / "messages-1280.png"))
    bad.locator(".message__close").focus()
    assert bad.locator(".message__close").get_attribute("aria-label") == "Close this message"
    page.keyboard.press("Enter")
    bad.wait_for(state="detached", timeout=2000)
    # Information fades by itself after a few seconds (static/js/messages.js LINGER, 6 s):
    # the page's clock is moved on past them, not waited for.
    page.clock.fast_forward(7000)
    ok.wait_for(state="detached", timeout=2000)
    assert page.locator(".tbar").bounding_box()["y"] == top  # nothing moved
    assert not page.errors
