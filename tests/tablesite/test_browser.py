"""The site's pages in a real browser (Debian's Chromium via Playwright)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import DESKTOP, PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_sign_up_and_switch_language_in_the_browser(
    live_server: Any, new_context: Any, artifacts_dir: Path
) -> None:
    page = new_context(viewport=DESKTOP).new_page()
    page.goto(live_server.url + "/")
    assert page.locator("h1").inner_text() == "Welcome to the Mexican Train table"
    page.screenshot(path=str(artifacts_dir / "site-home-desktop.png"), full_page=True)

    page.get_by_role("link", name="Sign up", exact=True).first.click()
    page.get_by_label("Username").fill("ana")
    page.locator('input[name="password1"]').fill("tile-12-12-engine")
    page.get_by_label("Password confirmation").fill("tile-12-12-engine")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(live_server.url + "/")
    assert page.locator("h1").inner_text() == "Welcome, ana!"

    page.get_by_role("button", name="Deutsch").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.locator("h1").inner_text() == "Willkommen zurück, ana!"

    # Keyboard: the focused control is outlined.
    page.keyboard.press("Tab")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("", "none")


def _layout_problems(page: Any) -> list[str]:
    """What breaks the small-screen rules on the current page."""
    problems: list[str] = []
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > PHONE["width"]:
        problems.append(f"page is {width}px wide")
    small = page.evaluate(
        """() => [...document.querySelectorAll('a.btn, button, summary, input, .mainnav a')]
             .filter(el => el.offsetParent !== null)
             .map(el => [el.textContent.trim() || el.name, Math.round(el.getBoundingClientRect().height)])
             .filter(([, h]) => h < 40)"""
    )
    if small:
        problems.append(f"tap targets under 40px: {small}")
    font_px = page.evaluate(
        """() => Math.min(...[...document.querySelectorAll('body *')]
             .filter(el => el.offsetParent !== null
                     && [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
             .map(el => parseFloat(getComputedStyle(el).fontSize)))"""
    )
    if font_px < 14:
        problems.append(f"text at {font_px}px")
    clipped = page.evaluate(
        """() => [...document.querySelectorAll('.topbar a, .topbar button, .topbar summary')]
             .filter(el => el.offsetParent !== null)
             .filter(el => { const r = el.getBoundingClientRect(); return r.left < 0 || r.right > window.innerWidth; })
             .map(el => el.textContent.trim())"""
    )
    if clipped:
        problems.append(f"top bar controls off screen: {clipped}")
    return problems


@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_phone_width_layout(
    lang: str, live_server: Any, new_context: Any, artifacts_dir: Path
) -> None:
    """375px wide: no sideways scrolling, tap targets >= 40px, text >= 14px,
    signed out and signed in."""
    context = new_context(viewport=PHONE)
    context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page = context.new_page()
    for path in ("/", "/accounts/login/", "/accounts/signup/"):
        page.goto(live_server.url + path)
        assert _layout_problems(page) == [], path
    page.goto(live_server.url + "/")
    page.screenshot(path=str(artifacts_dir / f"site-home-phone-{lang}.png"), full_page=True)

    page.goto(live_server.url + "/accounts/signup/")
    page.locator('input[name="username"]').fill("bartholomew-the-long-named")
    page.locator('input[name="password1"]').fill("tile-12-12-engine")
    page.locator('input[name="password2"]').fill("tile-12-12-engine")
    page.locator('form[action="/accounts/signup/"] button[type="submit"]').click()
    page.wait_for_url(live_server.url + "/")
    assert _layout_problems(page) == [], "home, signed in"
    # The top bar is one row of at most 56px; the site's menu is behind one button.
    assert page.evaluate("document.querySelector('.topbar').getBoundingClientRect().height") <= 56
    menu = page.locator(".menubtn")
    assert (
        menu.get_attribute("aria-expanded") == "false" and not page.locator(".mainnav").is_visible()
    )
    menu.focus()
    page.keyboard.press("Enter")
    assert menu.get_attribute("aria-expanded") == "true" and page.locator(".mainnav").is_visible()
    assert _layout_problems(page) == [], "menu open"
    page.keyboard.press("Escape")
    assert (
        menu.get_attribute("aria-expanded") == "false" and not page.locator(".mainnav").is_visible()
    )
    assert page.evaluate("document.activeElement.classList.contains('menubtn')")
    menu.click()
    page.locator(".usermenu summary").click()
    page.screenshot(
        path=str(artifacts_dir / f"site-home-phone-{lang}-signed-in.png"), full_page=True
    )


@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_the_top_bar_keeps_one_row_at_1280_px_signed_in(
    lang: str, live_server: Any, new_context: Any, artifacts_dir: Path
) -> None:
    """Signed in as a guest-like 14-character name, the bar holds the brand, four links,
    the languages and the account menu: at 1280 px it stays one row (it wrapped the account
    menu to a second row in every language). The languages then show their codes; their
    full names stay their accessible names."""
    context = new_context(viewport=DESKTOP)
    context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page = context.new_page()
    page.goto(live_server.url + "/accounts/signup/")
    page.locator('input[name="username"]').fill("WittyMarten371")
    page.locator('input[name="password1"]').fill("tile-12-12-engine")
    page.locator('input[name="password2"]').fill("tile-12-12-engine")
    page.locator('form[action="/accounts/signup/"] button[type="submit"]').click()
    page.wait_for_url(live_server.url + "/")
    page.goto(live_server.url + "/lobby/")
    tops = page.evaluate("""() => [...document.querySelectorAll(
        '.topbar .brand, .topbar .mainnav a, .topbar .langswitch__btn, .topbar .usermenu summary')]
        .map(e => Math.round(e.getBoundingClientRect().top))""")
    assert len(tops) >= 8 and max(tops) - min(tops) <= 4, tops
    assert page.get_by_role("button", name="Deutsch", exact=True).is_visible()
    # The account menu closes with Escape (focus back on it) and with a click outside.
    menu = page.locator("details.usermenu")
    menu.locator("summary").click()
    page.keyboard.press("Tab")
    page.keyboard.press("Escape")
    assert not menu.evaluate("d => d.open") and menu.locator("summary").evaluate(
        "s => s === document.activeElement"
    )
    menu.locator("summary").click()
    page.locator("h1").click()
    assert not menu.evaluate("d => d.open")
    page.screenshot(path=str(artifacts_dir / f"site-topbar-1280-{lang}-signed-in.png"))


def test_the_rules_page_keys_stay_on_one_line(live_server: Any, new_context: Any) -> None:
    """The keyboard list under the rules: "Shift + ← →" broke over two lines, its box cut in two."""
    page = new_context(viewport=DESKTOP).new_page()
    page.goto(live_server.url + "/rules/")
    rows = page.evaluate("""() => [...document.querySelectorAll('.rules__key kbd')].map(k => {
        const r = k.getClientRects(); return [k.textContent, r.length]; })""")
    assert rows and all(n == 1 for _, n in rows), rows
