"""Who may do what to a match: the one place that decides (design.md).

Views, the table's websocket, services, selectors and the admin ask `may` (or
`require`, which raises `GameError(FORBIDDEN)`) and never re-derive the answer from
seats, creators or staff flags themselves.

Roles a viewer can hold at a match (`roles`; several at once, e.g. the creator
who also plays a seat):

- ``owner``: the match's creator;
- ``seated``: a signed-in player with a seat of their own (``Seat.Kind.HUMAN``);
- ``holder``: the holder of pass-and-play seats (R24: several seats on one device);
- ``spectator``: anyone holding the match's watch token;
- ``staff`` / ``superuser``: site staff; staff see private tables live only with the
  named permission ``games.watch_private_table`` (a superuser has every permission),
  and every such watch is logged (logger ``games.permissions``);
- ``anonymous``: nobody signed in and no token.

What each may do (`Action`; tested as a table in tests/games/test_permissions.py):

============== ======= ====== ====== ========= ===== ============ =========
action         owner   seated holder spectator staff staff + perm superuser
============== ======= ====== ====== ========= ===== ============ =========
watch          yes     yes    yes    yes       no    yes          yes
act [5]        no [1]  own    own    no        no    no           no
prefer [4]     no [1]  yes    yes    no        no    no           no
look back [6]  yes     yes    yes    no        no    yes          yes
export [2]     ended   ended  ended  no        no    ended        ended
see seed [2]   ended   ended  ended  no        no    ended        ended
see hands [3]  yes     yes    yes    yes       no    yes          yes
watch link [9] no      no     no     yes       no    no           no
============== ======= ====== ====== ========= ===== ============ =========

[1] unless the owner also holds a seat. [2] the seed is every deal of the
match, so every hand: nobody sees it (nor an export, which holds it) while the match is
being played, and once it is over its players and staff with the admin's
``games.view_match`` do ("ended").
[3] every hand, once the round is over (R24: "all hands are revealed when the round
ends"); before that nobody sees a hand but its own (`engine.views.view`). [4] a player's own
table preferences, set from the table's menu ("draw and pass for me when I have no
play"; kept on the account, guests too).
[5] while a computer plays a seat for its away owner (games.attendance.standin), its owner does not
act for it (``act``, and every rule that needs a seat of one's own, counts only the seats
the owner plays themselves).
[6] step through the match's ended rounds (the players' replay page,
games.history.views, and the admin's; the admin's seed and export follow [2]).
[9] follow the match's spectator link (games.lobby.views.watch):
whoever brings the match's watch token is a spectator, but a guest only at a listed table
. Clearing a pause left behind in the admin is a superuser's (`may_clear_pauses`).

Table talk (games.chat) is asked of `chat_may` with a `Talk` action: the
players' room is read and written by the match's participants (owner, seated, holder);
the spectators' room by everyone who may watch (signed in to write), and a participant
may open it; nobody else ever reads the players' room live. Writing also needs the
table's chat on and the account not blocked by staff (facts the chat wing passes in);
free text needs a full account (a guest sends phrases only); only the creator turns the
chat off; the chat in history and replay is for participants only (not even staff,
who see reported messages in the admin).

A feature's own action is declared by its module (games/table/commands/, or the module of
games/services/ where its command's service lives) as a `Rule` (`rule`): who may, from what
they are at the match (`Powers`), and what a refusal says; `may`, `require` and `Powers.can`
answer it from `RULES` as they answer the actions above.
Undo and redo (R27): a player; restart (R28): the creator, or a player "alone" (every
other seat a computer or one of their own pass-and-play seats); end the match after this
round (R32): a player; play again (R29): the people at the table and its creator; the
computers' pace, skip to my turn and the away limit: a player; let a computer play a seat
until its owner returns (games.attendance.standin): a player, for a person's seat (a player's or a
pass-and-play one) of someone else, *when* (its owner away past the table's limit) being
the service's check; take a seat back: only its owner. Where the service lives in the
root, its module declares the rule: pause the computers (R26, games.services.pauses): a
player; start the next round (games.services.moves): the creator or a player; accept or
decline an open request (games.services.asking, `request`): a person at the table other
than the one who asked (a request of one's own is the others' to answer).

An anonymous viewer may do nothing. At a table with more than one person (distinct
users; pass-and-play seats count as their holder, a seat a computer stands in for as its
owner) the changes of games.consent (undo, restart, end after this round, the away limit)
are not done at once but asked of the others (`others`, `needs_consent`; services.asking._ask).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from django.db.models import Q
from django.utils.crypto import constant_time_compare

from accounts import guests

from .errors import BAD_REQUEST, FORBIDDEN, GameError
from .models import ChangeRequest, Match, Seat
from .reads.seats import match_seats
from .words import sentence

logger = logging.getLogger(__name__)

#: the named permission that lets staff watch a table they have no part in, live
WATCH_PRIVATE = "games.watch_private_table"
#: the admin's permission to view matches (its replay and export)
VIEW_MATCH = "games.view_match"


class Role(StrEnum):
    OWNER = "owner"
    SEATED = "seated"
    HOLDER = "holder"
    SPECTATOR = "spectator"
    STAFF = "staff"
    SUPERUSER = "superuser"
    ANONYMOUS = "anonymous"


class Action(StrEnum):
    WATCH = "watch"
    ACT = "act"
    EXPORT = "export"
    SEE_HANDS = "see_hands"
    #: the invitation and spectator links on the match's page
    SEE_LINKS = "see_links"
    #: set one's own table preferences from this table (draw and pass for me)
    PREFER = "prefer"
    #: step through the match's ended rounds (the players' replay page and the admin's)
    LOOK_BACK = "look_back"
    #: see the match's seed (every deal of it)
    SEE_SEED = "see_seed"
    #: follow the match's spectator link (games.lobby.views.watch)
    WATCH_LINK = "watch_link"


def may_look_back_q(user: object) -> Q:
    """The matches `user` may look back at (`Action.LOOK_BACK`: their replays), as a filter
     for a list of matches, answering as `may` does match by match: a list built with it
     (a player's page, games.history.players) shows nobody a replay link that 404s
    ."""
    uid = _uid(user)
    if uid is None:
        return Q(pk__in=[])
    if _staff_with(user, VIEW_MATCH):
        return Q()
    return Q(created_by_id=uid) | Q(seats__user_id=uid)


def seed_secret(match: Match) -> bool:
    """Whether the match's seed must stay hidden (from everyone, staff too): it is every deal
    of the match, so while the match is being played it is every live hand."""
    return match.status != Match.Status.FINISHED


def user_id(user: object) -> int | None:
    """The id of a signed-in user; None for nobody signed in."""
    return _uid(user)


def _uid(user: object) -> int | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return getattr(user, "pk", None)


def _seats(match: Match, seats: list[Seat] | None = None) -> list[Seat]:
    if seats is not None:
        return seats
    return match_seats(match)


def seats_controlled(match: Match, user: object, *, seats: list[Seat] | None = None) -> list[int]:
    """The seat indexes `user` may act for: their own seat and their pass-and-play seats (R24),
    but not one a computer plays for them while they were away (games.attendance.standin)."""
    if _uid(user) is None:
        return []
    return [s.index for s in _seats(match, seats) if s.controlled_by(user) and not s.standin]


def token_ok(match: Match, token: object) -> bool:
    """Whether `token` is the match's watch token (compared in constant time)."""
    return (
        isinstance(token, str) and bool(token) and constant_time_compare(token, match.watch_token)
    )


def roles(
    match: Match, user: object, *, token: object = "", seats: list[Seat] | None = None
) -> frozenset[Role]:
    """Every role `user` (or a token holder) has at `match`."""
    out: set[Role] = set()
    uid = _uid(user)
    if uid is not None:
        if match.created_by_id == uid:
            out.add(Role.OWNER)
        for s in _seats(match, seats):
            if s.user_id == uid and s.kind == Seat.Kind.HUMAN:
                out.add(Role.SEATED)
            elif s.user_id == uid and s.kind == Seat.Kind.LOCAL:
                out.add(Role.HOLDER)
        if getattr(user, "is_staff", False):
            out.add(Role.STAFF)
        if getattr(user, "is_superuser", False):
            out.add(Role.SUPERUSER)
    if token_ok(match, token) and guests.may_watch_by_link(match, user):
        out.add(Role.SPECTATOR)  # a guest's watch link works on listed tables only
    if not out and uid is None:
        out.add(Role.ANONYMOUS)
    return frozenset(out)


def people(match: Match, *, seats: list[Seat] | None = None) -> set[int]:
    """The distinct users seated at the match (pass-and-play seats count as their holder's).
    A seat a computer plays while its owner is away still counts for its owner: a stand-in
    never carries consent for the seat it plays, so its owner is asked."""
    return {
        s.user_id
        for s in _seats(match, seats)
        if s.kind != Seat.Kind.COMPUTER and s.user_id is not None
    }


def others(match: Match, user: object, *, seats: list[Seat] | None = None) -> set[int]:
    """The people at the table besides `user`: whose consent a change of games.consent needs."""
    return people(match, seats=seats) - {_uid(user)}


def needs_consent(match: Match, user: object, *, seats: list[Seat] | None = None) -> bool:
    """Whether a change of games.consent (undo, restart, ending after this round, the away
    limit) by `user` must be asked of the others first (R27, R28, R32)."""
    return bool(others(match, user, seats=seats))


def _alone(seats: list[Seat], user: object) -> bool:
    return any(s.controlled_by(user) for s in seats) and all(
        s.kind == Seat.Kind.COMPUTER or s.controlled_by(user) for s in seats
    )


def _participant(have: frozenset[Role]) -> bool:
    return bool(have & {Role.OWNER, Role.SEATED, Role.HOLDER})


def _staff_with(user: object, permission: str) -> bool:
    return bool(
        getattr(user, "is_active", False)
        and getattr(user, "is_staff", False)
        and user.has_perm(permission)  # type: ignore[attr-defined]  # a user: is_staff is set
    )


def may(
    user: object,
    action: Action | Rule | str,
    match: Match,
    *,
    seat: int | None = None,
    token: object = "",
    log_watch: bool = False,
    seats: list[Seat] | None = None,
    request: ChangeRequest | None = None,
) -> bool:
    """May `user` (None or AnonymousUser: nobody signed in; `token`: a watch token they
    brought) do `action` to `match` (for `seat`, where the action is a seat's) now?

    `seats`: the match's seats when the caller has read them already. `log_watch`: the
    caller is about to show the table, so a watch granted only by the staff permission
    is logged. `request`: the open undo or restart request an ``answer`` is about."""
    uid = _uid(user)
    seats = _seats(match, seats)
    if _name(action) in RULES:  # a feature's own action: from what the user is at the match
        return powers(user, match, seats=seats).can(action, seat=seat, request=request)
    action = Action(_name(action))
    if action == Action.WATCH_LINK:
        return Role.SPECTATOR in roles(match, user, token=token, seats=seats)
    if action in (Action.WATCH, Action.SEE_HANDS):
        have = roles(match, user, token=token, seats=seats)
        if _participant(have) or Role.SPECTATOR in have:
            allowed = True
        elif _staff_with(user, WATCH_PRIVATE):
            allowed = True
            if log_watch:
                logger.warning(
                    "staff watch: user %s (%s) watches match %s live",
                    uid,
                    user.get_username(),  # type: ignore[attr-defined]  # staff: a user
                    match.pk,
                )
        else:
            allowed = False
        if action == Action.SEE_HANDS:
            return allowed and (match.state or {}).get("phase") in ("round_over", "match_over")
        return allowed
    if uid is None:
        return False
    if action in Powers.ACTIONS:
        return powers(user, match, seats=seats).can(action, seat=seat, request=request)
    if action == Action.LOOK_BACK:
        return (
            _staff_with(user, VIEW_MATCH)
            or match.created_by_id == uid
            or any(s.user_id == uid for s in seats)
        )
    if action in (Action.EXPORT, Action.SEE_SEED):
        if seed_secret(match):
            return False
        return (
            _staff_with(user, VIEW_MATCH)
            or match.created_by_id == uid
            or any(s.user_id == uid for s in seats)
        )
    raise AssertionError(action)  # every Action is answered above


@dataclass(frozen=True)
class Powers:
    """What one user may do at a match now, as far as it depends on who they are (`may`
    answers these actions from it, so the two never disagree): worked out in one call
    (`powers`), for a board that asks a dozen of these questions of each viewer."""

    #: the actions answered here (the others need a token, staff permissions or the phase)
    ACTIONS: ClassVar[frozenset[Action]] = frozenset({Action.ACT, Action.PREFER, Action.SEE_LINKS})

    #: the signed-in user's id (None: nobody signed in, who may do none of these)
    uid: int | None = None
    #: the match's creator
    owner: bool = False
    #: the seats the user acts for (`seats_controlled`)
    mine: tuple[int, ...] = ()
    #: the user plays a seat and every other seat is a computer (R28)
    alone: bool = False
    #: the user holds a seat of any kind (the links, looking back)
    holds: bool = False
    #: the people at the table besides the user (`others`): whose consent a change needs
    others: frozenset[int] = frozenset()
    #: the user is one of the people at the table (`people`)
    person: bool = False
    #: the person's seats (no computer's) the user holds, whether they play them or a computer
    #: stands in; and those of someone else (games.attendance.standin)
    own_seats: frozenset[int] = frozenset()
    other_seats: frozenset[int] = frozenset()

    @property
    def consent(self) -> bool:
        """A change of games.consent is asked of the others first (`needs_consent`)."""
        return bool(self.others)

    def can(
        self,
        action: Action | Rule | str,
        *,
        seat: int | None = None,
        request: ChangeRequest | None = None,
    ) -> bool:
        """`may` for one of `ACTIONS` (the module's table says who may) or a feature's `Rule`."""
        if self.uid is None:
            return False
        declared = RULES.get(_name(action))
        if declared is not None:
            return declared.allows(self, seat, request)
        action = Action(_name(action))
        if action == Action.ACT:
            return bool(self.mine) if seat is None else seat in self.mine
        if action == Action.PREFER:
            return bool(self.mine)
        if action == Action.SEE_LINKS:
            return self.owner or self.holds
        raise AssertionError(action)  # only ACTIONS are answered here


def powers(user: object, match: Match, *, seats: list[Seat] | None = None) -> Powers:
    """What `user` may do at `match` now (`Powers`), from its seats read once."""
    uid = _uid(user)
    if uid is None:
        return Powers()
    seats = _seats(match, seats)
    everyone = people(match, seats=seats)
    return Powers(
        uid=uid,
        owner=match.created_by_id == uid,
        mine=tuple(seats_controlled(match, user, seats=seats)),
        alone=_alone(seats, user),
        holds=any(s.user_id == uid for s in seats),
        others=frozenset(everyone - {uid}),
        person=uid in everyone,
        own_seats=frozenset(
            s.index for s in seats if s.kind != Seat.Kind.COMPUTER and s.controlled_by(user)
        ),
        other_seats=frozenset(
            s.index for s in seats if s.kind != Seat.Kind.COMPUTER and not s.controlled_by(user)
        ),
    )


@dataclass(frozen=True)
class Rule:
    """Who may do one feature's action at a match: ``allows(powers, seat, request)`` from what
    they are there (`Powers`; nobody signed in may never), and what a refusal says."""

    action: str
    allows: Callable[[Powers, int | None, ChangeRequest | None], bool]
    refusal: Callable[[], str]


#: a feature's action -> its rule (`rule` fills it as the feature's module is imported)
RULES: dict[str, Rule] = {}


def rule(
    action: str,
    allows: Callable[[Powers, int | None, ChangeRequest | None], bool],
    refusal: Callable[[], str],
) -> Rule:
    """Declare who may do a feature's `action` (its module calls this when imported)."""
    if action in set(Action) or (action in RULES and RULES[action].allows is not allows):
        raise ValueError(f"two rules for the action {action}")
    declared = RULES[action] = Rule(action, allows, refusal)
    return declared


def _name(action: Action | Rule | str) -> str:
    return action.action if isinstance(action, Rule) else str(action)


#: table talk's two rooms (games.chat.models.Room)
PLAYERS_ROOM = "players"
SPECTATORS_ROOM = "spectators"


class Talk(StrEnum):
    """What a person may do with a match's table talk (games.chat)."""

    #: read a room live (and its history on connect)
    READ = "read"
    #: write in a room (a phrase, a reaction, or free text if FREE_TEXT too)
    POST = "post"
    #: write one's own words (not only the table phrases)
    FREE_TEXT = "free_text"
    #: a participant opens the spectators' room
    OPEN_SPECTATORS = "open_spectators"
    #: turn the table's chat off or on
    SWITCH = "switch"
    #: mute a person for oneself (kept on the account)
    MUTE = "mute"
    #: report a message of a room one reads
    REPORT = "report"
    #: read the match's chat in its history and replay
    LOOK_BACK = "look_back"


def chat_may(
    user: object,
    action: Talk | str,
    match: Match,
    *,
    room: str | None = None,
    token: object = "",
    seats: list[Seat] | None = None,
    chat_on: bool = True,
    blocked: bool = False,
) -> bool:
    """May `user` (or a watch-token holder) do `action` with the table talk of `match`, in
    `room` where the action is a room's? `chat_on` (the creator's switch) and `blocked` (staff
    barred this account from chat) are facts the chat wing read."""
    action = Talk(action)
    uid = _uid(user)
    seats = _seats(match, seats)
    have = roles(match, user, token=token, seats=seats)
    participant = _participant(have)
    watcher = participant or Role.SPECTATOR in have or _staff_with(user, WATCH_PRIVATE)
    if action == Talk.READ:
        return (
            participant if room == PLAYERS_ROOM else watcher if room == SPECTATORS_ROOM else False
        )
    if action == Talk.LOOK_BACK:
        return uid is not None and (
            match.created_by_id == uid or any(s.user_id == uid for s in seats)
        )
    if uid is None:
        return False
    if action == Talk.POST:
        return (
            chat_on
            and not blocked
            and bool(getattr(user, "is_active", False))
            and chat_may(user, Talk.READ, match, room=room, token=token, seats=seats)
        )
    if action == Talk.FREE_TEXT:
        return not guests.is_guest(user)
    if action == Talk.OPEN_SPECTATORS:
        return participant
    if action == Talk.SWITCH:
        return match.created_by_id == uid
    if action == Talk.MUTE:
        return True
    if action == Talk.REPORT:
        return chat_may(user, Talk.READ, match, room=room, token=token, seats=seats)
    raise AssertionError(action)  # every Talk action is answered above


_REFUSALS = {
    Action.ACT: lambda: sentence("not_your_seat"),
    Action.PREFER: lambda: sentence("players_prefer"),
}


def require(
    user: object,
    action: Action | Rule | str,
    match: Match,
    *,
    seat: int | None = None,
    seats: list[Seat] | None = None,
    request: ChangeRequest | None = None,
) -> None:
    """`may`, or a `GameError(FORBIDDEN)` in words for the action."""
    if not may(user, action, match, seat=seat, seats=seats, request=request):
        seats = _seats(match, seats)
        if request is not None and request.asked_by_id == _uid(user):
            raise GameError(FORBIDDEN, sentence("own_request"))
        if _name(action) == Action.ACT and any(
            s.index == seat and s.standin and s.controlled_by(user) for s in seats
        ):
            raise GameError(FORBIDDEN, sentence("standin_for_you"))
        declared = RULES.get(_name(action))
        words = (
            declared.refusal
            if declared is not None
            else _REFUSALS.get(Action(_name(action)), lambda: sentence("not_at_this_match"))
        )
        raise GameError(FORBIDDEN, words())


def may_clear_pauses(user: object) -> bool:
    """May `user` delete, in the admin, a pause a lost connection left behind (the
    computers then resume, R26)? A superuser only."""
    return bool(getattr(user, "is_active", False) and getattr(user, "is_superuser", False))


def require_look(
    controlled: tuple[int, ...] | list[int], shown: int | None, seat: int, *, reveal: bool = False
) -> None:
    """R23, R24: a hint only for the seat whose hand this device shows (`shown`), and "Show
    my tiles" (`reveal`) only for the seat whose relay cover is up on it (`shown`); both
    only for a seat the device acts for. A refusal changes nothing."""
    if seat not in controlled:
        raise GameError(FORBIDDEN, sentence("not_your_seat"))
    if shown != seat:
        raise GameError(BAD_REQUEST, sentence("not_their_look" if reveal else "show_tiles_first"))
