"""Every layout at every width: the table (chat closed and open, a player's and a spectator's),
the round's and the match's end, the replay and the site's pages, at 1280, 1024, 768 and
375 px wide, in English, Spanish and German, with names as long as the site allows at the
table. On each page nothing may be clipped or overlap: no train's newest tile or open end
cut at its row's edge, no control over another or under something, no control's icon squeezed,
no word cut (clipped in its box, or split over two lines), nothing wider than the window. A name too long for its
place may end in "…" (the whole name is its title); nothing else may. Each page is loaded
once per language and looked at as its window is narrowed from the widest width to the
narrowest (what the person does at a width to come to a state, such as opening the chat,
done again there).
Each page found wrong is left as a screenshot, its problems to be found on it:
test-artifacts/screenshots/walk-<width>-<lang>-<page>.png (a screenshot of every page, 252
of them, took about a quarter of the walk's time)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from accounts import names
from games import services
from games.reads import selectors
from games.services import SeatSpec
from tests import seeded
from tests.games.history.fabricate import finished_match
from tests.games.matches import play

from .table import Table, resize
from .test_room import open_chat, train_problems

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

HEIGHTS = {1280: 800, 1024: 768, 768: 1024, 375: 667}
WIDTHS = tuple(HEIGHTS)
LANGS = ("en", "es", "de")


def longest(stem: str) -> str:
    """A name as long as a new account's may be, of wide letters."""
    return (stem * names.NAME_MAX)[: names.NAME_MAX]


#: what is wrong with the page's layout, as sentences a reader can find on the screenshot
LAYOUT = r"""() => {
  const problems = [];
  const W = window.innerWidth, H = window.innerHeight;
  const label = (el) => {
    const text = (el.innerText || el.getAttribute('aria-label') || '').replace(/\s+/g, ' ').trim().slice(0, 40);
    return `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${String(el.className.baseVal ?? el.className).split(' ').filter(Boolean).slice(0, 2).join('.')} "${text}"`;
  };
  const hidden = (el) => {
    // (a closed <details>' content keeps its boxes, unpainted: checkVisibility knows)
    if (!el.checkVisibility({contentVisibilityAuto: true, opacityProperty: true, visibilityProperty: true})) return true;
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.visibility === 'hidden' || s.display === 'none' || parseFloat(s.opacity) === 0) return true;
      if (s.clip === 'rect(0px, 0px, 0px, 0px)' || e.classList.contains('visually-hidden')) return true;
      if (e.tagName === 'DIALOG' && !e.open) return true;
    }
    return !el.getClientRects().length;
  };
  // Nothing wider than the window.
  if (document.documentElement.scrollWidth > W + 1)
    problems.push(`the page is ${document.documentElement.scrollWidth} px wide in a ${W} px window`);

  // Words: a box that clips its own words (an ellipsis only for a name), a word over two lines.
  const named = (el) => !!el.closest('.pname, [data-name], .seat__name, .result__name, .stable__name');
  const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let node = texts.nextNode(); node; node = texts.nextNode()) {
    const el = node.parentElement;
    if (!node.data.trim() || !el || hidden(el) || el.closest('svg, script, style, textarea, .train__line, .hand')) continue;
    // the nearest box that clips this text
    for (let box = el; box && box !== document.body; box = box.parentElement) {
      const s = getComputedStyle(box);
      if (s.overflowX === 'visible' && s.textOverflow !== 'ellipsis') continue;
      if (s.overflowX === 'auto' || s.overflowX === 'scroll') break;  // it scrolls: nothing is lost
      if (box.scrollWidth > box.clientWidth + 1 && !seen.has(box)) {
        seen.add(box);
        if (!(s.textOverflow === 'ellipsis' && named(el)))
          problems.push(`words cut in ${label(box)} (${box.scrollWidth} px of words in ${box.clientWidth} px)`);
        else if (box.clientWidth < 40)
          problems.push(`a name shrunk to ${box.clientWidth} px in ${label(box)}`);
      }
      break;
    }
    const hyphenated = getComputedStyle(el).hyphens === 'auto';
    // (a word of letters may break after its hyphen, "Doppel-|Zwölf"; a tile's name, "12-|11", may not)
    const re = /[^\s-]*\p{L}[^\s-]*-?|\S{2,}/gu;
    for (let m = re.exec(node.data); m; m = re.exec(node.data)) {
      if (m[0].length < 2) continue;
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0.5).map((r) => Math.round(r.top)));
      if (lines.size > 1 && !hyphenated && !named(el))
        problems.push(`"${m[0]}" split over ${lines.size} lines in ${label(el)}`);
    }
  }

  // Controls: none outside the window's width, none over another, none under something else.
  const controls = [...document.querySelectorAll(
      'a[href], button, summary, input:not([type=hidden]), select, textarea, [role=button], [tabindex="0"]')]
    .filter((el) => !hidden(el) && !el.closest('.hand, .train__line') && el.getBoundingClientRect().width > 0);
  const boxes = controls.map((el) => el.getBoundingClientRect());
  const modal = document.querySelector('dialog[open]');
  // the chat, opened by the person, lies over the page where it is not docked beside it
  const chat = document.getElementById('chat-panel');
  const overChat = chat && chat.checkVisibility() && parseFloat(getComputedStyle(document.body).paddingRight) < 1;
  // ... and so does a menu opened by the person (an open <details>' content laid over the page)
  const popups = [...document.querySelectorAll('details[open] > :not(summary)')]
    .filter((e) => ['absolute', 'fixed'].includes(getComputedStyle(e).position));
  const layer = (e) => popups.find((p) => p.contains(e)) || (overChat && chat.contains(e) ? chat : null);
  const otherLayers = (a, b) => layer(a) !== layer(b);
  const under = (el) => {
    const r = el.getBoundingClientRect(), cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    if (cx < 0 || cx > W || cy < 0 || cy > H) return null;
    const hit = document.elementFromPoint(cx, cy);
    if (!hit || el.contains(hit) || hit.contains(el) || (el.labels && [...el.labels].some((l) => l.contains(hit)))) return null;
    return hit;
  };
  controls.forEach((el, i) => {
    const r = boxes[i];
    if (r.left < -1 || r.right > W + 1) problems.push(`${label(el)} runs off the window (${Math.round(r.left)}–${Math.round(r.right)})`);
    // a control's icon (a square drawing) keeps its shape (a crowded bar squeezed the chat
    // button's to a sliver)
    for (const icon of el.querySelectorAll('svg[viewBox]')) {
      const b = icon.getBoundingClientRect(), v = icon.viewBox.baseVal;
      if (v.width !== v.height || hidden(icon) || !b.height) continue;
      if (b.width < b.height - 1)
        problems.push(`the icon of ${label(el)} squeezed to ${Math.round(b.width)} × ${Math.round(b.height)} px`);
    }
    for (let j = i + 1; j < controls.length; j++) {
      const o = boxes[j], other = controls[j];
      if (el.contains(other) || other.contains(el) || otherLayers(el, other)) continue;
      const x = Math.min(r.right, o.right) - Math.max(r.left, o.left), y = Math.min(r.bottom, o.bottom) - Math.max(r.top, o.top);
      if (x > 2 && y > 2) problems.push(`${label(el)} overlaps ${label(other)}`);
    }
  });
  // ... and each can be brought into view uncovered (a bar that stays in place may lie over
  // what scrolls under it, if scrolling brings that out)
  controls.forEach((el) => {
    if (modal && !modal.contains(el)) return;
    let hit = under(el);
    const opened = (h) => h && layer(h) && layer(h) !== layer(el);  // under what the person opened
    if (opened(hit)) return;
    if (hit) {
      el.scrollIntoView({block: 'center', inline: 'nearest'});
      hit = under(el);
      window.scrollTo(0, 0);
    }
    if (hit && !opened(hit)) problems.push(`${label(el)} lies under ${label(hit)}`);
  });
  return problems;
}"""


