"""R32 "End the match after this round", end to end through the services: by consent at a
shared table (accepted, declined), at once alone with computers; the match then ends with the
round in play, and its scores, stats, ratings and replays read it as finished."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import translation

from engine.replay import run_replay
from games import commands, services
from games.board.draw import board_html
from games.board.jinja_env import fixed_language
from games.board.viewer import Viewer
from games.errors import GameError
from games.history import replays
from games.history.models import CountedMatch, PlayerStats
from games.models import ChangeRequest, LogEntry, Match
from games.reads import selectors
from games.table import board as table_board
from games.table.commands.last_round import WORDS, end_after_this_round
from games.table.commands.restart import round_restart
from games.table.commands.undo import match_undo
from tests.games.conftest import Driver, rid, snapshot, state_of

pytestmark = pytest.mark.django_db


def end_early(match: Match, user: Any, request_id: str | None = None) -> services.Result:
    match.refresh_from_db()
    return end_after_this_round(
        match_id=match.pk, user=user, expected_version=match.version, request_id=request_id or rid()
    )


def answer(match: Match, user: Any, accept: bool) -> services.Result:
    ask = match.change_requests.get(status=ChangeRequest.Status.OPEN).pk
    return services.change_answer(
        match_id=match.pk, user=user, ask=ask, accept=accept, request_id=rid()
    )


@pytest.fixture
def duo(make_match: Callable[..., Match], bob: Any) -> Match:
    """alice (creator, seat 0) and bob (seat 1): people only, so the match is rated."""
    match = make_match("me", "human")
    services.seat_join(match_id=match.pk, user=bob, token=match.invite_token)
    match.refresh_from_db()
    return match


def test_alone_with_computers_the_round_becomes_the_last_at_once(
    make_match: Callable[..., Match], alice: Any, driver: Callable[..., Driver]
) -> None:
    match = make_match("me", "computer:casual", "computer:casual")
    result = end_early(match, alice)
    assert not result.asked and state_of(match).start.final
    assert [e.kind for e in LogEntry.objects.filter(round__match=match)] == ["last_round"]
    over = driver(match, {0: alice}).finish_round()
    match.refresh_from_db()
    assert over.phase == "match_over" and match.status == Match.Status.FINISHED
    assert match.rounds.count() == 1 and match.rounds.get().totals == list(over.totals)
    with pytest.raises(GameError):  # no next round after the last
        services.round_next(
            match_id=match.pk, user=alice, expected_version=match.version, request_id=rid()
        )


def test_at_a_shared_table_it_is_asked_and_declined_changes_nothing(
    duo: Match, alice: Any, bob: Any
) -> None:
    asked = end_early(duo, alice)
    assert asked.asked and not state_of(duo).start.final
    before = snapshot(duo)[2]
    answer(duo, bob, accept=False)
    duo.refresh_from_db()
    assert duo.state == before and not state_of(duo).start.final
    assert duo.change_requests.get().status == ChangeRequest.Status.DECLINED


def test_accepted_it_ends_the_match_after_the_round_which_is_rated_and_replayed(
    duo: Match, alice: Any, bob: Any, driver: Callable[..., Driver]
) -> None:
    play = driver(duo, {0: alice, 1: bob})
    play.finish_round()
    play.next_round(alice)
    end_early(duo, bob)
    answer(duo, alice, accept=True)
    assert state_of(duo).start.final
    # R28: a restart of the last round by consent keeps it the last
    round_restart(match_id=duo.pk, user=alice, expected_version=play.version, request_id=rid())
    answer(duo, bob, accept=True)
    assert state_of(duo).start.final and duo.rounds.get(number=2).restarts == 1
    over = play.finish_round()
    duo.refresh_from_db()
    assert over.phase == "match_over" and duo.status == Match.Status.FINISHED
    # history and ratings: the match is counted once, with its two rounds, and rated
    assert CountedMatch.objects.filter(match=duo).exists()
    stats = PlayerStats.objects.get(user=alice)
    assert (stats.matches, stats.rounds, stats.rated_matches) == (1, 2, 1)
    # replays: the match's replay file says it and ends where the match ended
    doc = selectors.match_replay_doc(duo)
    assert {"act": "last_round"} in doc["actions"]
    out = run_replay(doc)
    assert (
        out["phase"] == "match_over" and out["totals"] == list(over.totals) and out["error"] is None
    )
    steps = replays.round_steps(
        duo.rounds.get(number=2), selectors.effective_actions(duo.rounds.get(number=2))
    )
    assert steps[-1].state.phase == "match_over"


def test_refused_once_the_round_is_over_or_the_last_already(
    make_match: Callable[..., Match], alice: Any, carol: Any, driver: Callable[..., Driver]
) -> None:
    match = make_match("me", "computer:casual")
    with pytest.raises(GameError) as e:
        end_early(match, carol)
    assert e.value.code == "forbidden"
    end_early(match, alice)
    before = snapshot(match)
    with pytest.raises(GameError) as e:
        end_early(match, alice)
    assert e.value.reason == "last_already" and snapshot(match) == before
    driver(match, {0: alice}).finish_round()
    with pytest.raises(GameError) as e:
        end_early(match, alice)
    assert e.value.reason == "match_over"


def test_the_menu_offers_it_to_players_only_while_it_can_be_done(
    duo: Match, alice: Any, bob: Any
) -> None:
    def offered(user: Any) -> list[str]:
        duo.refresh_from_db()
        board = table_board.board_context(
            match=duo,
            viewer=Viewer(
                user=user, controlled=tuple(selectors.seats_controlled(duo, user)) if user else ()
            ),
        )
        return [o.name for o in board.offers]

    assert offered(alice) == ["last_round"] and offered(bob) == ["last_round"]
    html = board_html(
        table_board.board_context(match=duo, viewer=Viewer(user=alice, controlled=(0,)))
    )
    assert 'data-cmd="last_round"' in html and 'data-dialog="last-round-dialog"' in html
    assert offered(None) == []  # a watcher
    end_early(duo, alice)
    assert offered(alice) == [] and offered(bob) == []  # a request waits
    answer(duo, bob, accept=True)
    assert offered(alice) == []  # the last already
    # everyone, watchers too, reads that this round is the match's last: "1 / 1"
    duo.refresh_from_db()
    watched = table_board.board_context(match=duo, viewer=Viewer())
    assert (watched.round, watched.rounds, watched.round_text) == (
        1,
        1,
        "Round 1, the match's last",
    )
    assert "last_round" in commands.COMMANDS


def test_the_offer_is_worded_in_each_viewers_language_and_for_a_shared_table(
    duo: Match, make_match: Callable[..., Match], alice: Any
) -> None:
    """Its words are translated once per language (every board offers them) and still follow
    the reader's language, and whether the others are asked (a shared table) or not."""

    def words(match: Match) -> dict[str, str]:
        board = table_board.board_context(match=match, viewer=Viewer(user=alice, controlled=(0,)))
        (offer,) = (o for o in board.offers if o.name == "last_round")
        return dict(offer.words)

    alone = make_match("me", "computer")
    said = {}
    for language in ("en", "es", "de", "en"):
        with translation.override(language), fixed_language():
            said[language] = (words(duo), words(alone))
    english, spanish, german = said["en"], said["es"], said["de"]
    assert len({english[0]["label"], spanish[0]["label"], german[0]["label"]}) == 3
    for shared, solo in (english, spanish, german):
        assert shared["label"] == solo["label"] and shared["text"] != solo["text"]
    with translation.override("en"):
        assert english[0]["text"] == str(WORDS["text_shared"])
        assert english[1]["text"] == str(WORDS["text"])


def test_an_undo_keeps_the_round_the_last(
    make_match: Callable[..., Match], alice: Any, driver: Callable[..., Driver]
) -> None:
    """R27 with R32: taking back a move made before the agreement does not take the agreement back."""
    match = make_match("me", "computer:casual")
    play = driver(match, {0: alice})
    play.until(lambda s: s.phase == "play" and s.turn == 0)
    play.step()
    end_early(match, alice)
    match_undo(match_id=match.pk, user=alice, expected_version=play.version, request_id=rid())
    assert match.rounds.get().log.filter(kind="undo").exists() and state_of(match).start.final
