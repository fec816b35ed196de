"""``play_again``, ``leave_table`` and ``again_seat``: "Play again" once a match is over (R29: a
new match at the same table starts again at the first round with totals at zero; R31: the
same match length).

Who answers: every person at the table (each signed-in player with a seat; a pass-and-play
seat is its holder's, the creator's device) and the match's creator, seated or not
(`MAY`). Each answers once for themselves: ``play_again`` (accept) or
``leave_table`` (not this time); ``version`` is taken but not checked (answers do not go
stale: two people may answer at the same moment), ``request_id`` makes an answer
idempotent. The answers are kept on the match (``Match.again``: who plays again, in the
order they accepted, who left, the creator's choices, the match that followed), so a
table left for days still shows them.

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
(``a[data-again-go]``, static/js/table.js); spectators and people who left see the same link
("Go to the new match at this table") without being moved.

The board offers it in the match-end panel (`offer`, ``where="end"``,
``games/commands/play_again.html``) to every viewer of a finished match: the answers seat
by seat, and the buttons and choices of this viewer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.urls import reverse

from games import permissions, services
from games.errors import BAD_REQUEST, ILLEGAL, GameError
from games.models import Match, Seat
from games.services import Result
from games.table import words
from games.table.commands import Offer, OfferContext, Spec
from games.table.commands.fields import REQUEST_ID, SEAT, VERSION, short_text
from games.table.jinja_env import text as _  # Django's gettext, each word kept once translated
from games.words import sentence

if TYPE_CHECKING:
    from games.table.connection import Connection
    from games.table.protocol import Command

#: who answers "Play again" or leaves: the people at the table and the match's creator
MAY = permissions.rule(
    "play_again",
    lambda can, seat, request: can.owner or can.person,
    lambda: sentence("people_play_again"),
)
#: who chooses what the seat of someone who left becomes: the match's creator
MAY_CHOOSE = permissions.rule(
    "again_seat",
    lambda can, seat, request: can.owner,
    lambda: sentence("creator_seats_again"),
)

#: what a left seat may become: an open seat (for an invited player) or a computer's level
OPEN = "open"
CHOICES = (OPEN, *Seat.Level.values)
#: a left seat's fate until the creator chooses
DEFAULT = str(Seat.Level.CASUAL)


# ---------------------------------------------------------------- the answers


@dataclass
class Answers:
    """A finished match's answers (``Match.again``): who plays again (user ids, in the
    order they accepted), who left, the creator's choice for left seats (seat index ->
    one of `CHOICES`), and the new match once made."""

    yes: list[int] = field(default_factory=list)
    no: list[int] = field(default_factory=list)
    seats: dict[str, str] = field(default_factory=dict)
    next: int | None = None

    @classmethod
    def of(cls, match: Match) -> Answers:
        stored = match.again if isinstance(match.again, dict) else {}
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
            raise GameError(ILLEGAL, sentence("again_not_over"), rule="R29")
        a = Answers.of(match)
        later = Match.objects.filter(table_id=match.table_id, number__gt=match.number)
        if a.next is not None or later.exists():
            raise GameError(ILLEGAL, sentence("again_started"))
        make(match, seats, a, permissions.user_id(user))
        _complete(match, seats, a)
        match.again = a.to_json()
        Match.objects.filter(pk=match.pk).update(again=match.again)

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
            raise GameError(BAD_REQUEST, sentence("again_answered"))
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
            raise GameError(BAD_REQUEST, sentence("again_choose"))
        if uid in a.no:
            raise GameError(ILLEGAL, sentence("again_left"))
        chosen = next((s for s in seats if s.index == seat), None)
        if chosen is None or seat_state(chosen, a) != "left":
            raise GameError(
                BAD_REQUEST,
                sentence("again_left_seat_only"),
            )
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
    return _("A computer (%(level)s)") % {"level": Seat.Level(level).label}


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
    options = ((OPEN, words.again_open_seat()),) + tuple(
        (level, _computer(level)) for level in Seat.Level.values
    )
    rows = []
    for s in seats:
        state = seat_state(s, a)
        text = (
            (_computer(s.level) if s.level else "")
            if state == "computer"
            else words.again_seat(state)
        )
        becomes = becomes_text = ""
        if state == "left":
            becomes = a.becomes(s.index)
            becomes_text = words.again_becomes(
                None if becomes == OPEN else str(Seat.Level(becomes).label)
            )
        rows.append(
            SeatAnswer(s.index, state, text, becomes, becomes_text, chooser and state == "left")
        )
    if a.next is not None:
        note = ""
    elif uid is not None and uid in a.yes:
        note = words.again_note("playing")
    elif uid is not None and uid in a.no:
        note = words.again_note("left")
    elif chooser and any(r.state == "left" for r in rows):
        note = words.again_note("choose")
    elif not set(who) - set(a.no):
        note = words.again_note("everyone_left")
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
        words.again_panel(),
        where="end",
        data=panel,
    )


#: what the creator chooses for a left seat (one of `CHOICES`: the service checks it)
BECOME = short_text("become", 16, words.FIELD["become"], OPEN)

commands = [
    Spec("play_again", (VERSION, REQUEST_ID), answer, offer),
    Spec("leave_table", (VERSION, REQUEST_ID), answer),
    Spec("again_seat", (SEAT, BECOME, REQUEST_ID), choose),
]
