"""R29 "Play again" (games.table.commands.play_again): once a match is over, every person at the
table answers; when everyone who has not left has accepted, one new match starts at the
same table with the same seats, length (R31) and pace, and a new deal (R4).

All of the feature's tests are here: who may (its own columns of the permission matrix),
the services, the panel as the board renders it, the answers over the table's websocket, and
two matches played to their end and begun again in Debian's Chromium (the browser folder's
server and people, imported from tests/browser/conftest.py)."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import close_old_connections
from django.utils import timezone

from engine import rules
from engine.bots import choose
from engine.serialize import state_to_json
from engine.views import view
from games import services
from games.board.draw import board_html
from games.board.presenter import Flags, present
from games.errors import GameError
from games.history.models import PlayerStats
from games.models import Match, Seat
from games.reads import selectors
from games.services import SeatSpec
from games.table.commands.play_again import Answers, again_answer, again_seat_set
from tests import seeded
from tests.browser.conftest import context_for, live, make_user, shots, signed_in, table_server
from tests.browser.table import Table
from tests.conftest import PHONE
from tests.games.board import states as S
from tests.games.conftest import rid
from tests.games.matches import play
from tests.games.permission_matrix import allowed, cells, world
from tests.games.table.socket.conftest import connect, db, phase_of, realtime_settings, state_of

#: fixtures, for the tests below: the websocket's and the browser's
__all__ = [
    "connect",
    "context_for",
    "live",
    "make_user",
    "realtime_settings",
    "shots",
    "signed_in",
    "table_server",
    "world",
]

pytestmark = pytest.mark.django_db

#: who may answer "Play again" (the people at the table and the match's creator) and choose
#: what a left seat becomes (the creator): this feature's columns of the permission matrix
#: (tests/games/test_permissions.py says what the roles are)
PERMISSIONS = """
role        play_again again_seat
owner            1          1
seated           1          0
holder           1          1
spectator        0          0
anonymous        0          0
staff            0          0
staff+perm       0          0
superuser        0          0
"""
CELLS = cells(PERMISSIONS)


@pytest.mark.parametrize(("role", "column", "yes"), CELLS, ids=[f"{r}-{c}" for r, c, _ in CELLS])
def test_r29_who_may_answer_and_choose(
    world: dict[str, Any], role: str, column: str, yes: bool
) -> None:
    assert allowed(world, role, column) is yes


def over(match: Match) -> Match:
    """The match as its last round left it (R22): finished."""
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED, finished_at=timezone.now()
    )
    match.refresh_from_db()
    return match


def table(creator: Any, *others: Any, rounds: int = 3, pace: str = "fast") -> Match:
    """A match of the creator, then a person (a user) or a computer level, a local seat
    ("local:Name") each, everyone seated."""
    seats = [SeatSpec("me")]
    for other in others:
        if isinstance(other, str) and other.startswith("local:"):
            seats.append(SeatSpec("local", name=other[6:]))
        elif isinstance(other, str):
            seats.append(SeatSpec("computer", level=other))
        else:
            seats.append(SeatSpec("human"))
    match = seeded.match_create(creator=creator, seats=seats, seed=11, rounds=rounds, pace=pace)
    for seat, other in enumerate(others, start=1):
        if not isinstance(other, str):
            services.seat_join(
                match_id=match.pk, user=other, token=match.invite_token, seat_index=seat
            )
    match.refresh_from_db()
    return match


def accept(match: Match, user: Any, request_id: str | None = None) -> services.Result:
    return again_answer(match_id=match.pk, user=user, accept=True, request_id=request_id or rid())


def leave(match: Match, user: Any) -> services.Result:
    return again_answer(match_id=match.pk, user=user, accept=False, request_id=rid())


def refused(code: str, call: Callable[[], object], match: Match) -> str:
    """`call` is refused with `code` and changes nothing; its words."""
    before = Match.objects.values_list("version", "features").get(pk=match.pk)
    with pytest.raises(GameError) as e:
        call()
    assert e.value.code == code, e.value.message
    assert Match.objects.values_list("version", "features").get(pk=match.pk) == before
    assert Match.objects.filter(table_id=match.table_id).count() == 1
    return e.value.message


def seats_of(match: Match) -> list[tuple[str, int | None, str, str]]:
    return [(s.kind, s.user_id, s.name, s.level) for s in match.seats.order_by("index")]


def test_r29_when_everyone_accepts_one_new_match_starts_with_the_same_seats_and_a_new_deal(
    alice: Any, bob: Any
) -> None:
    match = over(table(alice, bob, "local:Ana", "expert", rounds=3, pace="fast"))
    accept(match, bob)
    assert selectors.next_match(match) is None  # alice is still deciding
    assert Answers.of(Match.objects.get(pk=match.pk)).yes == [bob.pk]
    accept(match, alice)
    new = selectors.next_match(match)
    assert new is not None and new.table_id == match.table_id and new.number == 2
    assert seats_of(new) == seats_of(match)  # people, the pass-and-play seat, the expert
    assert (new.length, new.pace, new.away_limit, new.listed) == (3, "fast", "1h", True)
    assert new.seed != match.seed and not new.seed_chosen
    assert new.status == Match.Status.PLAYING and new.created_by == alice
    state = selectors.match_state(new)
    assert (state.round, state.engine, state.totals) == (1, 2, (0, 0, 0, 0))  # R31: from 2-2
    # the old match keeps its place and says where the new one is
    assert Answers.of(Match.objects.get(pk=match.pk)).next == new.pk


def test_r29_alone_with_computers_play_again_starts_at_once(alice: Any) -> None:
    match = over(table(alice, "beginner", "casual"))
    accept(match, alice)
    new = selectors.next_match(match)
    assert new is not None and [s.level for s in new.seats.order_by("index")] == [
        "",
        "beginner",
        "casual",
    ]


def test_r29_a_seat_whose_person_leaves_becomes_a_casual_computer_unless_the_creator_chooses(
    alice: Any, bob: Any, carol: Any
) -> None:
    match = over(table(alice, bob, carol, "expert"))
    accept(match, alice)
    leave(match, bob)
    # bob's seat is alice's to give now: her answer is asked again
    assert Answers.of(Match.objects.get(pk=match.pk)).yes == []
    words = refused(
        "bad_request",
        lambda: again_seat_set(
            match_id=match.pk, user=alice, seat=2, become="open", request_id=rid()
        ),
        match,
    )
    assert words == "Only the seat of someone who left the table can be given to someone else."
    refused(
        "forbidden",
        lambda: again_seat_set(
            match_id=match.pk, user=carol, seat=1, become="open", request_id=rid()
        ),
        match,
    )
    refused(
        "bad_request",
        lambda: again_seat_set(
            match_id=match.pk, user=alice, seat=1, become="wizard", request_id=rid()
        ),
        match,
    )
    accept(match, carol)
    accept(match, alice)  # no choice made: a casual computer takes bob's seat
    new = selectors.next_match(match)
    assert new is not None
    assert seats_of(new) == [
        ("human", alice.pk, "", ""),
        ("computer", None, "", "casual"),
        ("human", carol.pk, "", ""),
        ("computer", None, "", "expert"),  # a computer keeps its level
    ]


def test_r29_the_creator_may_leave_a_left_seat_open_for_an_invitation(
    alice: Any, bob: Any, carol: Any
) -> None:
    match = over(table(alice, bob, carol))
    leave(match, carol)
    again_seat_set(match_id=match.pk, user=alice, seat=2, become="open", request_id=rid())
    again_seat_set(match_id=match.pk, user=alice, seat=2, become="expert", request_id=rid())
    again_seat_set(match_id=match.pk, user=alice, seat=2, become="open", request_id=rid())
    accept(match, bob)
    accept(match, alice)
    new = selectors.next_match(match)
    assert new is not None and new.status == Match.Status.WAITING  # for the invited player
    assert seats_of(new)[2] == ("human", None, "", "")
    services.seat_join(
        match_id=new.pk, user=carol, token=new.invite_token
    )  # carol changed her mind
    assert Match.objects.get(pk=new.pk).status == Match.Status.PLAYING


def test_r29_when_the_creator_leaves_the_first_to_accept_creates_the_new_match(
    alice: Any, bob: Any, carol: Any
) -> None:
    match = over(table(alice, bob, "local:Ana", carol))
    accept(match, carol)
    leave(match, alice)
    refused(
        "illegal",
        lambda: again_seat_set(
            match_id=match.pk, user=alice, seat=0, become="open", request_id=rid()
        ),
        match,
    )
    accept(match, bob)
    new = selectors.next_match(match)
    assert new is not None and new.created_by == carol
    # alice's own seat and her pass-and-play seat go with her: casual computers
    assert [s[0] for s in seats_of(new)] == ["computer", "human", "computer", "human"]


def test_r29_everyone_leaving_starts_nothing(alice: Any, bob: Any) -> None:
    match = over(table(alice, bob))
    leave(match, bob)
    leave(match, alice)
    assert selectors.next_match(match) is None


def test_r29_refusals_change_nothing(alice: Any, bob: Any, carol: Any) -> None:
    match = table(alice, bob, "casual")
    words = refused("illegal", lambda: accept(match, alice), match)  # before the end
    assert words == "You can play again once this match is over."
    over(match)
    assert refused("forbidden", lambda: accept(match, carol), match) == (
        "Only the people at this match can play again."
    )
    refused("forbidden", lambda: accept(match, None), match)  # nobody signed in
    refused(
        "forbidden",
        lambda: again_seat_set(
            match_id=match.pk, user=bob, seat=0, become="casual", request_id=rid()
        ),
        match,
    )
    accept(match, bob, "bob-1")
    assert accept(match, bob, "bob-1").duplicate  # the same request: answered again, once
    before = Match.objects.get(pk=match.pk).version
    assert refused("bad_request", lambda: leave(match, bob), match) == "You have answered already."
    assert Match.objects.get(pk=match.pk).version == before
    refused("bad_request", lambda: accept(match, alice, "bob-1"), match)  # another's request id


@pytest.mark.django_db(transaction=True)
def test_r29_accepting_at_the_same_moment_makes_exactly_one_new_match(
    alice: Any, bob: Any, carol: Any
) -> None:
    match = over(table(alice, bob, carol))
    accept(match, alice)
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def answer(user: Any) -> None:
        try:
            barrier.wait()
            accept(match, user)
        except BaseException as e:  # noqa: BLE001  # reported below
            errors.append(e)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=answer, args=(u,)) for u in (bob, carol)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert Match.objects.filter(table_id=match.table_id).count() == 2
    answers = Answers.of(Match.objects.get(pk=match.pk))
    assert answers.yes[0] == alice.pk and set(answers.yes) == {alice.pk, bob.pk, carol.pk}
    assert answers.next == selectors.next_match(match).pk  # type: ignore[union-attr]
    # a later answer is refused: the new match has started
    with pytest.raises(GameError) as e:
        leave(match, bob)
    assert e.value.message == "The new match at this table has started already."


def test_r29_history_and_ratings_count_both_matches(alice: Any, bob: Any) -> None:
    match = table(alice, bob, rounds=1)
    while play(match, 500).status != Match.Status.FINISHED:
        pass
    accept(match, alice)
    accept(match, bob)
    new = selectors.next_match(match)
    assert new is not None
    while play(new, 500).status != Match.Status.FINISHED:
        pass
    for user in (alice, bob):
        stats = PlayerStats.objects.get(user=user)
        assert (stats.matches, stats.rounds, stats.rated_matches) == (2, 2, 2)
    assert Seat.objects.filter(match__table_id=match.table_id, user=alice).count() == 2


# ---------------------------------------------------------------- the panel


def test_r29_the_panel_shows_each_seats_answer_the_buttons_and_the_creators_choice() -> None:
    history, st = S.history_of(3, seed=11)
    flags = Flags(offers=S.again_offer(3), history=tuple(history))
    html = board_html(present(view(st, 0), S.seats(3), flags=flags))
    assert 'data-cmd="play_again"' in html and 'data-cmd="leave_table"' in html
    assert re.findall(r'data-answer="(\w+)"', html) == ["deciding", "yes", "left"]
    assert 'data-choose="again_seat" data-field="become" data-seat="2"' in html
    assert "Who takes this seat in the new match" in html
    # once the new match is made, the panel shows the way there (and not the table's own link)
    made = Flags(offers=S.again_offer(3), history=tuple(history), next_match_url="/m/9/")
    assert "data-follow" not in board_html(present(view(st, 0), S.seats(3), flags=made))


# ---------------------------------------------------------------- over the websocket


def finish_match(match_id: int) -> None:
    """Fast-forward a match to its end in the engine (bots for every seat), then store it:
    a finished match for the R29 test without thirteen rounds over the socket."""
    match = Match.objects.get(pk=match_id)
    state = state_of(match_id)
    while state.phase != "match_over":
        if state.phase == "round_over":
            state = rules.next_round(state)
        else:
            state = rules.apply(state, choose(view(state, state.turn), "casual"))
    match.state = state_to_json(state)
    match.status = Match.Status.FINISHED
    match.finished_at = timezone.now()
    match.save()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_r29_play_again_shows_every_answer_live_and_moves_the_pages_of_those_who_accepted(
    make_match: Any, alice: Any, bob: Any, connect: Any
) -> None:
    match = await db(make_match, "me", "human", "computer:expert")
    await db(services.seat_join, match_id=match.pk, user=bob, token=match.invite_token)
    me = await connect(match, alice)
    other = await connect(match, bob)
    watcher = await connect(match, None, watch=match.watch_token)
    await me.send(type="play_again", version=me.version, request_id="pa-1")
    assert (await me.expect("error"))["code"] == "illegal"  # R29: only once the match is over
    await me.expect("board")
    await db(finish_match, match.pk)
    for browser in (me, other, watcher):
        await browser.send(type="sync")
        html = (await browser.expect("board"))["html"]
        assert phase_of({"html": html}) == "match_over"
        assert html.count('data-answer="deciding"') == 2, html  # alice and bob
    assert 'data-cmd="play_again"' not in html  # a spectator sees the answers, not the buttons
    await watcher.send(type="play_again", version=watcher.version, request_id=rid())
    assert (await watcher.expect("error"))["code"] == "forbidden"
    await watcher.expect("board")

    # alice accepts: every board shows it at once; nobody moves yet
    await me.send(type="play_again", version=me.version, request_id="pa-2")
    await me.expect("ack")
    for browser in (me, other, watcher):
        html = (await browser.board())["html"]
        assert 'data-answer="yes"' in html and "data-follow" not in html
    # bob accepts: the new match is made, and both their boards carry the way there
    await other.send(type="play_again", version=other.version, request_id="pa-3")
    await other.expect("ack")
    new = await db(lambda: Match.objects.get(table_id=match.table_id, number=2))
    for browser in (me, other):
        html = (await browser.board())["html"]
        assert f'href="/m/{new.pk}/" data-follow' in html
    # the spectator gets the link, without being moved
    html = (await watcher.board())["html"]
    assert f'href="/m/{new.pk}/"' in html and "data-follow" not in html
    # the same answer again changes nothing
    await other.send(type="play_again", version=other.version, request_id="pa-3")
    assert (await other.expect("ack"))["duplicate"]
    assert await db(lambda: Match.objects.filter(table_id=match.table_id).count()) == 2


# In Chromium: Ana (in German, with the keyboard) and Ben (on a 375 px phone, with a tap).
#: the page asks for the board often: the moves here are made where its server is not told
CHECK = "window.MT_CHECK_MS = 300;"


@pytest.mark.browser  # run after the rest (tests/conftest.py)
@pytest.mark.django_db(transaction=True)
def test_r29_in_chromium_both_play_again_and_both_pages_move_to_the_new_match(
    live: str, signed_in: Any, shots: Any
) -> None:
    ana_context = signed_in("ana", lang="de")
    ben_context = signed_in("ben", viewport=PHONE, has_touch=True)
    for context in (ana_context, ben_context):
        context.add_init_script(CHECK)
    ana_user, ben_user = ana_context.user, ben_context.user
    match = seeded.match_create(
        creator=ana_user, seats=[SeatSpec("me"), SeatSpec("human")], seed=7, rounds=1
    )
    services.seat_join(match_id=match.pk, user=ben_user, token=match.invite_token)
    ana = Table(ana_context.new_page()).open(f"{live}/m/{match.pk}/")
    ben = Table(ben_context.new_page()).open(f"{live}/m/{match.pk}/")
    while play(match, 500).status != Match.Status.FINISHED:  # the round, to its end
        pass
    for table in (ana, ben):
        table.page.wait_for_selector('[data-cmd="play_again"]', timeout=15_000)
    assert ben.page.locator(".end-offer").inner_text().count("Still deciding") == 2

    # Ana answers with the keyboard; Ben's board shows it at once, and nobody moves yet.
    ana.page.locator('[data-cmd="play_again"]').focus()
    ana.page.keyboard.press("Enter")
    ben.page.wait_for_selector('[data-answer="yes"]')
    ana.page.wait_for_selector(".end-offer__note")
    assert "Du spielst noch einmal" in ana.page.locator(".end-offer__note").inner_text()
    # the phone's panel fits its width: nothing cut at 375 px
    panel = ben.page.locator(".end-offer")
    assert panel.evaluate("e => e.scrollWidth <= e.clientWidth")
    box = panel.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    ben.page.screenshot(path=str(shots / "play-again-phone.png"), full_page=True)
    assert selectors.next_match(match) is None

    # Ben taps: the new match is made, and both pages go there by themselves.
    ben.page.locator('[data-cmd="play_again"]').tap()
    new = None
    for table in (ana, ben):
        table.page.wait_for_function(
            f"() => !location.pathname.startsWith('/m/{match.pk}/')", timeout=15_000
        )
        new = selectors.next_match(match)
        assert new is not None and table.page.url.endswith(f"/m/{new.pk}/")
    assert new is not None and new.table_id == match.table_id and new.length == 1
    assert new.seed != match.seed
    assert [s.user_id for s in new.seats.order_by("index")] == [ana_user.pk, ben_user.pk]
    assert ana.errors == [] and ben.errors == []

    # The old match's page keeps the way to the new one, without moving whoever opens it.
    old = ana_context.new_page()
    old.goto(f"{live}/m/{match.pk}/")
    link = old.locator("a[data-follow]")
    link.wait_for()
    assert link.get_attribute("href") == f"/m/{new.pk}/"
    assert old.url.endswith(f"/m/{match.pk}/")

    # History and ratings count both matches.
    while play(new, 500).status != Match.Status.FINISHED:
        pass
    for user in (ana_user, ben_user):
        stats = PlayerStats.objects.get(user=user)
        assert (stats.matches, stats.rated_matches) == (2, 2)


@pytest.mark.browser  # run after the rest (tests/conftest.py)
@pytest.mark.django_db(transaction=True)
def test_r29_in_chromium_a_person_leaves_and_the_creator_keeps_their_seat_open_for_an_invitation(
    live: str, signed_in: Any
) -> None:
    ana_context, ben_context = signed_in("ana"), signed_in("ben", lang="es")
    for context in (ana_context, ben_context):
        context.add_init_script(CHECK)
    match = seeded.match_create(
        creator=ana_context.user,
        seats=[SeatSpec("me"), SeatSpec("human"), SeatSpec("computer", level="expert")],
        seed=7,
        rounds=1,
    )
    services.seat_join(match_id=match.pk, user=ben_context.user, token=match.invite_token)
    # the server's computer worker plays the computer's turns too
    while play(match, 500, beside_a_server=True).status != Match.Status.FINISHED:
        pass
    ana = Table(ana_context.new_page()).open(f"{live}/m/{match.pk}/")
    ben = Table(ben_context.new_page()).open(f"{live}/m/{match.pk}/")
    ben.page.locator('[data-cmd="leave_table"]').click()
    ben.page.wait_for_selector(".end-offer__note")
    assert ben.page.locator(".end-offer__note").inner_text() == "Has salido de la mesa."
    # Ana chooses, with the keyboard, what Ben's seat becomes; then plays again.
    choice = ana.page.locator("#again-seat-1")
    choice.wait_for()
    assert choice.input_value() == "casual"  # until she chooses: a casual computer
    choice.focus()
    choice.select_option("open")
    ana.page.wait_for_function("() => document.getElementById('again-seat-1').value === 'open'")
    ben.page.wait_for_selector("text=Su puesto queda libre.")
    ana.page.locator('[data-cmd="play_again"]').click()
    ana.page.wait_for_function(
        f"() => !location.pathname.startsWith('/m/{match.pk}/')", timeout=15_000
    )
    new = selectors.next_match(match)
    # a table waiting for a player opens on its page with the invitation
    assert new is not None and f"/m/{new.pk}/" in ana.page.url
    assert [(s.kind, s.user_id, s.level) for s in new.seats.order_by("index")] == [
        ("human", ana_context.user.pk, ""),
        ("human", None, ""),  # open: the new table waits for someone Ana invites
        ("computer", None, "expert"),
    ]
    # Ben, who left, is shown the way to the new match but stays where he is.
    link = ben.page.locator(f'a[href="/m/{new.pk}/"]')
    link.wait_for(timeout=15_000)
    assert link.get_attribute("data-follow") is None
    assert ben.page.url.endswith(f"/m/{match.pk}/")
    assert ana.errors == [] and ben.errors == []
