"""Creating and joining matches: a match at a new table (`match_create`, its seats given as
`SeatSpec`), a free seat taken (`seat_join`) and, once a match is over, the next one at the
same table (`table_next_match`). A match starts, round 1 dealt, as soon as no seat waits for
a player.

A seed chosen by the creator deals every hand they will play against, so it is taken only
for a table without other people: the creator's own seat, pass-and-play seats on their
device and computers, not listed in the lobby. Such a match has no free seat, and
`seat_join` refuses it all the same.

Rules served: R2 (2 to 10 players), R4 (the seed: given, or random), R5, R6 and R31
(round 1 from 12-12, or the shorter match's first double, and its engine search), R24
(pass-and-play seats), R25 (computer players and their levels), R29 (a new match at the
same table: the same seats and length, a new deal, totals at zero).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Literal

from django.core.exceptions import ValidationError
from django.db import transaction

from accounts import guests, names
from engine import rules
from engine.deal import MAX_PLAYERS, MIN_PLAYERS
from engine.serialize import start_to_json, state_to_json
from games import length
from games.errors import BAD_REQUEST, FORBIDDEN, SEAT_TAKEN, GameError
from games.models import Match, Round, Seat, Table
from games.services.store import _commit, _lock, _pace_unknown, _user_id
from games.words import sentence

#: seeds are below 2**63 (Match.seed is a signed 64-bit integer); a random seed is drawn
#: from all of them with `secrets`, so that a player who knows their own hand cannot search
#: the seeds for the one that deals it (and with it every other hand)
SEED_LIMIT = 2**63
MAX_NAME = 40

SeatKind = Literal["me", "human", "local", "computer"]


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """One seat of a new match: the creator ("me"), a free seat for an invited player
    ("human"), a pass-and-play seat on the creator's device ("local", R24) or a
    computer player ("computer", R25) with a level: "beginner", "casual" or "expert"
    (engine.bots.LEVELS)."""

    kind: SeatKind
    name: str = ""
    level: str = ""


def _check_specs(seats: list[SeatSpec], *, creator_id: int | None = None) -> None:
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise GameError(BAD_REQUEST, sentence("seat_count"))
    if sum(1 for s in seats if s.kind == "me") > 1:
        raise GameError(BAD_REQUEST, sentence("one_seat_yourself"))
    for spec in seats:
        if spec.kind not in ("me", "human", "local", "computer"):
            raise GameError(BAD_REQUEST, sentence("unknown_seat_kind"))
        if spec.kind == "computer" and _level(spec.level) not in Seat.Level.values:
            raise GameError(BAD_REQUEST, sentence("computer_levels"))
        if spec.kind != "computer" and spec.level:
            raise GameError(BAD_REQUEST, sentence("level_for_computers"))
        if len(spec.name) > MAX_NAME:
            raise GameError(BAD_REQUEST, sentence("name_length"))
        try:
            names.validate_name(spec.name)
        except ValidationError as e:
            raise GameError(BAD_REQUEST, " ".join(e.messages)) from None
        # A pass-and-play name is not another user's name, nor looks like one.
        if (
            spec.kind == "local"
            and spec.name.strip()
            and names.looks_like_a_user(spec.name.strip(), exclude_pk=creator_id)
        ):
            raise GameError(BAD_REQUEST, sentence("name_lookalike"))


def _level(level: object) -> str:
    """A computer level's name as given (engine.bots.LEVELS); anything else is left for the
    check to refuse."""
    return level if isinstance(level, str) else ""


def _pace(pace: object) -> str:
    if not isinstance(pace, str) or pace not in Match.Pace.values:
        raise GameError(BAD_REQUEST, _pace_unknown())
    return pace


def _new_seed(seed: object) -> int:
    if seed is None:
        return secrets.randbelow(SEED_LIMIT)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise GameError(BAD_REQUEST, sentence("seed_range"))
    return seed


def _new_match(
    *,
    table: Table,
    number: int,
    creator: Any,
    seats: list[tuple[str, Any, str, str]],
    seed: int,
    listed: bool,
    seed_chosen: bool = False,
    pace: str = "normal",
    away_limit: str = "1h",
    rounds: int = length.STANDARD,
) -> Match:
    """A match with its seats (kind, user, name, level); started at once when no seat is free."""
    match = Match.objects.create(
        table=table,
        number=number,
        seed=seed,
        seed_chosen=seed_chosen,
        players=len(seats),
        listed=listed,
        pace=pace,
        away_limit=away_limit,
        length=rounds,
        invite_token=secrets.token_urlsafe(16),
        watch_token=secrets.token_urlsafe(16),
        created_by=creator,
    )
    Seat.objects.bulk_create(
        Seat(match=match, index=i, kind=kind, user=user, name=name, level=level)
        for i, (kind, user, name, level) in enumerate(seats)
    )
    if not any(kind == Seat.Kind.HUMAN and user is None for kind, user, _name, _level in seats):
        _start(match)
        _commit(match, match.version + 1)
    return match


def _start(match: Match) -> None:
    """Deal round 1 (R4, R5; from the match's first double, R31), search for the engine (R6)
    and start playing."""
    state = rules.new_match_round(match.players, match.seed, rounds=match.length)
    Round.objects.create(match=match, number=1, start=start_to_json(state.start))
    match.state = state_to_json(state)
    match.round_number = 1
    match.status = Match.Status.PLAYING


def match_create(
    *,
    creator: Any,
    seats: list[SeatSpec],
    seed: int | None = None,
    listed: bool = True,
    pace: str = "normal",
    away_limit: str = "1h",
    rounds: object = length.STANDARD,
) -> Match:
    """Create a match at a new table; it starts at once when no seat waits for a player.
    `pace`: how fast its computers move (Match.Pace), changed later at the table (games.table.commands.pace);
    `away_limit`: how long a seat may stay away before a computer may play it
    (Match.AwayLimit, games.attendance.standin), changed later at the table (games/table/commands/away_limit.py);
    `rounds`: the match's length (R31, games.length), 13 rounds from 12-12 by default;
    `seed`: the deal (R4), random when None; a chosen one only with no free seat and not
    listed, since whoever chooses it knows every hand."""
    if _user_id(creator) is None:
        raise GameError(FORBIDDEN, sentence("sign_in_to_create"))
    seats = list(seats)
    _check_specs(seats, creator_id=_user_id(creator))
    chosen_rounds = length.parse(rounds)
    if chosen_rounds is None:
        raise GameError(BAD_REQUEST, length.refused(), rule="R31")
    chosen = _new_seed(seed)
    if seed is not None and (listed or any(spec.kind == "human" for spec in seats)):
        raise GameError(BAD_REQUEST, sentence("seed_alone"), rule="R4")
    pace = _pace(pace)
    if away_limit not in Match.AwayLimit.values:
        raise GameError(BAD_REQUEST, sentence("away_limits"))
    rows: list[tuple[str, Any, str, str]] = []
    for spec in seats:
        if spec.kind == "me":
            rows.append((str(Seat.Kind.HUMAN), creator, "", ""))
        elif spec.kind == "human":
            rows.append((str(Seat.Kind.HUMAN), None, "", ""))
        elif spec.kind == "local":
            rows.append((str(Seat.Kind.LOCAL), creator, names.normalise(spec.name.strip()), ""))
        else:
            rows.append(
                (
                    str(Seat.Kind.COMPUTER),
                    None,
                    names.normalise(spec.name.strip()),
                    _level(spec.level),
                )
            )
    with transaction.atomic():
        table = Table.objects.create(created_by=creator)
        return _new_match(
            table=table,
            number=1,
            creator=creator,
            seats=rows,
            seed=chosen,
            seed_chosen=seed is not None,
            listed=listed,
            pace=pace,
            away_limit=away_limit,
            rounds=chosen_rounds,
        )


def seat_join(
    *, match_id: int, user: Any, token: str | None = None, seat_index: int | None = None
) -> Seat:
    """Take a free player's seat with the invitation token (not needed for a match listed in
    the lobby); the match starts when the last free seat is taken. Joining again gives back
    the seat already held."""
    with transaction.atomic():
        match = _lock(match_id)
        if _user_id(user) is None:
            raise GameError(FORBIDDEN, sentence("sign_in_to_join"))
        if token is None:
            if not match.listed:
                raise GameError(FORBIDDEN, sentence("invitation_only"))
        elif not secrets.compare_digest(str(token), match.invite_token):
            raise GameError(FORBIDDEN, sentence("bad_invitation"))
        held = Seat.objects.filter(match=match, kind=Seat.Kind.HUMAN, user=user).first()
        if held is not None:
            return held
        if match.seed_chosen:  # its creator knows every hand: nobody else sits there
            raise GameError(FORBIDDEN, sentence("seed_chosen_no_join"), rule="R4")
        if match.status != Match.Status.WAITING:
            raise GameError(SEAT_TAKEN, sentence("match_full"))
        free = Seat.objects.filter(match=match, kind=Seat.Kind.HUMAN, user__isnull=True).order_by(
            "index"
        )
        if seat_index is not None:
            free = free.filter(index=seat_index)
        seat = free.first()
        if seat is None:
            raise GameError(SEAT_TAKEN, sentence("seat_taken"))
        seat.user = user
        seat.save(update_fields=["user"])
        if not Seat.objects.filter(match=match, kind=Seat.Kind.HUMAN, user__isnull=True).exists():
            _start(match)
        _commit(match, match.version + 1)
        return seat


def table_next_match(*, old: Match, creator: Any, seats: list[tuple[str, Any, str, str]]) -> Match:
    """R29: the match that follows `old` at its table, with `seats` (kind, user, name, level)
    and `creator`: `old`'s length (R31), pace, away limit and listing, a new random deal,
    round 1 (12-12, or the shorter match's first double) and totals at zero; it starts at
    once unless a seat waits for a player. The old match and its log stay as they are. The
    caller holds `old`'s row locked (games.table.commands.play_again decides who plays)."""
    return _new_match(
        table=old.table,
        number=old.number + 1,
        creator=creator,
        seats=seats,
        seed=_new_seed(None),
        listed=old.listed and not guests.is_guest(creator),  # a guest's tables are private
        pace=old.pace,
        away_limit=old.away_limit,
        rounds=old.length,
    )
