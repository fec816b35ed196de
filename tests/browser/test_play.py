"""A whole round against three computer players, in Debian's Chromium, through the UI only.

Sign up through the form, create the match in the lobby form, confirm the engine
(R7) or watch the computer place it, build the first-turn chain by clicking tiles
and the trains that glow (R8, R23, R30), end the first turn from its preview (R9),
draw from the face-down preview (R15) and pass (R15, R16) when nothing fits, and
play on, clicking the first tile that fits and asking for a hint now and then
(R23), until the round ends: every hand is then face up with its penalty (R21)
and the scoreboard lists the round.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.tiles import parse_tile, points
from games.models import Match
from tests.conftest import DESKTOP, PHONE

from .table import Table, first_fit_policy, mine, pick_seed

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: a bound on our own turns' actions in one round (the simulated round needs far fewer)
MAX_ACTIONS = 200


def first_chain_then_draw_and_pass(actions: list[Any]) -> bool:
    """Seat 0 builds a first-turn chain of two tiles or more, and later draws and passes."""
    ours = mine(actions)
    chain = [a for phase, a in ours if phase == "first" and a.act == "play"]
    later = {a.act for phase, a in ours if phase == "play"}
    return len(chain) >= 2 and {"draw", "pass"} <= later


def test_sign_up_create_against_three_computers_and_play_a_round(
    live: str, new_context: Any, shots: Path
) -> None:
    seed = pick_seed(
        4,
        first_fit_policy,
        first_chain_then_draw_and_pass,
        cost=lambda actions: len(actions) + 3 * len(mine(actions)),
    )
    page = new_context(viewport=DESKTOP).new_page()

    # Sign up through the form.
    page.goto(live + "/accounts/signup/")
    page.get_by_label("Username").fill("ana")
    page.locator('input[name="password1"]').fill("tile-12-12-engine")
    page.get_by_label("Password confirmation").fill("tile-12-12-engine")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(live + "/")

    # The lobby's form: three casual computers and the seed.
    page.goto(live + "/lobby/")
    for number in (2, 3, 4):
        page.check(f'input[name="seat_{number}_kind"][value="casual"]')
    page.click("details.advanced > summary")  # the seed is an advanced option
    page.fill("#id_seed", str(seed))
    table = Table(page)
    page.get_by_role("button", name="Create the match").click()
    page.wait_for_url(f"{live}/m/*/")
    table.wait_connected()
    match = Match.objects.get()
    assert (match.seed, match.players, match.status) == (seed, 4, Match.Status.PLAYING)
    assert table.data("seat") == "0"

    # R7: the holder of the engine double places it; we confirm it when we hold it.
    table.wait("b.dataset.phase !== 'engine' || b.dataset.yourTurn === 'true'")
    if table.phase() == "engine":
        assert page.locator(".hub--preview").count() == 1
        table.press("engine")
    table.wait("b.dataset.phase !== 'engine'")
    assert page.locator(".hub--preview").count() == 0

    done: Counter[tuple[str, str]] = Counter()
    chain: list[str] = []
    hints = 0
    shot_taken = False
    for _ in range(MAX_ACTIONS):
        table.wait_turn_or_over()
        if table.phase() in ("round_over", "match_over"):
            break
        phase = table.phase()
        if phase == "play" and not shot_taken:
            page.screenshot(path=str(shots / "play-desktop-1280.png"))
            shot_taken = True
        act, tile, train = table.first_fit()
        if hints < 3 and act != "end":
            # R23: the hint marks a move on the board and plays nothing.
            msg = table.ask_hint()
            hints += 1
            assert (
                msg["act"] == act
            )  # the same kind of move: a play when a tile fits, else the button
            if act == "play":
                assert msg["tile"] in table.playable()
        if act == "play":
            assert tile is not None
            if phase == "first":
                # R8: on the first turn only our own train glows.
                assert table.playable()[tile] == ["0"]
                chain.append(tile)
            table.do(act, tile, train)
        elif act == "end":
            preview = table.do("end")
            # R9: the preview says how many tiles the chain placed before it is confirmed.
            assert f"You placed {len(chain)} tiles on your train." in preview
        elif act == "draw":
            hand_before = set(table.hand())
            table.do("draw")
            drawn = set(table.hand()) - hand_before
            assert len(drawn) == 1  # R15: one tile, now in our hand only
            assert page.locator(".htile--drawn").get_attribute("data-tile") in drawn
            # Its "drawn" flag sits on the tile's edge, clear of the first row of pips (8.5 % down).
            flag = page.locator(".htile--drawn .htile__flag").bounding_box()
            tile_box = page.locator(".htile--drawn svg").bounding_box()
            assert flag["y"] + flag["height"] - tile_box["y"] <= 0.08 * tile_box["height"], (
                flag,
                tile_box,
            )
        else:
            table.do(act)
        done[(phase, act)] += 1
    else:
        pytest.fail(f"the round did not end within {MAX_ACTIONS} of our actions: {done}")
    table.assert_no_errors()

    # The chain was built by clicking; the first turn ended from its preview; draw and pass happened.
    assert len(chain) >= 2 and done[("first", "end")] == 1 and hints == 3, (chain, done, hints)
    assert done[("play", "draw")] >= 1 and done[("play", "pass")] >= 1, done

    # Round end (R20, R21): every hand face up on its row, with its penalty, and the scoreboard.
    assert table.phase() == "round_over"
    assert page.locator(".result h2").inner_text() == "Round 1 is over"
    assert page.locator(".hand .htile").count() == 0
    reveals = page.locator(".reveal")
    assert reveals.count() == 4
    state = match_state_hands()
    for seat in range(4):
        row = page.locator(f'.trains__row:has(.train[data-train="{seat}"]) .reveal')
        shown = [
            parse_tile(t)
            for t in row.locator("svg[data-pips]").evaluate_all(
                "els => els.map(e => e.dataset.pips)"
            )
        ]
        assert sorted(shown) == sorted(state[seat]), seat
        penalty = int(row.locator(".reveal__points").get_attribute("data-count-up"))
        assert penalty == sum(points(t) for t in shown)  # R21
    page.wait_for_timeout(800)  # the penalties count up from zero
    page.screenshot(path=str(shots / "round-end-desktop-1280.png"), full_page=True)
    page.locator(".result [data-dialog='scores-dialog']").click()
    dialog = page.locator("#scores-dialog")
    dialog.wait_for(state="visible")
    cells = dialog.locator("tbody tr").first.locator("td").all_inner_texts()
    assert [int(c) for c in cells] == [
        int(r.locator(".reveal__points").get_attribute("data-count-up")) for r in reveals.all()
    ]
    dialog.locator("[data-close]").click()
    assert page.locator("[data-cmd='next_round']").count() == 1

    page.set_viewport_size(PHONE)
    page.screenshot(path=str(shots / "round-end-phone-375.png"), full_page=True)


def match_state_hands() -> tuple[tuple[Any, ...], ...]:
    from games.reads import selectors

    state = selectors.match_state(Match.objects.get())
    assert state.phase == "round_over"
    return state.hands
