"""The replay viewer draws the live board (R21, R24): at every step of an ended round it
shows what a spectator saw live at that version, plus every hand face up; a round still
being played is never replayed, for anyone, staff included."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games.board.draw import board_html
from games.board.viewer import Viewer
from games.history import boards
from games.history.replays import NotReplayable, round_replay
from games.models import Match
from games.table.board import board_context
from tests.games.matches import create, step

REVEAL = re.compile(r'<div class="reveal[^"]*">.*?</div>', re.S)
#: the computers' pace in the top bar: what spectators saw live, which a replay does not show
PACE = re.compile(r'<p class="tbar__fact badge badge--pace".*?</p>', re.S)
#: the round result's score chart: the replay page draws the whole match's chart once, under
#: the board (games/history/boards.py), so its boards leave it out
CHART = re.compile(r'<figure class="chart-box[^"]*">.*?</figure>\n?', re.S)
#: the live table's presence dots (here / away): a replay shows who played, not who was there
PRESENCE = re.compile(r'<span class="presence[^"]*"[^>]*></span>')


def squeeze(html: str) -> str:
    return re.sub(r"\s+", " ", html)


def live_board(match: Match) -> str:
    """The spectator's full render at the match's current version (no hands before the end, R24)."""
    match = Match.objects.prefetch_related("seats__user").get(pk=match.pk)
    return PRESENCE.sub(
        "", CHART.sub("", str(board_html(board_context(match=match, viewer=Viewer()))))
    )


def play_recording(match: Match, rounds: int) -> dict[int, str]:
    """Play until round `rounds` has started, keeping the live spectator board of every version."""
    seen = {match.version: live_board(match)}
    while True:
        match.refresh_from_db()
        if (
            match.round_number > rounds - 1
            and match.state
            and match.state["phase"] != "round_over"
            and match.round_number == rounds
        ):
            break
        if not step(match):
            break
        match.refresh_from_db()
        seen[match.version] = live_board(match)
    return seen


@pytest.mark.django_db
def test_every_step_of_an_ended_round_is_the_live_board_with_hands_face_up(ana: Any) -> None:
    match = create(ana, "casual", "expert", seed=4242)
    seen = play_recording(match, 3)  # rounds 1 and 2 ended, round 3 being played
    checked = 0
    for number in (1, 2):
        replay = round_replay(match, number)
        assert replay.steps[-1].state.over
        for s in replay.steps:
            if s.version not in seen:
                continue
            public = str(boards.step_html(replay, s.index, hands=False))
            assert public == seen[s.version], f"round {number} step {s.index}"
            shown = str(boards.step_html(replay, s.index))
            # The same board, with every hand on its row (R21): nothing else differs.
            # (and no pace: a replay moves as its reader steps)
            assert "badge--pace" not in shown
            assert squeeze(REVEAL.sub("", shown)) == squeeze(PACE.sub("", REVEAL.sub("", public)))
            assert shown.count('<div class="reveal') == 3
            checked += 1
    assert checked > 40


@pytest.mark.django_db
def test_a_round_being_played_is_never_replayed(
    ana: Any, ana_client: Client, admin_client_: Client
) -> None:
    match = create(ana, "casual", "expert", seed=99)
    for _ in range(6):
        step(match)
    match.refresh_from_db()
    with pytest.raises(NotReplayable):
        round_replay(match, 1)
    for client in (ana_client, admin_client_):
        page = client.get(f"/m/{match.pk}/replay/?round=1&step=3")
        assert page.status_code == 404
        assert client.get(f"/m/{match.pk}/replay/").status_code == 200  # "nothing has ended yet"
        answer = client.get(f"/m/{match.pk}/replay/step/?round=1&step=3")
        assert answer.status_code == 404
        assert "reveal" not in answer.content.decode()


@pytest.mark.django_db
def test_strangers_and_visitors_cannot_replay(ana: Any, ben: Any) -> None:
    match = create(ana, "casual", seed=5)
    stranger = Client()
    stranger.force_login(ben)
    assert stranger.get(f"/m/{match.pk}/replay/").status_code == 404
    assert stranger.get(f"/m/{match.pk}/replay/step/?round=1").status_code == 404
    assert Client().get(f"/m/{match.pk}/replay/").status_code == 302
