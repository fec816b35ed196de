"""The site's pages for people (issue 19), in Chromium at 1280 x 800 and 375 x 667 in English,
Spanish and German, signed in as a player with a 20-character name who has a match with other
long-named players: no page scrolls sideways, no number is cut by a name, every name is the one
name element (ellipsis, whole name in its title), and on the phone every inline link is a tap
target at least 24 px tall. Screenshots: test-artifacts/screenshots/people-pages-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from games import services
from games.services import SeatSpec

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.slow]

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 375, "height": 667}}
LONG = "Maximiliano_Ferreira"  # twenty characters

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


@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_pages_with_long_names(
    lang: str, live_server: Any, new_context: Any, artifacts_dir: Path
) -> None:
    users = get_user_model().objects
    me = users.create_user(LONG)
    others = [users.create_user(n) for n in ("WWWWWWWWWWWWWWWWWWWW", "Anneliese-Schwarzkop")]
    match = services.match_create(
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
    services.match_create(creator=others[0], seats=[SeatSpec("me"), SeatSpec("human")], seed=8)
    client = Client()
    client.force_login(me)
    shots = artifacts_dir / "screenshots"
    shots.mkdir(exist_ok=True)
    pages = [
        "/",
        "/lobby/",
        "/matches/",
        f"/m/{match.pk}/about/",
        "/rules/",
        "/how-to-play/",
        "/players/",
        f"/players/{LONG}/",
    ]
    for size, viewport in SIZES.items():
        context = new_context(viewport=viewport)
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": live_server.url,
                },
                {"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": live_server.url},
            ]
        )
        page = context.new_page()
        for path in pages:
            response = page.goto(live_server.url + path)
            assert response is not None and response.status == 200, path
            name = path.strip("/").replace("/", "-") or "home"
            width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            if width[0] > width[1]:
                page.screenshot(
                    path=str(shots / f"people-pages-{size}-{lang}-{name}.png"), full_page=True
                )
            assert width[0] <= width[1], (size, path, width)
            assert page.evaluate(CUT_NUMBERS) == [], (size, path)
            names = page.eval_on_selector_all(
                ".pname", "els => els.map(e => [e.title, e.textContent])"
            )
            assert all(title == text for title, text in names), (path, names)
            if size == "phone":
                assert page.evaluate(SMALL_LINKS) == [], (path, lang)
        page.goto(live_server.url + "/lobby/")
        page.screenshot(path=str(shots / f"people-pages-{size}-{lang}-lobby.png"), full_page=True)
