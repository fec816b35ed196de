"""A computer plays for a person who is away, in Debian's Chromium (games.attendance.standin).

Ana and Bob share a table with a computer; the table lets a computer stand in after 10
minutes away. Bob has never opened the table and the match is (backdated) nearly 10
minutes old: Ana's page is open when his limit passes, and the computer worker's notice
alone (no reload) brings her the offer "Let a computer play for bob". She clicks it; every
seat strip says "bob (a computer plays)" and the computer plays bob's turns while Ana plays
hers. Then Bob opens the table: no hand while the computer stands in, only "Take my seat
back"; one click gives him his hand back and he plays his next turn himself. No tile of
Bob's hand ever reaches Ana's page (R24, R25). At 1280×800 and on a 375×667 phone.
"""

from __future__ import annotations

import re
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from games import services
from games.models import LogEntry, Match, Seat, StandIn
from games.services import SeatSpec
from tests import seeded

from .conftest import WORKER_PASS
from .table import OVER, Table, tiles_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDE = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 667}
#: the limit passes this long after Ana's page is open (the worker tells tables every 5 s)
SOON = 1.5
#: a seat's name while a computer plays it for its owner (games.board.words.standin_name)
COMPUTER_PLAYS = re.compile(r"\(a computer plays\)")


def plain(text: str) -> str:
    """`text` without the bidi isolates the page puts around names (FSI, PDI)."""
    return text.replace("\u2068", "").replace("\u2069", "")


def named(words: str) -> re.Pattern[str]:
    """`words` as the page shows them: each name ("bob") may come in bidi isolates."""
    return re.compile("^" + re.escape(words).replace("bob", "\u2068?bob\u2069?") + "$")


def computer_moves_for_bob(match: Match) -> int:
    return LogEntry.objects.filter(
        round__match=match, seat=1, by_computer=True, kind="action"
    ).count()


def play_until(ana: Table, done: Any, what: str, timeout: float = 60) -> None:
    """Ana plays her turns (the first tile that fits, by clicking) until `done()` holds."""
    deadline = time.monotonic() + timeout
    while not done():
        assert ana.phase() not in OVER, f"the round ended before {what}"
        assert time.monotonic() < deadline, f"no {what} within {timeout} s"
        if ana.your_turn():
            ana.act_first_fit()
        else:
            ana.page.wait_for_timeout(50)


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["1280x800", "375x667"])
def test_a_computer_plays_for_away_bob_until_he_takes_his_seat_back(
    live: str, signed_in: Any, shots: Path, viewport: dict[str, int]
) -> None:
    size = f"{viewport['width']}x{viewport['height']}"
    ana_context = signed_in("ana", viewport=viewport)
    bob_context = signed_in("bob", viewport=viewport)
    match = seeded.match_create(
        creator=ana_context.user,
        seed=4242,
        away_limit="10m",
        seats=[SeatSpec("me"), SeatSpec("human"), SeatSpec("computer", level="casual")],
    )
    services.seat_join(match_id=match.pk, user=bob_context.user, token=match.invite_token)
    ana = Table(ana_context.new_page()).open(f"{live}/m/{match.pk}/")
    assert (
        ana.page.locator("[data-stand-in]").count() == 0
    )  # bob has been away for less than 10 minutes

    # Bob never came: he is away since the match was created, which now passes the limit
    # SOON from here; the worker's notice, not a reload, brings Ana the offer.
    Match.objects.filter(pk=match.pk).update(
        created_at=timezone.now() - timedelta(seconds=600 - SOON)
    )
    offer = ana.page.get_by_role("button", name=named("Let a computer play for bob"))
    offer.wait_for(timeout=(SOON + 5 + 3 * WORKER_PASS + 5) * 1000)
    assert "bob has been away longer than this table allows." in plain(
        ana.page.locator(".away").inner_text()
    )
    assert ana.page.get_by_role("button", name="Take my seat back").count() == 0
    ana.page.screenshot(path=str(shots / f"standin-offer-{size}.png"))
    offer.click()

    ana.page.wait_for_selector("[data-stand-in]", state="detached")
    bobs_name = ana.page.locator(".scores__name").filter(has_text=COMPUTER_PLAYS)
    bobs_name.wait_for(state="attached")
    assert plain(bobs_name.inner_text()) == "bob (a computer plays)"
    # said where Ana looks at the table, not only in the (folded) scores
    shown = ana.page.get_by_text(COMPUTER_PLAYS)
    assert any(shown.nth(i).is_visible() for i in range(shown.count())), plain(
        ana.page.inner_text("#board")
    )
    assert Seat.objects.get(match=match, index=1).standin == "casual"
    handed = StandIn.objects.get(match=match, seat=1)
    assert handed.handed_by == ana_context.user and handed.ended_at is None

    # The computer plays bob's turns; Ana plays hers.
    play_until(ana, lambda: computer_moves_for_bob(match) > 0, "move by the computer for bob")

    # Bob opens the table: the table as a watcher sees it, and "Take my seat back".
    bob = Table(bob_context.new_page()).open(f"{live}/m/{match.pk}/")
    assert bob.hand() == []
    assert bob.page.locator(".hand__actions [data-act]").count() == 0
    banner = bob.page.locator(".away")
    assert "While you were away, a computer has been playing bob's seat." in plain(
        banner.inner_text()
    )
    assert "Let a computer play" not in bob.html()
    # he is the seat's owner, not a spectator: told why he sees no hand and how to get it back
    assert "Watching" not in bob.page.inner_text("#board")
    assert "see no hands" not in bob.page.inner_text("#board")
    assert bob.page.locator(".hand__none").inner_text() == (
        "A computer is playing your seat. Take it back to see your tiles."
    )
    bob.page.screenshot(path=str(shots / f"standin-take-back-{size}.png"))
    take_back = bob.page.get_by_role("button", name="Take my seat back")
    take_back.click()

    bob.page.wait_for_selector(".htile")
    assert bob.page.get_by_role("button", name="Take my seat back").count() == 0
    assert Seat.objects.get(match=match, index=1).standin == ""
    assert StandIn.objects.get(match=match, seat=1).ended_by == bob_context.user
    # Counted once the take-back is committed: the worker may still have moved for bob
    # between his click and that commit (both lock the match), never after it.
    moves_before = computer_moves_for_bob(match)
    bobs_name.wait_for(state="detached")
    assert "(a computer plays)" not in ana.html()
    assert ana.page.locator("[data-stand-in]").count() == 0  # bob is at the table now

    # Bob's turn comes round again and waits for him; he plays it by clicking.
    play_until(ana, bob.your_turn, "turn for bob")
    assert computer_moves_for_bob(match) == moves_before
    bob_hand = bob.hand()
    before = bob.version()
    _, played, _ = bob.act_first_fit()
    assert bob.version() > before
    assert computer_moves_for_bob(match) == moves_before
    assert LogEntry.objects.filter(
        round__match=match, seat=1, by_computer=False, user=bob_context.user
    ).exists()

    # No tile of Bob's hand ever reached Ana's page (what he holds now, and held before his move).
    held = {tuple(sorted(map(int, t.split("-")))) for t in bob_hand + bob.hand() if t != played}
    ana_saw = tiles_in(ana.page.content() + "".join(str(m) for _, m in ana.received))
    assert not held & ana_saw, held & ana_saw
    ana.assert_no_errors()
    bob.assert_no_errors()
