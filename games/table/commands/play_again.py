"""``play_again``, ``leave_table`` and ``again_seat``: "Play again" once a match is over (R29: a
new match at the same table starts again at the first round with totals at zero; R31: the
same match length).

Who answers: every person at the table (each signed-in player with a seat; a pass-and-play
seat is its holder's, the creator's device) and the match's creator, seated or not
(`MAY`). Each answers once for themselves: ``play_again`` (accept) or
``leave_table`` (not this time); ``version`` is taken but not checked (answers do not go
stale: two people may answer at the same moment), ``request_id`` makes an answer
idempotent. The answers are kept on the match (``Match.kept("play_again")``: who plays
again, in the order they accepted, who left, the creator's choices, the match that
followed), so a table left for days still shows them.

The new match, when every person who has not left has accepted and at least one has:

- the same seats in the same order: a person who plays again keeps their seat (a
  pass-and-play seat stays with its holder), a computer keeps its level and name;
- a seat whose person left (or a former guest's, whose person is gone) becomes what the
  creator chose for it with ``again_seat`` (`MAY_CHOOSE`; ``seat``,
  ``become``: ``open``, a seat for someone the creator invites, as the create form makes
  one, or a computer's level ``beginner``, ``casual``, ``expert``); until they choose, a
  casual computer. The creator chooses only for a seat whose person left, and only while
  they have not left themselves;
- when someone leaves after the creator accepted, the creator's answer is asked again: they
  now have a seat to give, and the new match waits for their choice and their "Play again";
- its creator: the old one if they play again; else the first person who accepted (the
  creator left, so their pass-and-play seats went with them);
- the same match length (R31), pace, away limit and listing (not for a guest creator: a
  guest's tables are private), and a fresh random deal (R4);
- made once, by the answer that completes it, with the old match's row locked (concurrent
  answers wait for each other), then never again: later answers are refused. Alone with
  computers, accepting makes it at once. Nobody with a seat playing again makes none.

The old match keeps its result, log and replay; history and ratings count each match
apart (games.history.stats, on ``match_finished``). Once the new match exists, the
match-end panel of everyone who accepted carries a link the page follows at once
(``a[data-follow]``, static/js/table.js); spectators and people who left see the same link
("Go to the new match at this table") without being moved.

The board offers it in the match-end panel (`offer`, ``where="end"``,
``games/commands/play_again.html``) to every viewer of a finished match: the answers seat
by seat, and the buttons and choices of this viewer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games import permissions, services
from games.commands import Offer, OfferContext, Spec
from games.commands.fields import REQUEST_ID, SEAT, VERSION, short_text
from games.errors import BAD_REQUEST, ILLEGAL, GameError
from games.models import Match, Seat
from games.services import Result

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command

# ---------------------------------------------------------------- its words

#: everything Play again says to players, by key: who may answer and choose, its refusals,
#: the panel's words, each seat's answer and the viewer's own line. A feature's words live in
#: its module, in its ``WORDS`` (the words scan reads them as a words home).
WORDS: dict[str, Promise] = {
    # who may, and the refusals
    "people": _("Only the people at this match can play again."),
    "creator": _("Only the match's creator chooses who takes a seat in the new match."),
    "not_over": _("You can play again once this match is over."),
    "started": _("The new match at this table has started already."),
    "answered": _("You have answered already."),
    "choose": _("Choose an open seat or a computer's level."),
    "you_left": _("You left the table."),
    "left_seat_only": _(
        "Only the seat of someone who left the table can be given to someone else."
    ),
    "become": _("A seat's choice is a short name."),
    # the panel
    "title": _("A new match at this table?"),
    "text": _("The same seats, match length and pace, and a new deal."),
    "accept": _("Play again"),
    "leave": _("Not this time"),
    "seat_label": _("Who takes this seat in the new match"),
    "go": _("Go to the new match at this table"),
    # a seat's answer, and what a left seat becomes
    "yes": _("Plays again"),
    "left": _("Left the table"),
    "deciding": _("Still deciding"),
    "computer": _("A computer (%(level)s)"),
    "open_seat": _("An open seat, for someone you invite"),
    "becomes_open": _("Their seat becomes an open seat."),
    "becomes_computer": _("A computer (%(level)s) takes their seat."),
    # the viewer's own line
    "playing": _("You play again: the new match starts once everyone has answered."),
    "choose_seats": _("Choose who takes the seats of those who left, then play again."),
    "everyone_left": _("Everyone left the table."),
}

#: the words the panel's template shows by name (the `Offer`'s words)
PANEL = ("title", "text", "accept", "leave", "seat_label", "go")


def say(key: str) -> str:
    """Play again's words for `key` (`WORDS`), in the language of the moment."""
    return str(WORDS[key])


