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

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from engine import rules
from engine.serialize import start_to_json
from engine.state import IllegalAction, RoundState
from games import consent, log, permissions, services
from games.board.jinja_env import active_language, per_language
from games.commands import Offer, OfferContext, Spec
from games.commands.fields import REQUEST_ID, VERSION
from games.models import Match, Round
from games.services import Result

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command

# ---------------------------------------------------------------- its words

#: everything "End the match after this round" says to players, by key: who may, its menu
#: item and dialog, its log line, and the change asked of the others (games.consent takes
#: its words by the `Kind`'s fields). A feature's words live in its module.
WORDS: dict[str, Promise] = {
    "may": _("Only the players at this match can end it after this round."),
    # the menu item and its dialog (the offer's words)
    "label": _("End the match after this round"),
    "title": _("End the match after this round?"),
    "text": _("This round becomes the match's last: the match ends when it ends, scored as usual."),
    "text_shared": _(
        "This round becomes the match's last: the match ends when it ends, scored as usual. "
        "The others at the table are asked first."
    ),
    "confirm": _("End after this round"),
    "cancel": _("Cancel"),
    # its log entry: the kind's label and its line
    "log_label": _("Last round"),
    "log_line": _("%(name)s made this round the match's last"),
    "log_line_mine": _("You made this round the match's last"),
    # asked of the others at a shared table: the banners, the log's lines, the answer
    "change": pgettext_lazy("a change asked of the others", "End after this round"),
    "mine": _("You asked to end the match after this round."),
    "theirs": _("%(name)s asks to end the match after this round."),
    "log_ask": _("%(name)s asks to end the match after this round"),
    "log_accept": _("%(name)s accepted ending the match after this round"),
    "log_decline": _("%(name)s declined ending the match after this round"),
    "log_expire": _("Nobody answered the request to end the match after this round in time"),
    "log_void": _("The request to end the match after this round is no longer possible"),
    "declined": _("%(name)s declined your request to end the match after this round."),
    "expired": _("Nobody answered your request to end the match after this round in time."),
}


# ---------------------------------------------------------------- who may, and its service

#: who may: a player of the match (its creator only when they play a seat too)
MAY = permissions.rule(
    "last_round",
    lambda can, seat, request: bool(can.mine),
    lambda: str(WORDS["may"]),
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


def log_line(line: log.Line) -> str:
    """Its line in the round's log: who made the round the match's last."""
    return line.said(WORDS)


#: its entry in the round's log
LOG = log.register(log.Kind("last_round", WORDS["log_label"], log_line))

#: asked of the others at a shared table (games.consent)
KIND = consent.register(
    consent.Kind(
        name="last_round",
        label=WORDS["change"],
        **consent.words_of(WORDS),
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
    return Offer(
        "last_round", "games/commands/last_round.html", _words(active_language(), can.consent)
    )


@per_language
def _words(language: str | None, shared: bool) -> tuple[tuple[str, str], ...]:
    """The offer's words in `language` (the active one), `shared`: asked of the others at a
    shared table. Every player's board of every version shows them: translated once."""
    return tuple(
        (key, str(WORDS["text_shared" if shared and key == "text" else key]))
        for key in ("label", "title", "text", "confirm", "cancel")
    )


command = Spec(
    "last_round",
    (VERSION, REQUEST_ID),
    handle,
    offer,
    says="end the match after the round in play (R32; consent at a shared table)",
)
