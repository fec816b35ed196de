"""The site's pages for people, in Chromium at 1280 x 800 and 375 x 667 in English,
Spanish and German, signed in with a 20-character account name of wide letters, who has played
finished matches with other long-named players and against computers (so the player page has
its "By opponents" and "Match history" rows, the leaderboard its rows, the replay its totals):
no page scrolls sideways, no number is cut by a name, every name is the one name element
(ellipsis, whole name in its title) and only a long one gives way, the site's header is one row at 1280 px, and on the phone
every inline link is a tap target at least 24 px tall. One browser page walks every page in
every language, the window resized under each page. A page found wrong is left as a screenshot, its problems to be found on it:
test-artifacts/screenshots/people-pages-<size>-<lang>-<page>.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from games import services
from games.services import SeatSpec
from tests import seeded
from tests.browser.table import resize
from tests.games.history.fabricate import finished_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.slow]

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 375, "height": 667}}
#: twenty characters, the widest letters: the account signed in
LONG = "WWWWWWWWWWWWWWWWWWWW"
OTHERS = ("Maximiliano_Ferreira", "Anneliese-Schwarzkop")

#: text with a digit that its box or a clipping box around it cuts (names excepted)
CUT_NUMBERS = """() => {
  const bad = [];
  const clips = v => v === 'hidden' || v === 'clip';
  for (const el of document.querySelectorAll('main *')) {
    if (el.closest('.pname, .visually-hidden, [hidden], svg')) continue;
    const own = [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('');
    if (!/\\d/.test(own)) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    if (clips(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1) bad.push(own.trim());
    for (let a = el.parentElement; a && a.tagName !== 'MAIN'; a = a.parentElement) {
      if (!clips(getComputedStyle(a).overflowX)) continue;
      const ar = a.getBoundingClientRect();
      if (r.left < ar.left - 1 || r.right > ar.right + 1) bad.push(own.trim());
    }
  }
  return bad;
}"""
SMALL_LINKS = """() => [...document.querySelectorAll('main a')].filter(a => {
  if (a.closest('.btn, .tool, nav') || a.classList.contains('btn') || !a.offsetParent) return false;
  if (getComputedStyle(a).display !== 'inline') return false;
  const r = a.getBoundingClientRect();
  return r.width > 0 && r.height < 24;
}).map(a => [a.innerText, a.getBoundingClientRect().height])"""
#: names of a dozen letters or fewer that end in an ellipsis: only a long name gives way
#: (a computer's "Computer 4" beside its level goes whole, its level to the next line).
#: Not in a phone's one-row board bar, where whose turn it is shows its name cut first.
SHORT_NAMES_CUT = """() => [...document.querySelectorAll('main .pname')]
  .filter(e => !e.closest('.tbar') && e.textContent.length <= 12 && e.getBoundingClientRect().width > 0
    && e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"""
#: boxes something sticks out of (a name wider than its card)
SPILLS = """() => [...document.querySelectorAll('main .card, main .seat-card, main .seat-list li')]
  .filter(e => e.getBoundingClientRect().width > 0 && e.scrollWidth > e.clientWidth + 1)
  .map(e => e.className + ': ' + e.innerText.slice(0, 40))"""
#: the tops of the header's items that show: one row when they are all level
HEADER_TOPS = """() => [...document.querySelectorAll(
  '.topbar .brand, .topbar .mainnav a, .topbar .langswitch__btn, .topbar .usermenu summary')]
  .filter(e => e.getBoundingClientRect().width > 0)
  .map(e => Math.round(e.getBoundingClientRect().top))"""


def test_pages_with_long_names(live_server: Any, new_context: Any, artifacts_dir: Path) -> None:
    users = get_user_model().objects
    me = users.create_user(LONG, email="w@example.com")
    others = [users.create_user(n) for n in OTHERS]
    match = seeded.match_create(
        creator=me,
        seats=[
            SeatSpec("me"),
            SeatSpec("human"),
            SeatSpec("human"),
            SeatSpec("computer", level="expert"),
        ],
        seed=7,
    )
    for user in others:
        services.seat_join(match_id=match.pk, user=user)
    # and an open table in the lobby, made by a long-named player
    waiting = seeded.match_create(
        creator=others[0], seats=[SeatSpec("me"), SeatSpec("human")], seed=8
    )
    # finished matches: the player page's history and by-opponents rows, the leaderboard's rows
    done = finished_match([me, *others, "casual"], seed=11)
    finished_match([me, "expert"], seed=12)
    client = Client()
    client.force_login(me)
    shots = artifacts_dir / "screenshots"
    shots.mkdir(exist_ok=True)
    pages = [
        "/",
        "/lobby/",
        "/matches/",
        f"/m/{match.pk}/about/",
        f"/m/{waiting.pk}/join/{waiting.invite_token}/",
        f"/m/{done.pk}/about/",
        f"/m/{done.pk}/replay/",
        "/rules/",
        "/how-to-play/",
        "/players/",
        f"/players/{LONG}/",
        f"/players/{OTHERS[0]}/",
        "/accounts/email/",
        "/accounts/password/",
        "/account/turn-mail/",
    ]
    problems: dict[str, Any] = {}
    context = new_context(viewport=SIZES["desktop"])
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )
    page = context.new_page()
    for lang in ("en", "es", "de"):
        context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": live_server.url}]
        )
        for path in pages:
            response = page.goto(live_server.url + path)
            assert response is not None and response.status == 200, path
            name = path.strip("/").replace("/", "-") or "home"
            # The page loaded once, the window resized under it: what each size shows.
            for size, viewport in SIZES.items():
                resize(page, viewport)
                found = page_problems(page, size)
                if found:
                    problems[f"{size} {lang} {path}"] = found
                    page.screenshot(
                        path=str(shots / f"people-pages-{size}-{lang}-{name}.png"), full_page=True
                    )
    assert problems == {}, problems


def page_problems(page: Any, size: str) -> list[Any]:
    """What is wrong with the page at `size`: a sideways scroll, a number cut, a name that is
    not one whole-titled element or a short one cut, a box something spills out of; the
    desktop's header on more than one row, a phone's inline link under 24 px."""
    found: list[Any] = []
    width = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
    if width[0] > width[1]:
        found.append(("scrolls sideways", width))
    cut = page.evaluate(CUT_NUMBERS)
    if cut:
        found.append(("numbers cut", cut))
    names = page.eval_on_selector_all(".pname", "els => els.map(e => [e.title, e.textContent])")
    if not all(title == text for title, text in names):
        found.append(("names", names))
    if short_cut := page.evaluate(SHORT_NAMES_CUT):
        found.append(("short names cut", short_cut))
    if spills := page.evaluate(SPILLS):
        found.append(("spills out of its box", spills))
    if size == "desktop":
        tops = page.evaluate(HEADER_TOPS)
        if max(tops) - min(tops) > 4:
            found.append(("header wraps", tops))
    elif small := page.evaluate(SMALL_LINKS):
        found.append(("small links", small))
    return found
