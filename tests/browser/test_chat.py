"""Table talk in a real browser (games/chat, static/js/chat.js): a Spanish and a
German player read each other's phrases in their own language, free text stays text,
the unread count, keyboard use, and the chat open at 375x667 and 1280x800 with the hand
and the trains still in view and not covered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from games import services
from games.services import SeatSpec
from tests import seeded
from tests.i18n_helpers import english_leaks

from .table import Table

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 375, "height": 667}
DESKTOP = {"width": 1280, "height": 800}

#: whether the element at the middle of `selector`'s first match is inside it (nothing covers it),
#: and whether that middle is on the screen
UNCOVERED = """(selector) => {
  const el = document.querySelector(selector);
  if (!el) return "missing";
  const r = el.getBoundingClientRect();
  const x = r.left + Math.min(r.width / 2, 40), y = r.top + Math.min(r.height / 2, 20);
  if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return "off screen";
  const hit = document.elementFromPoint(x, y);
  return hit && el.contains(hit) ? "ok" : "covered by " + (hit ? hit.outerHTML.slice(0, 80) : "nothing");
}"""


def duo(ana: Any, ben: Any) -> Any:
    match = seeded.match_create(
        creator=ana,
        seed=7,
        seats=[SeatSpec("me"), SeatSpec("human"), SeatSpec("computer", level="casual")],
    )
    services.seat_join(match_id=match.pk, user=ben, token=match.invite_token)
    return match


def open_chat(page: Any) -> None:
    page.locator("#chat-toggle").wait_for(state="visible")
    page.click("#chat-toggle")
    page.locator("#chat-panel").wait_for(state="visible")


def test_a_spanish_and_a_german_player_talk_each_in_their_own_words(
    live: str, make_user: Any, context_for: Any, shots: Path
) -> None:
    ana, ben = make_user("ana"), make_user("ben")
    match = duo(ana, ben)
    es = context_for(ana, lang="es", viewport=DESKTOP).new_page()
    de = context_for(ben, lang="de", viewport=PHONE).new_page()
    tes, tde = Table(es), Table(de)
    tes.open(f"{live}/m/{match.pk}/")
    tde.open(f"{live}/m/{match.pk}/")

    def boards(table: Table) -> int:
        return sum(1 for _, m in table.received if m["type"] == "board")

    # Each page gets one whole board as it opens (the server's, as the socket opens; the page
    # asks for none): counted before talking.
    before = {tes: boards(tes), tde: boards(tde)}
    assert before == {tes: 1, tde: 1}
    open_chat(es)
    assert es.evaluate("() => document.activeElement.id") == "chat-title"
    es.locator(".chat__phrases summary").click()
    es.get_by_role("button", name="¡Buena jugada!").click()
    es.locator(".chat__line", has_text="¡Buena jugada!").wait_for()
    # Ben's chat is closed: the button counts the line; opened, he reads it in German.
    de.locator("#chat-unread", has_text="1").wait_for()
    open_chat(de)
    de.locator(".chat__line", has_text="Guter Zug!").wait_for()
    assert de.locator("#chat-unread").is_hidden()
    de.fill("#chat-text", "<img src=x onerror=alert(1)> https://example.com \u202eevil")
    de.press("#chat-text", "Enter")
    de.locator(
        "#chat-status", has_text="U+202E"
    ).wait_for()  # refused, in German words, nothing sent
    de.fill("#chat-text", "<b>hola</b> https://example.com")
    de.press("#chat-text", "Enter")
    line = es.locator(".chat__line .chat__text", has_text="<b>hola</b>")
    line.wait_for()
    assert line.evaluate("el => el.tagName") == "BDI" and line.locator("b, a").count() == 0
    assert de.locator("#chat-text").input_value() == ""
    # Escape closes the panel and gives the focus back to its button.
    de.keyboard.press("Escape")
    assert de.evaluate("() => document.activeElement.id") == "chat-toggle"
    de.keyboard.press("c")
    de.locator("#chat-panel").wait_for(state="visible")
    for table in (tes, tde):
        assert boards(table) == before[table]  # talking never brought a board
        assert not table.errors
    # The open panel (phrases, reactions, settings, notes) speaks the page's language only.
    es.locator(".chat__phrases summary").click()
    de.locator("#chat-settings summary").click()
    assert english_leaks(es.content(), "es") == [] and english_leaks(de.content(), "de") == []
    es.screenshot(path=str(shots / "chat-es-desktop-1280.png"))
    de.screenshot(path=str(shots / "chat-de-phone-375.png"))


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["375x667", "1280x800"])
def test_the_open_chat_leaves_the_hand_and_the_trains_in_view(
    viewport: dict[str, int], live: str, make_user: Any, context_for: Any, shots: Path
) -> None:
    ana, ben = make_user("ana"), make_user("ben")
    match = duo(ana, ben)
    page = context_for(ana, lang="en", viewport=viewport).new_page()
    Table(page).open(f"{live}/m/{match.pk}/")
    page.locator("#chat-toggle").wait_for(state="visible")
    # In the site's bar, or on a phone's table (whose site bar folds into the table's menu) in
    # the table's own top bar, before its menu button: over nothing of the board.
    where = (
        ".topbar #chat-toggle"
        if viewport == DESKTOP
        else "#board .tbar > #chat-toggle.chat-toggle--bar + #tools"
    )
    assert page.locator(where).count() == 1
    page.screenshot(path=str(shots / f"chat-closed-{viewport['width']}.png"))
    open_chat(page)
    page.get_by_role("button", name="Thumbs up").click()
    page.locator(".chat__line").wait_for()
    page.screenshot(path=str(shots / f"chat-open-{viewport['width']}.png"))
    # On the phone the page scrolls the trains under the panel (its first ones show); the desktop shows them all.
    wanted = ("#hand .htile", ".trains .train") + (
        (".trains .train:last-child",) if viewport == DESKTOP else ()
    )
    for selector in wanted:
        page.wait_for_function(f"() => ({UNCOVERED})('{selector}') === 'ok'", timeout=5000)


def test_a_spectator_talks_in_the_spectators_room_which_a_player_may_open(
    live: str, make_user: Any, context_for: Any
) -> None:
    ana, ben, cleo = make_user("ana"), make_user("ben"), make_user("cleo")
    match = duo(ana, ben)
    player = context_for(ana, lang="en", viewport=DESKTOP).new_page()
    playing = Table(player).open(f"{live}/m/{match.pk}/")
    open_chat(player)
    player.fill("#chat-text", "between us players")
    player.press("#chat-text", "Enter")
    player.locator(".chat__line", has_text="between us players").wait_for()

    watcher = context_for(cleo, lang="en", viewport=PHONE).new_page()
    watching = Table(watcher)
    watching.open(f"{live}/m/{match.pk}/watch/{match.watch_token}/")
    open_chat(watcher)
    assert watcher.locator("#chat-rooms").is_hidden()  # a spectator has one room, their own
    watcher.fill("#chat-text", "go ana!")
    watcher.press("#chat-text", "Enter")
    watcher.locator(".chat__line", has_text="go ana!").wait_for()
    # The player reads the spectators' room only once they open it: a line the player says after
    # the spectator's comes after it on the layer, and the spectator's never reached the page.
    player.get_by_role("button", name="Thumbs up").click()
    player.locator(".chat__line").nth(1).wait_for()
    assert all("go ana!" not in str(m) for _, m in playing.received)
    player.click('#chat-rooms [data-room="spectators"]')
    player.locator(".chat__line", has_text="go ana!").wait_for()
    assert all("between us players" not in str(m) for _, m in watching.received)
    assert "between us players" not in watcher.content()