# ---------------------------------------------------------------- who may

#: who answers "Play again" or leaves: the people at the table and the match's creator
MAY = permissions.rule(
    "play_again",
    lambda can, seat, request: can.owner or can.person,
    lambda: say("people"),
)
#: who chooses what the seat of someone who left becomes: the match's creator
MAY_CHOOSE = permissions.rule(
    "again_seat",
    lambda can, seat, request: can.owner,
    lambda: say("creator"),
)

#: what a left seat may become: an open seat (for an invited player) or a computer's level
OPEN = "open"
CHOICES = (OPEN, *Seat.Level.values)
#: a left seat's fate until the creator chooses
DEFAULT = str(Seat.Level.CASUAL)
#: the answers' entry in what the match keeps for its features (`Match.kept`)
KEPT = "play_again"


# ---------------------------------------------------------------- the answers


@dataclass
class Answers:
    """A finished match's answers (kept on it as "play_again"): who plays again (user ids, in the
    order they accepted), who left, the creator's choice for left seats (seat index ->
    one of `CHOICES`), and the new match once made."""

    yes: list[int] = field(default_factory=list)
    no: list[int] = field(default_factory=list)
    seats: dict[str, str] = field(default_factory=dict)
    next: int | None = None

    @classmethod
    def of(cls, match: Match) -> Answers:
        kept = match.kept(KEPT)
        stored = kept if isinstance(kept, dict) else {}
        return cls(
            yes=[int(u) for u in stored.get("yes", ())],
            no=[int(u) for u in stored.get("no", ())],
            seats={str(k): str(v) for k, v in (stored.get("seats") or {}).items()},
            next=stored.get("next"),
        )

    def to_json(self) -> dict[str, Any]:
        return {"yes": self.yes, "no": self.no, "seats": self.seats, "next": self.next}

    def becomes(self, index: int) -> str:
        """What the left seat `index` becomes in the new match (one of `CHOICES`)."""
        return self.seats.get(str(index), DEFAULT)


def _person(seat: Seat) -> int | None:
    """The user who answers for `seat`: its player, or its holder (pass-and-play); None for a
    computer or a seat whose person is gone (a removed guest's)."""
    return seat.user_id if seat.kind != Seat.Kind.COMPUTER else None


def _who(match: Match, seats: list[Seat]) -> list[int]:
    """Everyone who answers: the people at the table and the creator."""
    people = permissions.people(match, seats=seats)
    if match.created_by_id is not None:
        people.add(match.created_by_id)
    return sorted(people)


def seat_state(seat: Seat, a: Answers) -> str:
    """A seat's answer: "computer" (it stays), "yes", "left" (its person left, or is gone)
    or "deciding"."""
    if seat.kind == Seat.Kind.COMPUTER:
        return "computer"
    person = _person(seat)
    if person is None or person in a.no:
        return "left"
    return "yes" if person in a.yes else "deciding"


def _new_seats(seats: list[Seat], a: Answers) -> list[tuple[str, Any, str, str]]:
    """The new match's seats (kind, user, name, level), seat by seat (module docstring)."""
    rows: list[tuple[str, Any, str, str]] = []
    for s in seats:
        state = seat_state(s, a)
        if state == "computer":
            rows.append((s.kind, None, s.name, s.level))
        elif state == "yes":
            rows.append((s.kind, s.user, s.name, ""))
        elif a.becomes(s.index) == OPEN:
            rows.append((str(Seat.Kind.HUMAN), None, "", ""))
        else:
            rows.append((str(Seat.Kind.COMPUTER), None, "", a.becomes(s.index)))
    return rows


