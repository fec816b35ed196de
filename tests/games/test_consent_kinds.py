"""Consent as a registry of change kinds (games.consent): every kind asked, declined
and accepted through the one answer service; the away limit is one of them and a stand-in
carries no consent; the asker is told who declined or that time ran out
; a repeated request id answers the request's true state."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone, translation

from engine.serialize import state_from_json
from games import consent, services
from games.attendance import presence
from games.board.draw import board_html
from games.board.viewer import Viewer
from games.errors import ILLEGAL, GameError
from games.log import words as logtext
from games.models import ChangeRequest, Match
from games.table import board as table_board
from games.table.commands import away_limit, stand_in
from games.table.commands.last_round import end_after_this_round
from games.table.commands.restart import round_restart
from games.table.commands.undo import match_undo
from tests import seeded
from tests.games.conftest import Driver, rid, state_of
from tests.games.matches import left

pytestmark = pytest.mark.django_db


@pytest.fixture
def trio(make_match: Callable[..., Match], alice: Any, bob: Any) -> Match:
    """alice (creator, seat 0), bob (seat 1), a computer (seat 2): a shared table."""
    match = make_match("me", "human", "computer:casual")
    services.seat_join(match_id=match.pk, user=bob, token=match.invite_token)
    match.refresh_from_db()
    return match


def _undo(match: Match, alice: Any, bob: Any) -> services.Result:
    driver = Driver(match, {0: alice, 1: bob}, rng_seed=5)
    driver.until(lambda s: s.phase == "play" and s.turn == 0)
    driver.step()
    return match_undo(
        match_id=match.pk, user=alice, expected_version=driver.version, request_id=rid()
    )


def _restart(match: Match, alice: Any, bob: Any) -> services.Result:
    match.refresh_from_db()
    return round_restart(
        match_id=match.pk, user=alice, expected_version=match.version, request_id=rid()
    )


def _last_round(match: Match, alice: Any, bob: Any) -> services.Result:
    match.refresh_from_db()
    return end_after_this_round(
        match_id=match.pk, user=alice, expected_version=match.version, request_id=rid()
    )


def _away_limit(match: Match, alice: Any, bob: Any) -> services.Result:
    return away_limit.away_limit_set(match_id=match.pk, user=alice, limit="1d", request_id=rid())


#: kind -> (ask it as alice, what is true once it is done)
ASK: dict[str, tuple[Callable[..., services.Result], Callable[[Match], bool]]] = {
    "undo": (
        _undo,
        lambda m: state_of(m).turn == 0 and m.rounds.get().log.filter(kind="undo").exists(),
    ),
    "restart": (_restart, lambda m: m.rounds.get().restarts == 1),
    "last_round": (_last_round, lambda m: state_of(m).start.final),
    "away_limit": (_away_limit, lambda m: Match.objects.get(pk=m.pk).away_limit == "1d"),
}


def test_the_registry_is_the_models_choices_and_each_kind_is_its_features() -> None:
    """Every kind is declared by its feature's module (games.table.commands) and is what the
    model's choices offer; no constraint lists the kinds, so a new one needs no migration."""
    assert set(consent.KINDS) == set(ASK)
    field = ChangeRequest._meta.get_field("change")
    assert [c for c, _label in field.choices] == list(consent.KINDS)
    assert not any(
        "change" in str(c)
        for c in ChangeRequest._meta.constraints
        if c.name != "one_open_request_per_match"
    )
    for name, kind in consent.KINDS.items():
        feature = importlib.import_module(f"games.table.commands.{name}")
        assert feature.KIND is kind, f"the kind {name} is not declared by its command's module"
        assert callable(kind.done)


@pytest.mark.parametrize("kind", list(ASK))
@pytest.mark.parametrize("accept", [True, False])
def test_each_kind_is_asked_then_done_or_declined(
    trio: Match, alice: Any, bob: Any, kind: str, accept: bool
) -> None:
    ask, done = ASK[kind]
    result = ask(trio, alice, bob)
    assert result.asked and result.request == "open"
    request = trio.change_requests.get(status="open")
    assert request.change == kind and not done(trio)  # asked, not done
    asked = (state_of(trio), Match.objects.get(pk=trio.pk).away_limit)
    services.change_answer(
        match_id=trio.pk, user=bob, ask=request.pk, accept=accept, request_id=rid()
    )
    request.refresh_from_db()
    assert request.status == ("done" if accept else "declined")
    assert done(trio) is accept
    if not accept:
        assert (state_of(trio), Match.objects.get(pk=trio.pk).away_limit) == asked


