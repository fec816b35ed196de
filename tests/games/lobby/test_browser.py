"""The lobby pages in Debian's Chromium: the create form by keyboard alone, and every page at 375 px."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Match, Seat
from tests.conftest import PHONE
from tests.games.matches import create
from tests.tablesite.test_browser import _layout_problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def signed_in_context(new_context: Any, live_server: Any, username: str, **options: Any) -> Any:
    user = get_user_model().objects.create_user(username)
    client = Client()
    client.force_login(user)
    context = new_context(**options)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    context.user = user
    return context


def test_create_a_match_with_the_keyboard_alone_on_a_phone(
    live_server: Any, new_context: Any, artifacts_dir: Path
) -> None:
    context = signed_in_context(new_context, live_server, "ana", viewport=PHONE)
    page = context.new_page()
    page.goto(live_server.url + "/lobby/new/")
    assert _layout_problems(page) == []
    page.screenshot(path=str(artifacts_dir / "site-games-create-phone.png"), full_page=True)

    # Seat 2: a pass-and-play seat named Ben; seat 3: an expert computer; all by keyboard.
    # Each seat is a group of radio buttons: Tab enters it at the checked one, arrows choose.
    page.focus('input[name="seat_2_kind"]:checked')
    assert page.evaluate("document.activeElement.value") == "casual"  # the default opponent
    page.keyboard.press("ArrowUp")  # casual computer -> beginner computer
    page.keyboard.press("ArrowUp")  # -> pass-and-play
    assert (
        page.evaluate("document.querySelector('input[name=\"seat_2_kind\"]:checked').value")
        == "local"
    )
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.name") == "seat_2_name"
    page.keyboard.type("Ben")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.name") == "seat_3_kind"
    for _step in range(5):  # empty -> person -> pass-and-play -> beginner -> casual -> expert
        page.keyboard.press("ArrowDown")
    assert (
        page.evaluate("document.querySelector('input[name=\"seat_3_kind\"]:checked').value")
        == "expert"
    )
    # On to the seed, in the "Advanced" fold: opened with Enter on its summary. On the way, the
    # match length (R31): six steps down from the standard 13 rounds is 7 rounds from 6-6.
    for _step in range(40):
        if page.evaluate("document.activeElement.name") == "seed":
            break
        if page.evaluate("document.activeElement.name") == "length":
            for _down in range(6):
                page.keyboard.press("ArrowDown")
            assert page.evaluate("document.querySelector('select[name=\"length\"]').value") == "7"
        if page.evaluate(
            "document.activeElement.closest('details.advanced') !== null"
            " && document.activeElement.tagName === 'SUMMARY'"
        ):
            page.keyboard.press("Enter")
        page.keyboard.press("Tab")
    page.keyboard.type("77")
    page.keyboard.press("Enter")  # submits the form
    page.wait_for_url(f"{live_server.url}/m/*/")

    match = Match.objects.get()
    assert (match.seed, match.length) == (77, 7)
    assert [(s.kind, s.name, s.level) for s in match.seats.order_by("index")] == [
        (Seat.Kind.HUMAN, "", ""),
        (Seat.Kind.LOCAL, "Ben", ""),
        (Seat.Kind.COMPUTER, "", "expert"),
    ]


def test_errors_are_announced_and_the_folded_seats_open(live_server: Any, new_context: Any) -> None:
    page = signed_in_context(new_context, live_server, "ana", viewport=PHONE).new_page()
    page.goto(live_server.url + "/lobby/new/")
    page.locator("summary", has_text="More seats").click()
    page.check('input[name="seat_2_kind"][value=""]')
    page.check('input[name="seat_7_kind"][value="local"]')
    page.get_by_role("button", name="Create the match").click()
    page.wait_for_load_state()
    assert page.locator("details.more-seats").get_attribute("open") is not None
    assert "A pass-and-play seat needs a name" in page.locator(".seat-card--error").inner_text()
    assert page.locator("#id_seat_7_name").get_attribute("aria-invalid") == "true"
    assert not Match.objects.exists()


#: what the create form's seat cards look like: each name field's room for its placeholder,
#: Seat 1's border against the other cards', and where each card's top border is
SEAT_CARDS = """() => {
  const room = Array.from(document.querySelectorAll('.seat-card input[type=text]'))
    .filter(i => i.offsetParent !== null).map(i => {
      const s = getComputedStyle(i), p = getComputedStyle(i, '::placeholder');
      const c = document.createElement('canvas').getContext('2d');
      c.font = p.fontWeight + ' ' + p.fontSize + ' ' + p.fontFamily;
      return i.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)
             - c.measureText(i.placeholder).width; });
  const cards = Array.from(document.querySelectorAll('.seat-cards')[0].children);
  const tops = cards.map(c => Math.round(c.getBoundingClientRect().top + parseFloat(getComputedStyle(c).borderTopWidth)));
  const border = c => getComputedStyle(c).borderTopColor;
  return {room: room, me: border(cards[0]), other: border(cards[1]),
          firstRow: tops.filter(t => Math.abs(t - tops[0]) < 40)};
}"""


@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_the_seat_cards_show_whole_placeholders_and_seat_1_is_not_red(
    lang: str, live_server: Any, new_context: Any, artifacts_dir: Path
) -> None:
    """Seat 1's card had the accent (train red) border of a refused field, its top out of line
    with the other cards, and the name fields cut their placeholder short."""
    for viewport in ({"width": 1280, "height": 900}, PHONE):
        context = signed_in_context(
            new_context, live_server, f"ana{viewport['width']}", viewport=viewport
        )
        context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
        page = context.new_page()
        page.goto(live_server.url + "/lobby/new/")
        looks = page.evaluate(SEAT_CARDS)
        assert looks["room"] and min(looks["room"]) >= 0, (lang, viewport, looks["room"])
        assert looks["me"] == looks["other"], (lang, viewport, looks)
        assert len(set(looks["firstRow"])) == 1, (lang, viewport, looks["firstRow"])
        page.locator(".seat-rows").screenshot(
            path=str(artifacts_dir / f"site-games-seat-cards-{lang}-{viewport['width']}.png")
        )


@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_lobby_pages_fit_a_phone(
    lang: str, live_server: Any, new_context: Any, artifacts_dir: Path
) -> None:
    context = signed_in_context(new_context, live_server, "ana", viewport=PHONE)
    context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    ana = context.user
    waiting = create(
        ana, "human", "expert", "local", "casual", "casual", "casual", "casual", "casual", "casual"
    )
    create(ana, "casual", "local")
    guest = signed_in_context(new_context, live_server, "guest-with-a-long-name", viewport=PHONE)
    page = context.new_page()
    pages = {
        "lobby": "/lobby/",
        "matches": "/matches/",
        "detail": f"/m/{waiting.pk}/about/",
    }
    for name, url in pages.items():
        page.goto(live_server.url + url)
        assert page.locator("html").get_attribute("lang") == lang
        assert _layout_problems(page) == [], (name, lang)
        page.screenshot(
            path=str(artifacts_dir / f"site-games-{name}-{lang}-phone.png"), full_page=True
        )
    join = guest.new_page()
    join.goto(f"{live_server.url}/m/{waiting.pk}/join/{waiting.invite_token}/")
    assert _layout_problems(join) == []
    join.get_by_role("button").filter(has_text="2").first.click()
    join.wait_for_load_state()
    waiting.refresh_from_db()
    assert waiting.status == Match.Status.PLAYING


def test_admin_replay_steps_with_the_arrow_keys(
    live_server: Any, new_context: Any, artifacts_dir: Path
) -> None:
    """The admin's replay is the players' viewer (games/history/admin.py): an ended round (R24),
    stepped with ←/→/Home/End, the address following, the steps reachable by Tab too."""
    from tests.games.matches import play_rounds

    context = signed_in_context(new_context, live_server, "boss")
    boss = context.user
    boss.is_staff = boss.is_superuser = True
    boss.save()
    # round 1 has ended (the live server's own computer worker may take a computer's turn)
    match = play_rounds(create(boss, "casual", "local", seed=5), 2, beside_a_server=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/admin/games/match/{match.pk}/replay/?round=1&step=2")
    root = page.locator("#replay")
    last = int(root.get_attribute("data-last"))
    assert last > 3
    assert f"Step 2 of {last}" in page.locator("#replay-pos").inner_text()
    assert (
        page.locator("#replay-board .reveal").count() == 3
    )  # every hand of the ended round face up (R21)
    assert "The replay reproduces the stored state." in page.content()
    page.screenshot(path=str(artifacts_dir / "site-games-admin-replay.png"), full_page=True)

    def at(k: int) -> None:
        page.wait_for_function(f"() => document.getElementById('replay').dataset.step === '{k}'")
        page.wait_for_url(f"**/replay/?round=1&step={k}")

    page.keyboard.press("ArrowRight")
    at(3)
    assert f"Step 3 of {last}" in page.locator("#replay-pos").inner_text()
    page.keyboard.press("ArrowLeft")
    at(2)
    page.keyboard.press("End")
    at(last)
    page.keyboard.press("Home")
    at(0)
    # Tab reaches the step buttons too.
    page.get_by_role("button", name="Next step").focus()
    page.keyboard.press("Enter")
    at(1)


def test_the_join_page_leaves_room_between_the_seats_and_the_words_after_them(
    live_server: Any, new_context: Any, artifacts_dir: Path
) -> None:
    """A visitor's invitation page: the seats, then "Take the seat now and play as a guest…"
    (the paragraph sat flush against the seat list)."""
    ana = get_user_model().objects.create_user("ana")
    waiting = create(ana, "human", "local")
    page = new_context(viewport=PHONE).new_page()
    page.goto(f"{live_server.url}/m/{waiting.pk}/join/{waiting.invite_token}/")
    gap = page.evaluate("""() => { const list = document.querySelector('.seat-list');
        return list.nextElementSibling.getBoundingClientRect().top - list.getBoundingClientRect().bottom; }""")
    assert gap >= 8, gap
    page.screenshot(path=str(artifacts_dir / "site-games-join-visitor-phone.png"), full_page=True)
