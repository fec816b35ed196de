"""Players' stats and ratings (R20–R22): hand-checked small cases, ties as shared wins,
and `rebuild_stats` giving the very numbers counted when each match ended."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.core.management import call_command

from games.history.models import CountedMatch, PlayerStats
from games.history.stats import LEADERBOARD_MIN, count_match, match_facts, opponents_kinds
from games.models import LogEntry, Match, Round, Seat
from games.services import SeatSpec
from tests import seeded
from tests.games.history.fabricate import finished_match

pytestmark = pytest.mark.django_db


def numbers() -> dict[int, tuple[Any, ...]]:
    return {
        s.user_id: (
            s.matches,
            s.wins,
            s.shared_wins,
            s.rounds,
            s.penalty_sum,
            s.best_round,
            s.worst_round,
            s.rounds_out,
            s.by_opponents,
            s.rated_matches,
            None if s.rating_mu is None else round(s.rating_mu, 9),
            None if s.rating_sigma is None else round(s.rating_sigma, 9),
        )
        for s in PlayerStats.objects.all()
    }


def test_a_match_against_a_computer_hand_checked(make_user: Any) -> None:
    ana = make_user("ana")
    match = finished_match([ana, "expert"], seed=31)
    rounds = list(Round.objects.filter(match=match).order_by("number"))
    mine = [r.points[0] for r in rounds]
    st = PlayerStats.objects.get(user=ana)
    assert (st.matches, st.rounds) == (1, 13)
    assert st.penalty_sum == sum(mine) == rounds[-1].totals[0]
    assert st.best_round == min(mine) and st.worst_round == max(mine)
    assert st.average_penalty == pytest.approx(sum(mine) / 13)
    facts = match_facts(match)
    won = facts.totals[0] <= facts.totals[1]
    shared = facts.totals[0] == facts.totals[1]
    assert (st.wins, st.shared_wins) == (int(won and not shared), int(shared))
    # R20: a round is gone out by the seat whose hand emptied; its penalty is 0 (R21)
    outs = [
        r
        for r in rounds
        if r.ended_by == "out" and r.points[0] == 0 and facts.out[r.number - 1] == 0
    ]
    assert st.rounds_out == len(outs)
    assert st.by_opponents == {
        "expert": {"matches": 1, "wins": st.wins, "shared_wins": st.shared_wins}
    }
    # no rating from a match against a computer
    assert st.rating_mu is None and st.rated_matches == 0
    assert not count_match(match)  # counted once
    assert PlayerStats.objects.get(user=ana).matches == 1


def test_opponent_kinds_are_people_met_and_the_strongest_computer() -> None:
    seats = [
        Seat(index=0, kind="human"),
        Seat(index=1, kind="computer", level="casual"),
        Seat(index=2, kind="computer", level="expert"),
    ]
    assert opponents_kinds(seats, 0) == ["expert"]
    assert opponents_kinds(seats[:2], 0) == ["casual"]
    assert opponents_kinds([Seat(index=0, kind="human"), Seat(index=1, kind="human")], 0) == [
        "people"
    ]
    # People met at a table with computers count as people too (and the computers as theirs).
    mixed = [*seats[:2], Seat(index=2, kind="human")]
    assert opponents_kinds(mixed, 0) == ["people", "casual"]
    assert opponents_kinds([*seats[:2], Seat(index=2, kind="local")], 0) == ["people", "casual"]


def test_a_tie_is_a_shared_win_and_shares_the_rating(make_user: Any) -> None:
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    match = finished_match([ana, ben, cy], seed=5, count=False)
    # R22: make ana and ben tie for the lowest total, cy behind
    last = Round.objects.get(match=match, number=13)
    low = min(last.totals)
    Round.objects.filter(pk=last.pk).update(totals=[low, low, low + 7])
    from games.history import stats

    real = stats.match_facts

    def tied(m: Match) -> stats.MatchFacts:
        f = real(m)
        return stats.MatchFacts(f.players, f.points, f.out, (low, low, low + 7), (0, 1))

    stats.match_facts = tied
    try:
        count_match(match)
    finally:
        stats.match_facts = real
    a, b, c = (PlayerStats.objects.get(user=u) for u in (ana, ben, cy))
    assert (a.wins, a.shared_wins, b.wins, b.shared_wins, c.wins, c.shared_wins) == (
        0,
        1,
        0,
        1,
        0,
        0,
    )
    assert a.by_opponents["people"] == {"matches": 1, "wins": 0, "shared_wins": 1}
    # openskill: a shared place moves both the same way, above the third
    assert a.rating_mu == pytest.approx(b.rating_mu) and a.rating_mu > 25 > c.rating_mu
    assert a.rating_sigma < 25 / 3 and a.rated_matches == 1


def test_a_pass_and_play_or_computer_seat_means_no_rating(make_user: Any) -> None:
    ana, ben = make_user("ana"), make_user("ben")
    finished_match([ana, ben, "casual"], seed=8)
    assert all(s.rated_matches == 0 for s in PlayerStats.objects.all())
    by = PlayerStats.objects.get(user=ben).by_opponents
    assert by["casual"]["matches"] == 1 and by["people"]["matches"] == 1  # ben met ana too


def rebuild_equals_incremental(n: int, make_user: Any) -> None:
    rng = random.Random(n)
    users = [make_user(f"p{i}") for i in range(6)]
    for k in range(n):
        size = rng.randint(2, 4)
        seats: list[Any] = rng.sample(users, size)
        if rng.random() < 0.3:
            seats[rng.randrange(1, size)] = rng.choice(["casual", "expert"])
        finished_match(seats, seed=rng.randrange(10**9), undo_rng=random.Random(k))
    counted = numbers()
    assert CountedMatch.objects.count() == n
    call_command("rebuild_stats", verbosity=0)
    assert numbers() == counted
    assert sum(s.matches for s in PlayerStats.objects.all()) > n


def test_rebuild_gives_the_incremental_numbers(make_user: Any) -> None:
    rebuild_equals_incremental(6, make_user)


@pytest.mark.slow
def test_rebuild_gives_the_incremental_numbers_over_many_matches(make_user: Any) -> None:
    """40 matches hold every case 200 did (2026-12-03: 200 took 160 s on a busy machine, 40
    take a fifth): what a rebuild could get wrong is per match (the log folded past its
    undos, the opponents' kind, who won) or in the order of the ratings' updates, and each
    shows on a person's first few matches; more matches only repeat them. So the cases are
    asserted, not left to the number: 2, 3 and 4 seats, people only and with either computer
    level, persons beating a computer, undone actions, and every person's rating updated at
    least twice the leaderboard's minimum times. (A tie among people is in neither set: the
    200 held one tie, with a computer; test_a_tie_is_a_shared_win_and_shares_the_rating.)"""
    rebuild_equals_incremental(40, make_user)
    stats = list(PlayerStats.objects.all())
    assert set(Match.objects.values_list("players", flat=True)) == {2, 3, 4}
    assert set().union(*(s.by_opponents for s in stats)) == {"people", "casual", "expert"}
    assert (
        sum(
            s.by_opponents.get(kind, {}).get("wins", 0)
            for s in stats
            for kind in ("casual", "expert")
        )
        > 0
    )
    assert LogEntry.objects.filter(kind="undo").exists()
    assert len(stats) == 6 and min(s.rated_matches for s in stats) >= 2 * LEADERBOARD_MIN


@pytest.mark.slow  # a whole match through the services
def test_the_service_that_ends_a_match_counts_it(make_user: Any) -> None:
    """Played through the services to the end of its last round (a match of three rounds:
    the thirteen of a standard one are counted alike, and take four times as long): the
    stats are there when the match is finished (the same transaction), and a rebuild gives
    the same numbers."""
    from tests.games.matches import step

    ana = make_user("ana")
    match = seeded.match_create(
        creator=ana,
        seats=[SeatSpec("me"), SeatSpec("computer", name="Computer 2", level="casual")],
        seed=606,
        rounds=3,
    )
    for _ in range(5000):
        if not step(match):
            break
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    st = PlayerStats.objects.get(user=ana)
    assert (st.matches, st.rounds) == (1, 3)
    assert st.penalty_sum == match.state["totals"][0]
    counted = numbers()
    call_command("rebuild_stats", verbosity=0)
    assert numbers() == counted


def test_a_match_whose_creator_chose_the_seed_is_never_rated(make_user: Any) -> None:
    """R4: whoever chose the seed knew every hand. The site seats nobody else at such a
    match; one made before that rule, among people, is counted but not rated."""
    ana, ben = make_user("ana"), make_user("ben")
    chosen = finished_match([ana, ben], seed=41, count=False)
    Match.objects.filter(pk=chosen.pk).update(seed_chosen=True)
    chosen.refresh_from_db()
    assert count_match(chosen)
    stats = list(PlayerStats.objects.all())
    assert len(stats) == 2
    assert all(s.matches == 1 and s.rated_matches == 0 and s.rating_mu is None for s in stats)
    finished_match([ana, ben], seed=42)  # the same people, a seed nobody chose: rated
    assert all(s.rated_matches == 1 for s in PlayerStats.objects.all())
    call_command("rebuild_stats")
    assert all(s.rated_matches == 1 for s in PlayerStats.objects.all())