@pytest.mark.parametrize("kind", list(consent.KINDS))
@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_each_kind_has_words_for_each_step(kind: str, lang: str) -> None:
    k = consent.kind(kind)
    with translation.override(lang):
        lines = [
            logtext.describe_entry("consent", {"change": kind, "step": step}, [], actor="Ana")
            for step in consent.STEPS
        ]
        assert len(set(lines)) == len(lines) and all(lines)
        assert all(
            "Ana" in line
            for line, step in zip(lines, consent.STEPS, strict=True)
            if step in ("ask", "accept", "decline")
        )
        said = [
            str(k.label),
            str(k.mine),
            str(k.theirs) % {"name": "Ana"},
            str(k.declined) % {"name": "Ana"},
            str(k.expired),
        ]
    if lang != "en":
        with translation.override("en"):
            english = [
                logtext.describe_entry("consent", {"change": kind, "step": s}, [], actor="Ana")
                for s in consent.STEPS
            ]
            english_said = [str(k.mine), str(k.expired)]
        assert lines != english and said[1] != english_said[0] and said[4] != english_said[1]


def test_the_away_limit_cannot_be_shortened_alone_nor_a_stand_in_consent(
    make_match: Callable[..., Match], alice: Any, bob: Any
) -> None:
    """Alice shortens the limit to 10 minutes alone while bob is away, has his seat
    handed to a computer, then restarts the round: none of it without bob's consent."""
    match = seeded.match_create(
        creator=alice,
        seats=[
            services.SeatSpec("me"),
            services.SeatSpec("human"),
            services.SeatSpec("computer", level="casual"),
        ],
        seed=77,
        away_limit="1h",
    )
    services.seat_join(match_id=match.pk, user=bob, token=match.invite_token)
    presence.opened(match_id=match.pk, user=alice, channel="alice-tab")
    left(match, bob, 15)
    asked = away_limit.away_limit_set(match_id=match.pk, user=alice, limit="10m", request_id=rid())
    assert asked.asked and Match.objects.get(pk=match.pk).away_limit == "1h"
    with pytest.raises(GameError) as e:  # bob has been away 15 minutes, under the table's hour
        stand_in.standin_start(match_id=match.pk, user=alice, seat=1, request_id=rid())
    assert e.value.code == ILLEGAL
    ChangeRequest.objects.filter(match=match).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    services.requests_expire()
    assert Match.objects.get(pk=match.pk).away_limit == "1h"
    # Past the hour the seat may be handed over, but the stand-in answers nothing for bob:
    left(match, bob, 61)
    stand_in.standin_start(match_id=match.pk, user=alice, seat=1, request_id=rid())
    match.refresh_from_db()
    before = state_from_json(match.state)
    result = round_restart(
        match_id=match.pk, user=alice, expected_version=match.version, request_id=rid()
    )
    assert result.asked and state_of(match) == before and match.rounds.get().restarts == 0


def _asker_board(match: Match, user: Any, lang: str = "en") -> str:
    match.refresh_from_db()
    with translation.override(lang):
        return table_board.board_context(
            match=match, viewer=Viewer(user=user, controlled=(0,))
        ).answered


@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_the_asker_is_told_who_declined_in_their_language(
    trio: Match, alice: Any, bob: Any, lang: str
) -> None:
    _restart(trio, alice, bob)
    ask = trio.change_requests.get().pk
    services.change_answer(match_id=trio.pk, user=bob, ask=ask, accept=False, request_id=rid())
    told = _asker_board(trio, alice, lang)
    assert "bob" in told
    with translation.override(lang):
        assert told == str(consent.kind("restart").declined) % {"name": "\u2068bob\u2069"}
    if lang != "en":
        assert told != _asker_board(trio, alice, "en")
    # only the asker is told, and the board part carries it
    assert _asker_board(trio, bob) == ""
    html = board_html(
        table_board.board_context(match=trio, viewer=Viewer(user=alice, controlled=(0,)))
    )
    assert "data-answered" in html and "bob" in html


def test_the_asker_is_told_that_time_ran_out_and_not_for_ever(
    trio: Match, alice: Any, bob: Any
) -> None:
    _last_round(trio, alice, bob)
    ChangeRequest.objects.filter(match=trio).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    services.requests_expire()
    assert _asker_board(trio, alice) == str(consent.kind("last_round").expired)
    ChangeRequest.objects.filter(match=trio).update(closed_at=timezone.now() - timedelta(minutes=2))
    assert _asker_board(trio, alice) == ""


def test_a_repeated_request_id_answers_the_requests_true_state(
    trio: Match, alice: Any, bob: Any
) -> None:
    """A page sending its undo again (a reconnect) is not told it was done."""
    driver = Driver(trio, {0: alice, 1: bob}, rng_seed=5)
    driver.until(lambda s: s.phase == "play" and s.turn == 0)
    driver.step()
    version = driver.version

    def undo() -> services.Result:
        return match_undo(
            match_id=trio.pk, user=alice, expected_version=version, request_id="undo-1"
        )

    first = undo()
    assert first.asked and not first.duplicate
    again = undo()
    assert (again.duplicate, again.asked, again.request) == (True, True, "open")
    services.change_answer(
        match_id=trio.pk,
        user=bob,
        ask=trio.change_requests.get().pk,
        accept=False,
        request_id=rid(),
    )
    assert undo().request == "declined"
