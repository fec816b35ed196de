"""``last_round``: "End the match after this round" (R32): ``version``, ``request_id``.

The round in play becomes the match's last: when it ends the match is over, scored as
R21-R22, and history, ratings and replays read it as finished (the engine's
``RoundStart.final``, kept through a restart of the round, R28). A player asks it (`MAY`:
a player of the match, its creator only when they play a seat); at a table shared with other
people it is asked of them (`KIND`, games.consent), alone with computers it is done at once. The round's log says it (a
``last_round`` entry), its stored start keeps it (so its replay ends the match), and a
match's replay file says it with ``{"act": "last_round"}``.

The board offers it in the table's menu (`offer`, ``games/commands/last_round.html``) to a
player of a match in play whose round is in play, is not its last already and while no
request waits for answers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from engine import rules
from engine.serialize import start_to_json
from engine.state import IllegalAction, RoundState
from games import consent, log, permissions, services
from games.log.words import last_round_line
from games.models import Match, Round
from games.services import Result
from games.table.commands import Offer, OfferContext, Spec
from games.table.commands.fields import REQUEST_ID, VERSION
from games.table.words import last_round_offer
from games.words import change_words, sentence

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command

#: who may: a player of the match (its creator only when they play a seat too)
MAY = permissions.rule(
    "last_round",
    lambda can, seat, request: bool(can.mine),
    lambda: sentence("players_last_round"),
)


def _check(match: Match, state: RoundState) -> None:
    """Refuse (changing nothing) unless the round in play may be made the last."""
    try:
        rules.last_round(state)
    except IllegalAction as e:
        raise services.refused_by_engine(match, e) from None


def consent_done(p: consent.Pending) -> None:
    """Make the round in play the match's last (alone, or once the others accepted)."""
    _check(p.match, p.state)
    new = rules.last_round(p.state)
    services.log_entry(p.round, kind=LOG.name, version=p.version, user=p.asker)
    Round.objects.filter(pk=p.round.pk).update(start=start_to_json(new.start))
    services.store_state(p.match, p.round, new)


#: its line in the round's log: who made the round the match's last
LOG = log.register(log.Kind("last_round", _("Last round"), last_round_line))

#: asked of the others at a shared table (games.consent)
KIND = consent.register(
    consent.Kind(
        name="last_round",
        label=pgettext_lazy("a change asked of the others", "End after this round"),
        **change_words("last_round"),
        done=consent_done,
    )
)


def end_after_this_round(
    *, match_id: int, user: object, expected_version: int, request_id: str
) -> Result:
    """R32: make the round in play the match's last, asked of the others at a shared table."""
    return services.asked_or_done(
        match_id=match_id,
        user=user,
        request_id=request_id,
        action=MAY,
        change=KIND.name,
        check=_check,
        make=consent_done,
        expected_version=expected_version,
    )


async def handle(t: Connection, c: Command) -> None:
    result = await t.call(
        end_after_this_round,
        match_id=t.match_id,
        user=t.user,
        expected_version=c.version,
        request_id=c.request_id,
    )
    await t.ack(c, result)


def offer(ctx: OfferContext) -> Offer | None:
    """Offered to a player while the round is in play and is not the match's last yet."""
    match, view = ctx.match, ctx.view
    if ctx.waiting or not ctx.mine or match.status != Match.Status.PLAYING:
        return None
    if view.phase in ("round_over", "match_over") or view.round >= match.length:
        return None
    if (match.state or {}).get("start", {}).get("final"):
        return None
    can = ctx.can()
    if not can.can(MAY):
        return None
    shared = can.consent  # asked of the others at a shared table
    return Offer(
        "last_round",
        "games/commands/last_round.html",
        last_round_offer(shared),
    )


command = Spec("last_round", (VERSION, REQUEST_ID), handle, offer)