def _creator(match: Match, seats: list[Seat], a: Answers) -> Any:
    """The new match's creator: the old one if they play again, else the first to accept."""
    first = match.created_by_id if match.created_by_id in a.yes else a.yes[0]
    if first == match.created_by_id:
        return match.created_by
    return next(s.user for s in seats if s.user_id == first)


def _complete(match: Match, seats: list[Seat], a: Answers) -> None:
    """Make the new match once everyone who has not left has accepted (and someone has),
    and a person or an open seat will sit at it."""
    pending = set(_who(match, seats)) - set(a.yes) - set(a.no)
    if pending or not a.yes or a.next is not None:
        return
    rows = _new_seats(seats, a)
    if all(kind == Seat.Kind.COMPUTER for kind, _user, _name, _level in rows):
        return  # nobody with a seat plays again
    new = services.table_next_match(old=match, creator=_creator(match, seats, a), seats=rows)
    a.next = new.pk


# ---------------------------------------------------------------- the services


def _change(
    match_id: int,
    user: Any,
    request_id: str,
    action: permissions.Rule,
    seat: int | None,
    make: Any,
) -> Result:
    """One answer or choice: the match locked, `action` allowed, a repeated request id
    answered with its result; then, the match over and not followed yet, ``make(match,
    seats, answers, uid)`` (refusing with a GameError, changing nothing); the answers
    stored, the new match made when they are complete, the old match's next version."""

    def change(match: Match, seats: list[Seat]) -> None:
        if match.status != Match.Status.FINISHED:
            raise GameError(ILLEGAL, say("not_over"), rule="R29")
        a = Answers.of(match)
        later = Match.objects.filter(table_id=match.table_id, number__gt=match.number)
        if a.next is not None or later.exists():
            raise GameError(ILLEGAL, say("started"))
        make(match, seats, a, permissions.user_id(user))
        _complete(match, seats, a)
        match.keep(KEPT, a.to_json())

    return services.seated_change(
        match_id=match_id,
        user=user,
        request_id=request_id,
        action=action,
        change=change,
        seat=seat,
    )


def again_answer(*, match_id: int, user: Any, accept: bool, request_id: str) -> Result:
    """R29: a person at the table (or its creator) plays again (`accept`) or leaves, once."""

    def make(match: Match, seats: list[Seat], a: Answers, uid: int) -> None:
        if uid in a.yes or uid in a.no:
            raise GameError(BAD_REQUEST, say("answered"))
        if accept:
            a.yes.append(uid)
            return
        a.no.append(uid)
        creator = match.created_by_id
        if uid != creator and creator in a.yes and any(_person(s) == uid for s in seats):
            a.yes.remove(creator)  # a seat to give: the creator chooses, then answers again

    return _change(match_id, user, request_id, MAY, None, make)


def again_seat_set(
    *, match_id: int, user: Any, seat: int, become: object, request_id: str
) -> Result:
    """R29: the creator chooses what `seat`, whose person left, becomes in the new match:
    an open seat or a computer of a level (`CHOICES`)."""

    def make(match: Match, seats: list[Seat], a: Answers, uid: int) -> None:
        if become not in CHOICES:
            raise GameError(BAD_REQUEST, say("choose"))
        if uid in a.no:
            raise GameError(ILLEGAL, say("you_left"))
        chosen = next((s for s in seats if s.index == seat), None)
        if chosen is None or seat_state(chosen, a) != "left":
            raise GameError(BAD_REQUEST, say("left_seat_only"))
        a.seats[str(seat)] = str(become)

    return _change(match_id, user, request_id, MAY_CHOOSE, seat, make)


# ---------------------------------------------------------------- the commands


async def answer(t: Connection, c: Command) -> None:
    result = await t.call(
        again_answer,
        match_id=t.match_id,
        user=t.user,
        accept=c.type == "play_again",
        request_id=c.request_id,
    )
    await t.ack(c, result)


async def choose(t: Connection, c: Command) -> None:
    result = await t.call(
        again_seat_set,
        match_id=t.match_id,
        user=t.user,
        seat=c.seat,
        become=c.become,
        request_id=c.request_id,
    )
    await t.ack(c, result)


# ---------------------------------------------------------------- the offer


