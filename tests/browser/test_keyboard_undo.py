"""Keyboard-only play (R30) and Undo / Redo after the computers answered (R27), in Debian's Chromium.

Keyboard: ←/→ move among the hand's tiles, Enter selects one and goes to the first
train it fits, ↑/↓ move among the trains, Enter plays there; E ends the first turn
(its preview is confirmed with Enter), D draws (confirmed with Enter), P passes —
with the focus visible at every step.

Undo: after our first turn ends and the computers have answered, Undo restores
exactly the board we had before ending it (hand, trains, counts, status; the
server's HTML compared); Redo brings back the board the computers left.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from engine.state import Action
from games.models import Match
from games.services import SeatSpec
from tests import seeded

from .table import Table, first_fit_policy, mine, pick_seed

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOCUSED = """() => {
  const e = document.activeElement;
  const style = getComputedStyle(e);
  return {tile: e.dataset.tile || null, train: e.dataset.train || null, tag: e.tagName,
          confirm: e.dataset.confirmAct || null, visible: e.matches(':focus-visible'),
          outline: style.outlineStyle, width: parseFloat(style.outlineWidth)};
}"""


def focused(page: Any) -> dict[str, Any]:
    """The focused element, once its focus ring is drawn (waited for, up to 2 s: a board
    morphed in just now may not be styled yet)."""
    deadline = time.monotonic() + 2
    while True:
        found = page.evaluate(FOCUSED)
        ringed = found["visible"] and found["outline"] != "none" and found["width"] >= 2
        if ringed or time.monotonic() > deadline:
            break
        page.wait_for_timeout(50)
    assert ringed, found
    return found


def computer_holds_then_chain_draw_pass(actions: list[tuple[str, Action]]) -> bool:
    ours = mine(actions)
    first = [a.act for phase, a in ours if phase == "first"]
    later = [a.act for phase, a in ours if phase == "play"]
    return (
        actions[0][1].seat == 1
        and len(first) >= 3
        and first[-1] == "end"
        and set(first[:-1]) == {"play"}
        and later[:2] == ["draw", "pass"]
    )


def until_our_pass(actions: list[tuple[str, Action]]) -> int:
    return next(
        n
        for n, (phase, a) in enumerate(actions)
        if a.seat == 0 and a.act == "pass" and phase == "play"
    )


def test_one_turn_by_keyboard_alone(
    live: str, make_user: Any, context_for: Any, shots: Path
) -> None:
    seed = pick_seed(2, first_fit_policy, computer_holds_then_chain_draw_pass, cost=until_our_pass)
    ana = make_user("ana")
    match = seeded.match_create(
        creator=ana, seed=seed, seats=[SeatSpec("me"), SeatSpec("computer", level="casual")]
    )
    table = Table(context_for(ana).new_page()).open(f"{live}/m/{match.pk}/")
    page = table.page
    table.wait_turn_or_over()
    assert table.phase() == "first"
    page.locator("body").focus()

    # ←/→ reach the hand, Enter selects and goes to the glowing train, ↓/↑ move among trains, Enter plays.
    page.keyboard.press("ArrowRight")
    hand = table.hand()
    assert focused(page)["tile"] == hand[0]
    page.keyboard.press("ArrowRight")
    assert focused(page)["tile"] == hand[1]
    page.keyboard.press("ArrowLeft")
    assert focused(page)["tile"] == hand[0]
    chain = 0
    while table.playable():
        at = focused(page)
        if at["tile"] is None:  # on a train after the last play: ← goes back to the hand
            page.keyboard.press("ArrowLeft")
            at = focused(page)
        hand = table.hand()
        target = next(iter(table.playable()))
        step = "ArrowRight" if hand.index(target) > hand.index(at["tile"]) else "ArrowLeft"
        while focused(page)["tile"] != target:
            page.keyboard.press(step)
        page.keyboard.press("Enter")
        assert focused(page)["train"] == "0"  # R8: the first turn's only target, our own train
        assert page.locator('.train[data-train="0"]').get_attribute("class").count("is-target") == 1
        page.keyboard.press("ArrowDown")
        assert focused(page)["train"] == "1"
        if chain == 0:
            page.screenshot(path=str(shots / "keyboard-focus-desktop-1280.png"))
        page.keyboard.press("ArrowUp")
        assert focused(page)["train"] == "0"
        before = table.version()
        page.keyboard.press("Enter")
        table.wait_version_above(before)
        chain += 1
        assert target not in table.hand()
    assert chain >= 2

    # E: the end-of-turn preview, confirmed with Enter (R9). The hand's line says so (not "pass").
    assert table.data("status") == "Nothing more fits your chain: end your first turn."
    page.keyboard.press("e")
    page.locator("#end-dialog").wait_for(state="visible")
    assert f"You placed {chain} tiles on your train." in page.locator("#end-dialog").inner_text()
    assert focused(page)["confirm"] == "end"
    before = table.version()
    page.keyboard.press("Enter")
    table.wait_version_above(before)

    # Our next turn: nothing fits. D draws at once (the only legal action); the drawn tile fits nowhere: P.
    table.wait_turn_or_over()
    assert table.phase() == "play" and not table.playable()
    held = set(table.hand())
    before = table.version()
    page.keyboard.press("d")
    table.wait_version_above(before)
    assert len(set(table.hand()) - held) == 1
    assert not table.playable() and page.locator('[data-act="pass"]').count() == 1
    before = table.version()
    page.keyboard.press("p")
    table.wait_version_above(before)
    assert not table.your_turn() or table.version() > before + 1
    table.assert_no_errors()
    log = [
        e.action
        for r in match.rounds.all()
        for e in r.log.filter(kind="action", seat=0).order_by("seq")
    ]
    assert [a["act"] for a in log] == ["play"] * chain + ["end", "draw", "pass"]


# ---------------------------------------------------------------- undo and redo


def ends_first_turn_after_playing(actions: list[tuple[str, Action]]) -> bool:
    first = [a.act for phase, a in mine(actions) if phase == "first"]
    return len(first) >= 2 and first[-1] == "end"


def until_we_play_again(actions: list[tuple[str, Action]]) -> int:
    ended = next(n for n, (_, a) in enumerate(actions) if a.seat == 0 and a.act == "end")
    return next(n for n, (_, a) in enumerate(actions) if n > ended and a.seat == 0)


_VOLATILE = [
    re.compile(r'\sdata-(version|last-event|title)="[^"]*"'),
    # The tools: Undo / Redo buttons come and go with the history, not with the board.
    re.compile(r'<nav class="tbar__tools".*?</nav>', re.S),
]


def board_of(html: str) -> str:
    """The server's board HTML without what legitimately differs after an undo."""
    for pattern in _VOLATILE:
        html = pattern.sub("", html)
    return html