#: waits until every animation and transition that ends has ended (what is measured is where
#: things come to rest; a breathing hint, which never ends, is measured where it is)
SETTLED = """() => Promise.all(document.getAnimations()
  .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
  .map((a) => a.finished.catch(() => null))).then(() => true)"""


class Walk:
    """One language: pages looked at, each at every width, their problems gathered (all of
    them, for one report). A page is loaded once and the window resized under it, as a
    person turns a tablet or narrows a window: the site must fit each width it comes to
    (its scripts place the chat, the tips and the top bar's tools on a resize)."""

    def __init__(self, lang: str, shots: Path) -> None:
        self.lang = lang
        self.shots = shots
        self.problems: list[str] = []

    def look(
        self,
        page: Any,
        where: str,
        *,
        trains: Callable[[int], bool] = lambda width: False,
        again: Callable[[Any], None] | None = None,
    ) -> None:
        """`where` at every width: the window resized, then `again` (what the person does at
        that width to come to this state, such as opening the chat), then measured."""
        page.wait_for_load_state("load")
        page.evaluate("document.fonts.ready")
        for width in WIDTHS:
            resize(page, {"width": width, "height": HEIGHTS[width]})
            if again is not None:
                again(page)
            page.evaluate(SETTLED)
            found = page.evaluate(LAYOUT) + (train_problems(page) if trains(width) else [])
            if found:
                page.screenshot(path=str(self.shots / f"walk-{width}-{self.lang}-{where}.png"))
            self.problems += [f"{width} px, {self.lang}-{where}: {p}" for p in found]