@dataclass(frozen=True)
class SeatAnswer:
    """One seat in the panel: its index, its answer (`seat_state`) in words, and for a
    left seat what it becomes, in words and as this viewer may choose it."""

    index: int
    state: str
    text: str
    becomes: str = ""
    becomes_text: str = ""
    choose: bool = False


@dataclass(frozen=True)
class Panel:
    """What the match-end panel shows this viewer (the `Offer`'s data)."""

    seats: tuple[SeatAnswer, ...]
    #: this viewer may answer now (the buttons)
    ask: bool
    #: this viewer's own line ("" when there is nothing to say)
    note: str
    #: the new match's page once made, and whether this page goes there by itself
    next_url: str = ""
    go: bool = False
    #: the left seats' choices: (value, words)
    options: tuple[tuple[str, str], ...] = ()


def _computer(level: str) -> str:
    return say("computer") % {"level": Seat.Level(level).label}


def offer(ctx: OfferContext) -> Offer | None:
    """Offered to every viewer of a finished match: the answers, and this viewer's own."""
    match = ctx.match
    if match.status != Match.Status.FINISHED or ctx.view.phase != "match_over":
        return None
    from games.reads import selectors

    seats = selectors.match_seats(match)
    a = Answers.of(match)
    can = ctx.can()
    answers = can.uid is not None and can.can(MAY) and a.next is None
    return board_offer(
        seats=seats,
        a=a,
        uid=can.uid,
        who=_who(match, seats),
        answers=answers,
        chooser=answers and can.can(MAY_CHOOSE) and can.uid not in a.no,
    )


def board_offer(
    *,
    seats: list[Seat],
    a: Answers,
    uid: int | None,
    who: list[int],
    answers: bool,
    chooser: bool,
) -> Offer:
    """The panel for a viewer (`uid`; None: nobody signed in) who may answer (`answers`) and
    choose for the left seats (`chooser`), `who` answering at the table: no database read."""
    options = ((OPEN, say("open_seat")),) + tuple(
        (level, _computer(level)) for level in Seat.Level.values
    )
    rows = []
    for s in seats:
        state = seat_state(s, a)
        text = (_computer(s.level) if s.level else "") if state == "computer" else say(state)
        becomes = becomes_text = ""
        if state == "left":
            becomes = a.becomes(s.index)
            becomes_text = (
                say("becomes_open")
                if becomes == OPEN
                else say("becomes_computer") % {"level": Seat.Level(becomes).label}
            )
        rows.append(
            SeatAnswer(s.index, state, text, becomes, becomes_text, chooser and state == "left")
        )
    if a.next is not None:
        note = ""
    elif uid is not None and uid in a.yes:
        note = say("playing")
    elif uid is not None and uid in a.no:
        note = say("you_left")
    elif chooser and any(r.state == "left" for r in rows):
        note = say("choose_seats")
    elif not set(who) - set(a.no):
        note = say("everyone_left")
    else:
        note = ""
    next_url = reverse("games:table", args=[a.next]) if a.next is not None else ""
    panel = Panel(
        seats=tuple(rows),
        ask=answers and uid not in a.yes and uid not in a.no,
        note=note,
        next_url=next_url,
        go=bool(next_url) and uid is not None and uid in a.yes,
        options=options if chooser else (),
    )
    return Offer(
        "play_again",
        "games/commands/play_again.html",
        tuple((key, say(key)) for key in PANEL),
        where="end",
        data=panel,
        leads=next_url,
    )


#: what the creator chooses for a left seat (one of `CHOICES`: the service checks it)
BECOME = short_text("become", 16, WORDS["become"], OPEN)

commands = [
    Spec(
        "play_again",
        (VERSION, REQUEST_ID),
        answer,
        offer,
        says="once the match is over: play again at the same table (R29; `version` not checked); the new match starts once everyone who has not left accepted, and the pages of those who accepted go there (`a[data-follow]` in their board)",
    ),
    Spec(
        "leave_table",
        (VERSION, REQUEST_ID),
        answer,
        says="once the match is over: not this time (R29; `version` not checked)",
    ),
    Spec(
        "again_seat",
        (SEAT, BECOME, REQUEST_ID),
        choose,
        says="the creator: what the seat of someone who left becomes in the new match, `become`: `open`, `beginner`, `casual` or `expert` (R29)",
    ),
]