def summary(table: Table) -> dict[str, Any]:
    """The board as a player reads it off the page."""
    page = table.page
    return {
        "hand": table.hand(),
        "playable": table.playable(),
        "trains": page.eval_on_selector_all(
            ".train",
            "els => els.map(e => [e.dataset.train, e.className.includes('train--open'),"
            " [...e.querySelectorAll('svg[data-pips]')].map(s => s.dataset.pips)])",
        ),
        "counts": page.locator(".train__count").all_inner_texts(),
        "boneyard": page.locator(".tbar__boneyard").inner_text(),
        "status": table.data("status"),
        "turn": table.data("turn"),
        "actions": page.eval_on_selector_all("[data-act]", "els => els.map(e => e.dataset.act)"),
    }


def test_undo_after_the_computers_answered_restores_the_earlier_board(
    live: str, make_user: Any, context_for: Any, shots: Path
) -> None:
    seed = pick_seed(3, first_fit_policy, ends_first_turn_after_playing, cost=until_we_play_again)
    ana = make_user("ana")
    match = seeded.match_create(
        creator=ana,
        seed=seed,
        seats=[
            SeatSpec("me"),
            SeatSpec("computer", level="casual"),
            SeatSpec("computer", level="casual"),
        ],
    )
    table = Table(context_for(ana).new_page()).open(f"{live}/m/{match.pk}/")
    page = table.page

    # Our first turn, up to the moment it is ended.
    for _ in range(40):
        table.wait_turn_or_over()
        if (
            table.phase() == "first"
            and not table.playable()
            and page.locator('[data-act="end"]').count()
        ):
            break
        table.act_first_fit()
    else:
        pytest.fail("our first turn did not come to its end")
    mark = table.version()
    before_html = board_of(table.boards()[-1]["html"])
    assert table.boards()[-1]["version"] == mark
    before = summary(table)

    table.confirm("end")
    # The computers answer; then it is our turn again.
    table.wait(f"b.dataset.yourTurn === 'true' && parseInt(b.dataset.version, 10) >= {mark + 2}")
    match.refresh_from_db()
    computer_moves = [e for r in match.rounds.all() for e in r.log.all() if e.version > mark + 1]
    assert computer_moves and all(e.by_computer for e in computer_moves)
    answered_html = board_of(table.boards()[-1]["html"])
    answered = summary(table)
    assert answered != before
    page.screenshot(path=str(shots / "undo-before-desktop-1280.png"))

    # R27: Undo takes back our End with every computer move that answered it.
    version = table.version()
    assert (
        page.locator('[data-cmd="redo"][disabled]').count() == 1
    )  # in its place, nothing to redo yet
    page.click('[data-cmd="undo"]')
    table.wait_version_above(version)
    assert board_of(table.boards()[-1]["html"]) == before_html
    assert summary(table) == before
    assert page.locator('[data-cmd="redo"]:not([disabled])').count() == 1
    page.screenshot(path=str(shots / "undo-after-desktop-1280.png"))

    # Redo brings back exactly what Undo took back.
    version = table.version()
    page.click('[data-cmd="redo"]')
    table.wait_version_above(version)
    assert board_of(table.boards()[-1]["html"]) == answered_html
    assert summary(table) == answered
    table.assert_no_errors()
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