def people_far_into_a_round(make_user: Any) -> tuple[list[Any], Any]:
    """Four people with the longest names (nothing moves while pages are looked at), 90 moves
    into round 1: long trains, some older tiles folded."""
    users = [
        make_user(longest(stem))
        for stem in ("Wilhelmina", "Maximiliano", "Konstanze", "Bartholomäus")
    ]
    match = seeded.match_create(
        creator=users[0], seed=7, seats=[SeatSpec("me")] + [SeatSpec("human")] * 3
    )
    for user in users[1:]:
        services.seat_join(match_id=match.pk, user=user, token=match.invite_token)
    return users, play(match, 90)


def reopen_chat(page: Any) -> None:
    """The chat opened at this width (opening it on a phone scrolls the trains under it)."""
    if page.locator("#chat-panel").is_visible():  # closed by its own button, its list first
        if page.eval_on_selector(".chat__phrases", "e => e.open"):
            page.click(".chat__phrases > summary")
        page.click("#chat-panel [data-chat-close]")
        page.locator("#chat-panel").wait_for(state="hidden")
    open_chat(page)


def phrases_in_reach(walk: Walk) -> Callable[[Any], None]:
    """The chat opened at this width and its ready phrases opened: their list opens inside
    the window (it scrolls), every one in reach."""

    def again(page: Any) -> None:
        reopen_chat(page)
        page.click(".chat__phrases > summary")
        page.locator(".chat__phrase").first.wait_for()
        box = page.eval_on_selector(
            "#chat-phrases",
            "e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }",
        )
        width, height = page.viewport_size["width"], page.viewport_size["height"]
        if box[0] < 0 or box[1] < 0 or box[2] > width or box[3] > height:
            walk.problems.append(f"{width} px, {walk.lang}-table-phrases: the list lies at {box}")

    return again


def wide(width: int) -> bool:
    """Wide enough for the trains to show beside the open chat."""
    return width > 768


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_at_every_width(
    lang: str,
    live: str,
    make_user: Any,
    context_for: Any,
    new_context: Any,
    shots: Path,
) -> None:
    users, match = people_far_into_a_round(make_user)
    ana, turn = users[0], selectors.match_state(match).turn
    assert turn is not None and turn != 0
    over = finished_match([ana, users[1], "expert", "casual"], seed=99)
    walk = Walk(lang, shots)
    first = {"width": WIDTHS[0], "height": HEIGHTS[WIDTHS[0]]}
    context = context_for(ana, lang=lang, viewport=first)
    page = context.new_page()
    table = Table(page).open(f"{live}/m/{match.pk}/")
    page.locator("#chat-toggle").wait_for(state="visible")  # (shown when the chat is on)
    walk.look(page, "table", trains=lambda width: True)
    walk.look(page, "table-chat", trains=wide, again=reopen_chat)
    walk.look(page, "table-phrases", again=phrases_in_reach(walk))
    table.assert_no_errors()
    page.close()

    # The same table as the player whose turn it is ("Your turn", the tools lit), chat open.
    page = context_for(users[turn], lang=lang, viewport=first).new_page()
    table = Table(page).open(f"{live}/m/{match.pk}/")
    table.wait("b.dataset.yourTurn === 'true'")
    walk.look(page, "table-your-turn", trains=wide, again=reopen_chat)
    table.assert_no_errors()
    page.close()

    page = context.new_page()
    table = Table(page).open(f"{live}/m/{over.pk}/")
    table.wait("b.dataset.phase === 'match_over'")
    page.locator(".result--match svg.chart").wait_for()
    walk.look(page, "match-end")
    page.close()

    page = context.new_page()
    for where, path in (
        ("replay", f"/m/{over.pk}/replay/"),
        ("replay-step", f"/m/{over.pk}/replay/?round=13&step=20"),
        ("home", "/"),
        ("lobby", "/lobby/"),
        ("new-match", "/lobby/new/"),
        ("my-matches", "/matches/"),
        ("match-about", f"/m/{match.pk}/about/"),
        ("how-to-play", "/how-to-play/"),
        ("rules", "/rules/"),
        ("players", "/players/"),
        ("player", f"/players/{ana.username}/"),
        ("email", "/accounts/email/"),
        ("turn-mail", "/account/turn-mail/"),
    ):
        page.goto(f"{live}{path}")
        walk.look(page, where)
    context.close()

    # Someone not signed in: the spectator's table, signing up and in.
    stranger = new_context(viewport=first)
    stranger.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": live}])
    page = stranger.new_page()
    Table(page).open(f"{live}/m/{match.pk}/watch/{match.watch_token}/")
    page.locator("#chat-toggle").wait_for(state="visible")
    walk.look(page, "spectator", trains=lambda width: True)
    for where, path in (("sign-up", "/accounts/signup/"), ("sign-in", "/accounts/login/")):
        page.goto(f"{live}{path}")
        walk.look(page, where)
    stranger.close()
    assert not walk.problems, "\n".join(walk.problems)
