"""``skip``: "Skip to my turn": the computers play without waiting until a person is to act:
``request_id``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.commands import Spec
from games.commands.fields import REQUEST_ID
from games.errors import BAD_REQUEST, ILLEGAL, GameError
from games.models import Match, Seat
from games.services import Result, seated_change
from games.services.store import _started
from games.table.commands.pace import MAY
from games.words import sentence

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command


def hurry_start(*, match_id: int, user: object, request_id: str) -> Result:
    """ "Skip to my turn": a seated person has the computers play at once, with no wait
    between their moves, until a person of the table is to act again (`computer_step`
    then returns the match to its pace). Only while a computer is to act."""

    def change(match: Match, seats: list[Seat]) -> None:
        state = _started(match)
        if (
            match.status == Match.Status.FINISHED
            or state.turn is None
            or not seats[state.turn].computer_plays
        ):
            raise GameError(ILLEGAL, sentence("no_computer_due"))
        if match.hurry:
            raise GameError(BAD_REQUEST, sentence("hurrying_already"))
        match.hurry = True  # committed with the next version (`seated_change` keeps match.hurry)

    return seated_change(
        match_id=match_id, user=user, request_id=request_id, action=MAY, change=change
    )


async def handle(t: Connection, c: Command) -> None:
    result = await t.call(hurry_start, match_id=t.match_id, user=t.user, request_id=c.request_id)
    await t.ack(c, result)


command = Spec(
    "skip",
    (REQUEST_ID,),
    handle,
    says='"Skip to my turn": computers play without waiting until a person is to act',
)
