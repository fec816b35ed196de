"""``stand_in`` and ``take_back``: a computer plays an away person's seat until its owner
takes it back (``seat``, ``request_id``): the services `standin_start` and `standin_end` on
games.attendance.standin's facts (who is away, since when, the table's limit) and the table
settings' kernel (`services.seated_change`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.utils import timezone
from django.utils.translation import gettext as _

from games import permissions, services
from games.attendance import presence
from games.attendance.standin import LEVEL, away_since, may_hand_over
from games.commands import Handler, Spec
from games.commands.fields import REQUEST_ID, SEAT
from games.errors import BAD_REQUEST, ILLEGAL, GameError
from games.models import AWAY_SECONDS, Match, Seat, StandIn
from games.services import Result
from games.words import sentence

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command

#: who may let a computer play a seat: a player, for a person's seat (a player's or a
#: pass-and-play one) of someone else; *when* (its owner away past the table's limit) is
#: `standin_start`'s check
MAY_STAND_IN = permissions.rule(
    "stand_in",
    lambda can, seat, request: bool(can.mine) and seat in can.other_seats,
    lambda: sentence("others_stand_in"),
)
#: who may take a seat back from the computer standing in: its owner only, any time
MAY_TAKE_BACK = permissions.rule(
    "take_back",
    lambda can, seat, request: seat in can.own_seats,
    lambda: sentence("owner_takes_back"),
)


def standin_start(*, match_id: int, user: Any, seat: object, request_id: str) -> Result:
    """Let a computer (`LEVEL`) play `seat` until its owner takes it back: asked by another
    person seated at the match, once the seat has been away longer than the table's limit."""
    index = _index(seat)

    def hand_over(match: Match, seats: list[Seat]) -> None:
        target = seats[index]  # type: ignore[index]  # the permission found the seat
        if match.status != Match.Status.PLAYING:
            raise GameError(ILLEGAL, sentence("not_being_played"))
        if target.standin:
            raise GameError(BAD_REQUEST, sentence("standin_already"))
        if AWAY_SECONDS.get(match.away_limit) is None:
            raise GameError(ILLEGAL, sentence("no_standins_here"))
        now = timezone.now()
        at = presence.at_table(match.pk, now)
        if away_since(match, target, at) is None:
            raise GameError(ILLEGAL, sentence("at_the_table", name=target.display_name))
        if not may_hand_over(match, target, at, now):
            raise GameError(
                ILLEGAL,
                sentence(
                    "away_less_than", name=target.display_name, limit=_limit_words(match.away_limit)
                ),
            )
        target.standin = LEVEL
        target.save(update_fields=["standin"])
        StandIn.objects.create(
            match=match,
            seat=target.index,
            level=LEVEL,
            handed_by=user,
            round_number=match.round_number,
            version=match.version + 1,
            started_at=now,
        )

    return services.seated_change(
        match_id=match_id,
        user=user,
        request_id=request_id,
        action=MAY_STAND_IN,
        seat=index,
        change=hand_over,
    )


def standin_end(*, match_id: int, user: object, seat: object, request_id: str) -> Result:
    """Its owner takes `seat` back from the computer standing in for them (any time)."""
    index = _index(seat)

    def take_back(match: Match, seats: list[Seat]) -> None:
        target = seats[index]  # type: ignore[index]  # the permission found the seat
        if not target.standin:
            raise GameError(BAD_REQUEST, sentence("seat_is_yours"))
        target.standin = ""
        target.save(update_fields=["standin"])
        StandIn.objects.filter(match=match, seat=target.index, ended_at__isnull=True).update(
            ended_at=timezone.now(), ended_by=user
        )

    return services.seated_change(
        match_id=match_id,
        user=user,
        request_id=request_id,
        action=MAY_TAKE_BACK,
        seat=index,
        change=take_back,
    )


def _index(seat: object) -> int | None:
    """A seat's number as the client sent it (None: not a number; the permission refuses it)."""
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else None


def _limit_words(limit: str) -> str:
    return {"10m": _("10 minutes"), "1h": _("an hour"), "1d": _("a day")}.get(limit, "")


def _seat_change(service: Callable[..., Any]) -> Handler:
    async def handle(t: Connection, c: Command) -> None:
        result = await t.call(
            service, match_id=t.match_id, user=t.user, seat=c.seat, request_id=c.request_id
        )
        await t.ack(c, result)

    return handle


commands = [
    Spec(
        "stand_in",
        (SEAT, REQUEST_ID),
        _seat_change(standin_start),
        says="a computer plays an away player's seat",
    ),
    Spec(
        "take_back",
        (SEAT, REQUEST_ID),
        _seat_change(standin_end),
        says="its owner takes the seat back from the computer",
    ),
]
