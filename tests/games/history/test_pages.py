"""The pages that look back: a match's chart and round table (13 points per seat after 13
rounds), player pages with their record and replay links, the leaderboard, and "My
matches" with the matches waiting for you first."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games.history.models import PlayerStats
from games.history.stats import LEADERBOARD_MIN
from games.models import Round
from tests.games.history.fabricate import finished_match
from tests.games.matches import create

pytestmark = pytest.mark.django_db


def client_for(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_match_page_draws_13_points_per_seat_and_the_round_table(make_user: Any) -> None:
    ana, ben = make_user("ana"), make_user("ben")
    match = finished_match([ana, ben, "casual"], seed=314)
    html = client_for(ana).get(f"/m/{match.pk}/about/").content.decode()
    for seat in (1, 2, 3):
        assert len(re.findall(rf'class="chart__point" data-seat="{seat}"', html)) == 13
    last = Round.objects.get(match=match, number=13)
    for total in last.totals:
        assert f": total {total}</title>" in html
    assert html.count("<tr>") >= 14  # the header and 13 rounds
    out_rounds = Round.objects.filter(match=match, ended_by="out").count()
    assert html.count('<span class="badge">out</span>') == out_rounds
    assert f'href="/m/{match.pk}/replay/"' in html
    # a stranger sees neither the match nor its chart
    assert client_for(make_user("cy")).get(f"/m/{match.pk}/about/").status_code == 404


def test_player_page_shows_record_rating_and_history(make_user: Any) -> None:
    ana, ben = make_user("ana"), make_user("ben")
    matches = [finished_match([ana, ben], seed=s) for s in (1, 2, 3)]
    st = PlayerStats.objects.get(user=ana)
    html = client_for(ben).get("/players/ana/").content.decode()
    assert f'<dd id="stat-matches">{st.matches}</dd>' in html and st.matches == 3
    assert f'<dd id="stat-wins">{st.wins}</dd>' in html
    assert "±" in html and st.rated_matches == 3
    for m in matches:
        assert f'href="/m/{m.pk}/replay/"' in html
    board = client_for(ben).get("/players/").content.decode()
    assert LEADERBOARD_MIN == 3
    assert 'href="/players/ana/"' in board and 'href="/players/ben/"' in board
    assert client_for(ben).get("/players/nobody/").status_code == 404
    assert Client().get("/players/ana/").status_code == 302


def test_by_opponents_lists_the_people_met_at_a_table_with_computers(make_user: Any) -> None:
    ana, ben = make_user("ana"), make_user("ben")
    finished_match([ana, ben, "casual"], seed=8)
    html = client_for(ben).get("/players/ana/").content.decode()
    rows = re.findall(r'<th scope="row">([^<]*)</th>', html.split("By opponents")[1])
    assert rows == ["against people", "against casual computers"], rows
    assert "counts in both rows" in html  # says why the rows add up to more than the matches


def test_my_matches_puts_your_turn_first_with_a_badge(make_user: Any) -> None:
    ana = make_user("ana")
    waiting = create(ana, "human", seed=3)  # a free seat: nobody's turn yet
    mine = create(ana, "casual", seed=21)
    from tests.games.history.test_turn_mail import on_turn

    on_turn(mine)
    html = client_for(ana).get("/matches/").content.decode()
    assert html.count("badge--turn") == 1
    assert html.index(f"Match {mine.pk}") < html.index(f"Match {waiting.pk}")


def test_the_match_end_on_the_table_links_to_the_replay_and_scores(make_user: Any) -> None:
    ana = make_user("ana")
    match = finished_match([ana, "casual"], seed=99)
    html = client_for(ana).get(f"/m/{match.pk}/").content.decode()
    assert "The match is over" in html
    assert f'href="/m/{match.pk}/replay/"' in html
    watcher = Client().get(f"/m/{match.pk}/?watch={match.watch_token}").content.decode()
    assert "The match is over" in watcher and f'href="/m/{match.pk}/replay/"' not in watcher


def test_my_matches_and_the_player_page_share_one_pager(make_user: Any, monkeypatch: Any) -> None:
    """Both lists of finished matches page the same way (templates/partials/pager.html),
    each with its own name for the pages."""
    from games.history import players
    from games.lobby import views

    monkeypatch.setattr(views, "FINISHED_PER_PAGE", 1)
    monkeypatch.setattr(players, "PER_PAGE", 1)
    ana, ben = make_user("ana"), make_user("ben")
    for seed in (11, 12):
        finished_match([ana, ben], seed=seed)
    client = client_for(ana)
    for path, label in [
        ("/matches/", "Finished matches, pages"),
        ("/players/ana/", "Match history, pages"),
    ]:
        first = client.get(path).content.decode()
        assert f'<nav class="pager" aria-label="{label}">' in first, path
        assert (
            "Page 1 of 2" in first and 'href="?page=2">Older</a>' in first and "Newer" not in first
        )
        second = client.get(path + "?page=2").content.decode()
        assert (
            "Page 2 of 2" in second
            and 'href="?page=1">Newer</a>' in second
            and "Older" not in second
        )


def test_player_page_ranks_each_matchs_players_by_final_score(make_user: Any) -> None:
    """Each match's seats were listed in seat order, which read like a ranking: they
    are ranked by final total with their places, lowest first, the player marked."""
    ana, ben = make_user("ana"), make_user("ben")
    seats = [ana, "casual", ben]
    names_in_seat_order = ["ana", "Computer", "ben"]
    for seed in range(1, 20):  # a match whose ranking is not its seat order
        match = finished_match(seats, seed=seed)
        totals = match.state["totals"]
        if sorted(totals) != totals and len(set(totals)) == 3:
            break
    else:
        pytest.fail("no such match")
    html = client_for(ben).get("/players/ana/").content.decode()
    # the match's row: its ranking comes before its replay link
    cell = html[
        html.rindex('class="history-seats"', 0, html.index(f'href="/m/{match.pk}/replay/"')) :
    ]
    cell = cell[: cell.index("</ol>")]
    names = re.findall(
        r'<bdi class="pname" title="[^"]*">([A-Za-z]+)', cell
    )  # "Computer 2": "Computer"
    by_score = sorted(zip(totals, names_in_seat_order, strict=True), key=lambda p: p[0])
    assert names == [n for _t, n in by_score], (names, totals)
    places = [int(p) for p in re.findall(r'class="ranking__place">(\d+)\.', cell)]
    assert places == [1 + sum(t < mine for t in totals) for mine, _n in by_score]
    assert '<li class="history-seats__me ranking__me"><span class="ranking__place">' in cell
    assert cell.count("ranking__me") == 1
    assert "Final ranking (points)" in html
