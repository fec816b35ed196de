"""``away_limit``: how long a seat may stay away before the others may let a computer play it
(a seated person; asked of the others at a shared table, games.consent): ``limit``,
``request_id``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games import consent, services
from games.commands import Spec
from games.commands.fields import LIMIT, REQUEST_ID
from games.errors import BAD_REQUEST, ILLEGAL, GameError
from games.models import Match
from games.services import Result
from games.table.commands.pace import MAY
from games.words import refusal, sentence

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command


# ---------------------------------------------------------------- its words

#: what changing the away limit says to players, by key (a feature's words live in its module)
WORDS: dict[str, Promise] = {
    # asked of the others at a shared table: the banners, the log's lines, the answer
    "mine": _("You asked to change how long a seat may stay away."),
    "theirs": _("%(name)s asks to change how long a seat may stay away."),
    "log_ask": _("%(name)s asks to change how long a seat may stay away"),
    "log_accept": _("%(name)s accepted the new away limit"),
    "log_decline": _("%(name)s declined the new away limit"),
    "log_expire": _("Nobody answered the request to change the away limit in time"),
    "log_void": _("The request to change the away limit is no longer possible"),
    "declined": _("%(name)s declined your request to change how long a seat may stay away."),
    "expired": _("Nobody answered your request to change how long a seat may stay away in time."),
}


def away_limit_set(*, match_id: int, user: object, limit: object, request_id: str) -> Result:
    """A seated person sets how long a seat may stay away before the others may let a
    computer play it (Match.AwayLimit). Alone with computers it is set at once; at a table
    shared with other people it is asked of them (games.consent ``away_limit``:
    one person could otherwise shorten it, wait, hand the other's seat to a computer and
    then change the round without anyone's consent)."""

    def check(match: Match, state: object) -> None:
        if not isinstance(limit, str) or limit not in Match.AwayLimit.values:
            raise GameError(BAD_REQUEST, sentence("away_limits"))
        if match.status == Match.Status.FINISHED:
            raise GameError(ILLEGAL, refusal("match_over"))
        if limit == match.away_limit:
            raise GameError(BAD_REQUEST, sentence("same_setting"))

    def make(p: consent.Pending) -> None:
        check(p.match, p.state)
        p.match.away_limit = str(limit)
        Match.objects.filter(pk=p.match.pk).update(away_limit=str(limit))

    return services.asked_or_done(
        match_id=match_id,
        user=user,
        request_id=request_id,
        action=MAY,
        change="away_limit",
        check=check,
        make=make,
        value=limit if isinstance(limit, str) else "",
    )


def consent_away_limit(p: consent.Pending) -> None:
    """What an accepted away-limit request does (the consent kind "away_limit"): the table's limit
    becomes the one asked for (``ChangeRequest.value``), if it still differs."""
    assert p.request is not None
    limit = p.request.value
    if limit not in Match.AwayLimit.values or p.match.status == Match.Status.FINISHED:
        raise GameError(ILLEGAL, refusal("match_over"))
    if limit == p.match.away_limit:
        raise GameError(BAD_REQUEST, sentence("same_setting"))
    p.match.away_limit = limit
    Match.objects.filter(pk=p.match.pk).update(away_limit=limit)


#: asked of the others at a shared table (games.consent); the request carries the new limit
KIND = consent.register(
    consent.Kind(
        name="away_limit",
        label=_("Away limit"),
        **consent.words_of(WORDS),
        done=consent_away_limit,
    )
)


async def handle(t: Connection, c: Command) -> None:
    result = await t.call(
        away_limit_set,
        match_id=t.match_id,
        user=t.user,
        limit=c.limit,
        request_id=c.request_id,
    )
    await t.ack(c, result)


command = Spec(
    "away_limit",
    (LIMIT, REQUEST_ID),
    handle,
    says="how long a seat may be away before a computer may play it, `limit`: `never`, `10m`, `1h` or `1d` (consent at a shared table)",
)
