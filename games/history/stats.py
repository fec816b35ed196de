"""Players' stats and ratings, counted from the action log when a match ends.

`match_finished(match)` is the one call the service that ends a match makes, inside
its transaction: it replays each round of the match from its deal and effective log
(`games.log`, the engine), and adds to the record of every account that held a
player's seat — matches, wins and shared wins (R22: the lowest total wins, equal
lowest totals win together), penalty points per round (R21), best and worst round,
rounds gone out (R20), all also by opponents: people (any other person at the
table, on an account or a pass-and-play seat), and the strongest computer level at the
table; a match with both people and computers counts under each. A match among people only (two or more accounts, no computer,
no pass-and-play seat) also moves their openskill ratings (Plackett–Luce), ranked by
total with ties sharing their place (R22); never a match whose creator chose the seed
(R4: they knew every hand; the site seats nobody else there, and a match made before
that rule is kept out here all the same).

`rebuild()` (``manage.py rebuild_stats``) empties everything and counts every
finished match again in the order they finished (finished_at, then id), so it gives
the same numbers as the counts made one by one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F

from engine import rules
from engine.replay import parse_action
from engine.serialize import start_from_json
from games import log
from games.history.models import CountedMatch, PlayerStats
from games.models import LogEntry, Match, Round, Seat

#: rated matches a player needs to appear on the leaderboard
LEADERBOARD_MIN = 3
PEOPLE = "people"
#: opponents' kinds: people, or a computer level (weakest first, Seat.Level)
KINDS = (PEOPLE, *(level.value for level in Seat.Level))


@dataclass(frozen=True)
class MatchFacts:
    players: int
    #: each round's penalty points per seat (R21), round 1 first
    points: tuple[tuple[int, ...], ...]
    #: each round's seat that went out (R20), None when blocked
    out: tuple[int | None, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]


def match_facts(match: Match) -> MatchFacts:
    """The results of a finished match, replayed from its rounds' deals and logs."""
    rounds = list(Round.objects.filter(match=match).order_by("number"))
    entries: dict[int, list[LogEntry]] = {r.pk: [] for r in rounds}
    for e in (
        LogEntry.objects.filter(round__match=match)
        .order_by("round_id", "seq")
        .only("round_id", "kind", "action")
    ):
        entries[e.round_id].append(e)
    points: list[tuple[int, ...]] = []
    out: list[int | None] = []
    state = None
    for rnd in rounds:
        state = rules.start_round(start_from_json(rnd.start))
        for entry in log.fold(entries[rnd.pk]).effective:
            state = rules.apply(state, parse_action(entry.action))
        if not state.over or state.round_points is None:
            raise ValueError(f"round {rnd.number} of match {match.pk} has not ended")
        points.append(tuple(state.round_points))
        out.append(
            next((s for s, h in enumerate(state.hands) if not h), None)
            if state.ended_by == "out"
            else None
        )
    if state is None or state.winners() is None:
        raise ValueError(f"match {match.pk} is not over")
    return MatchFacts(
        players=match.players,
        points=tuple(points),
        out=tuple(out),
        totals=tuple(state.totals),
        winners=tuple(state.winners() or ()),
    )


def opponents_kinds(seats: Iterable[Seat], me: int) -> list[str]:
    """The kinds of opponents seat `me` met: "people" when any other seat is a person (an
    account or a pass-and-play seat), and the strongest computer level among the other seats
    when any is a computer. A match with both counts under both."""
    others = [s for s in seats if s.index != me]
    kinds = []
    if any(s.kind != Seat.Kind.COMPUTER for s in others):
        kinds.append(PEOPLE)
    levels = {s.level for s in others if s.kind == Seat.Kind.COMPUTER}
    for level in reversed(Seat.Level):  # the strongest first
        if level in levels:
            kinds.append(level.value)
            break
    return kinds


def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def count_match(match: Match) -> bool:
    """Add a finished match to its players' stats and ratings; False if it was counted before."""
    _, created = CountedMatch.objects.get_or_create(match=match)
    if not created:
        return False
    facts = match_facts(match)
    seats = list(Seat.objects.filter(match=match).order_by("index"))
    players = [s for s in seats if s.kind == Seat.Kind.HUMAN and s.user_id is not None]
    stats = {
        s.user_id: PlayerStats.objects.select_for_update().get_or_create(user_id=s.user_id)[0]
        for s in players
    }
    shared = len(facts.winners) > 1
    for seat in players:
        st = stats[seat.user_id]
        mine = [p[seat.index] for p in facts.points]
        won = seat.index in facts.winners
        st.matches += 1
        st.wins += won and not shared
        st.shared_wins += won and shared
        st.rounds += len(mine)
        st.penalty_sum += sum(mine)
        st.best_round = min([*mine, *([st.best_round] if st.best_round is not None else [])])
        st.worst_round = max([*mine, *([st.worst_round] if st.worst_round is not None else [])])
        st.rounds_out += sum(1 for o in facts.out if o == seat.index)
        for kind in opponents_kinds(seats, seat.index):
            row = st.by_opponents.setdefault(kind, {"matches": 0, "wins": 0, "shared_wins": 0})
            row["matches"] += 1
            row["wins"] += int(won and not shared)
            row["shared_wins"] += int(won and shared)
    if (
        not match.seed_chosen
        and len(players) == len(seats)
        and len({s.user_id for s in players}) >= 2
    ):
        _rate(facts, players, stats)
    for st in stats.values():
        st.save()
    return True


def _rate(facts: MatchFacts, players: list[Seat], stats: dict[int | None, PlayerStats]) -> None:
    """openskill over a match among people: rank = total, lowest first, equal totals tie (R22)."""
    model = _model()
    teams = []
    for seat in players:
        st = stats[seat.user_id]
        teams.append(
            [
                model.rating(mu=st.rating_mu, sigma=st.rating_sigma)
                if st.rating_mu is not None
                else model.rating()
            ]
        )
    ranks = [facts.totals[s.index] for s in players]
    for seat, team in zip(players, model.rate(teams, ranks=ranks), strict=True):
        st = stats[seat.user_id]
        st.rating_mu, st.rating_sigma = float(team[0].mu), float(team[0].sigma)
        st.rated_matches += 1


def match_finished(match: Match) -> None:
    """Count a match that just ended (in the transaction that ends it)."""
    count_match(match)


def on_match_finished(sender: object, *, match: Match, **kwargs: object) -> None:
    """Receiver of `games.signals.match_finished` (connected in HistoryConfig.ready)."""
    match_finished(match)


def rebuild() -> int:
    """Recount every finished match from the action log; how many were counted."""
    with transaction.atomic():
        PlayerStats.objects.all().delete()
        CountedMatch.objects.all().delete()
        n = 0
        for match in Match.objects.filter(status=Match.Status.FINISHED).order_by(
            F("finished_at").asc(), "pk"
        ):
            n += count_match(match)
        return n


def leaderboard(limit: int = 50) -> list[PlayerStats]:
    """Players with at least `LEADERBOARD_MIN` rated matches, best rating (mean − 3σ) first."""
    rows = list(
        PlayerStats.objects.filter(rated_matches__gte=LEADERBOARD_MIN).select_related("user")
    )
    rows.sort(key=lambda s: (-(s.rating_low or 0.0), s.user.get_username()))
    return rows[:limit]
