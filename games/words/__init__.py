"""What a refusal says: the one place a reason a move is not allowed becomes a sentence.

Two places decide *that* a move is refused, with the same reason codes: the engine
(`engine.state.IllegalAction`: ``code="not_your_turn"``, ``params={"seat": 2}``, seats
0-based as the engine counts them, and the rule id for code and tests), which the
services turn into a `games.errors.GameError`; and the board's "why can't I play this
tile?" (`games.board.words.why_not`), which reasons from the seat's view before the
player tries and adds three codes of its own (`VIEW_CODES`). This module alone decides
what either *says* (`refusal`, `say`): a sentence in the active language, with seats
named as players see them (by name when the names are known, else numbered from 1).
No sentence cites a rule id; `rule_url()` gives the "why?" link to the rule's anchor on
the rules page instead.

The site's own refusals (a match that does not exist, a stale version, a bad invitation,
who may do what …) and notices are here too, by key (`SITE`, `sentence`): services, views,
consumers and permissions raise or show `sentence(key)`, never a sentence of their own
(tests/tablesite/test_words_home.py). A feature keeps what only it says in its own module's
``WORDS`` (games/table/commands/: its refusals, its offer, its log line, the change it asks
of the others); the sentences several features share are here.

The root's other words, each in a section below: the create form's (`FORM`), the
first-time tips' (`TIP_WORDS`), the scores chart's and the admin's search boxes'
(`SEARCH_HELP`). Beside this module in the words package: the rules themselves (rules.py).

Not here: the board's other words (whose turn, hints, results, log lines:
games/board/words.py), the table's (the protocol's refusals: games/table/words.py), a
replay's log and the history
admin's (games/history/words.py), table talk's (games/chat/words.py), the account pages'
(accounts/words.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from django.urls import get_script_prefix, reverse
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from engine.state import MEXICAN, REFUSAL_CODES

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise  # django-stubs: what gettext_lazy returns

#: reasons only the board gives (it knows them before the player tries)
VIEW_CODES: tuple[str, ...] = ("wait", "cannot_start", "fits_nowhere")

#: the rule each board-only reason stands on (the engine's refusals carry their own)
VIEW_RULES: dict[str, str] = {"wait": "R7", "cannot_start": "R10", "fits_nowhere": "R13"}


@dataclass(frozen=True)
class Reason:
    """A refusal before it is put into words: a code, its facts and the rule it rests on."""

    code: str
    rule: str
    params: dict[str, object] = field(default_factory=dict)


def seat_number(seat: int) -> str:
    """A seat without a name, as the table and the logs label it: "Seat 3" (numbered from 1).
    The one seat namer, with `seat_label` and, inside a sentence, `seat_name`."""
    return _("Seat %(number)s") % {"number": seat + 1}


def seat_label(name: str, seat: int) -> str:
    """A seat with its name where both matter (a replay's log, the admin): "ana (seat 2)"."""
    if not name:
        return seat_number(seat)
    return _("%(name)s (seat %(number)s)") % {"name": name, "number": seat + 1}


def seat_name(seat: object, names: Sequence[str] | None) -> str:
    """A seat as players see it: its name, or "player 3" (numbered from 1)."""
    if isinstance(seat, int) and not isinstance(seat, bool):
        if names is not None and 0 <= seat < len(names):
            return names[seat]
        return _("player %(number)s") % {"number": seat + 1}
    return _("another player")


def _on_train(
    train: object,
    me: int | None,
    mexican: Callable[[], str],
    mine: Callable[[], str],
    other: Callable[[], str],
    names: Sequence[str] | None,
    words: dict[str, object],
) -> str:
    """One of three sentences, by whose train it is about (a train's name declines differently
    in Spanish and German, so each case is a sentence of its own)."""
    if train == MEXICAN:
        return mexican() % words
    if me is not None and train == me:
        return mine() % words
    return other() % {**words, "name": seat_name(train, names)}


def refusal(
    code: str,
    params: dict[str, object] | None = None,
    *,
    names: Sequence[str] | None = None,
    me: int | None = None,
) -> str:
    """The sentence for a refusal `code` with its `params`, for the player at seat `me`."""
    p = dict(params or {})
    words: dict[str, object] = {
        "tile": p.get("tile", "?"),
        "number": p.get("end", p.get("number", "?")),
    }
    train = p.get("train")
    if code == "match_over":
        return _("The match is over.")
    if code == "round_over":
        return _("The round is over: only the next round can start.")
    if code == "round_not_over":
        return _("The round is not over yet.")
    if code == "no_seed":
        return _("The next round cannot be dealt: this match has no seed to deal from.")
    if code == "not_your_turn":
        if p.get("seat") is None:
            return _("Wait for your turn.")
        return _("Wait for your turn: it is %(name)s's turn.") % {
            "name": seat_name(p["seat"], names)
        }
    if code == "wait":
        return _("Wait for your turn.")
    if code == "engine_holder_only":
        return _("Only the player holding the engine double places it.")
    if code == "engine_first":
        return _("First the engine double goes in the centre.")
    if code == "engine_placed":
        return _("The engine double is already in the centre.")
    if code == "no_draw_first_turn":
        return _("Nobody draws during the first turns.")
    if code == "must_play":
        return _("You must play when you can, for example %(tile)s.") % words
    if code == "one_draw":
        return _("You have drawn already: there is no second draw.")
    if code == "boneyard_empty":
        return _("The boneyard is empty.")
    if code == "end_not_pass":
        return _("End your first turn instead of passing.")
    if code == "must_start_train":
        return _("You can start your train, so play at least one tile.")
    if code == "draw_before_pass":
        return _("Draw a tile before passing.")
    if code == "not_first_turn":
        return _("Only a first turn is ended this way.")
    if code == "pass_not_end":
        return _("You cannot start your train: pass instead.")
    if code == "play_before_end":
        return _("Play at least one tile before ending your first turn.")
    if code == "not_an_action":
        return _("That is not an action of this game.")
    if code == "not_in_hand":
        return _("%(tile)s is not in your hand.") % words
    if code == "no_such_train":
        return _("There is no such train.")
    if code == "first_turn_mexican":
        return _("During the first turns nobody plays on the Mexican train.")
    if code == "first_turn_own_train":
        return (
            _("On your first turn you play only on your own train, which ends in %(number)s.")
            % words
        )
    if code == "cannot_start":
        return _("None of your tiles matches %(number)s: pass, and your train opens.") % words
    if code == "drawn_tile_only":
        return _("After drawing, only the drawn tile may be played.")
    if code == "no_match":
        return _on_train(
            train,
            me,
            lambda: _("%(tile)s does not match the end of the Mexican train (%(number)s)."),
            lambda: _("%(tile)s does not match the end of your train (%(number)s)."),
            lambda: _("%(tile)s does not match the end of %(name)s's train (%(number)s)."),
            names,
            words,
        )
    if code == "open_double_first":
        return _on_train(
            train,
            me,
            lambda: _("The open double %(tile)s on the Mexican train must be satisfied first."),
            lambda: _("The open double %(tile)s on your train must be satisfied first."),
            lambda: _("The open double %(tile)s on %(name)s's train must be satisfied first."),
            names,
            words,
        )
    if code == "train_not_open":
        return _("%(name)s's train ends in %(number)s but is not open to you.") % {
            **words,
            "name": seat_name(train, names),
        }
    if code == "last_already":
        return _("This round is already the match's last.")
    if code == "fits_nowhere":
        a, b = p.get("a", "?"), p.get("b", "?")
        if a == b:
            return _("No train open to you ends in %(a)s.") % {"a": a}
        return _("No train open to you ends in %(a)s or %(b)s.") % {"a": a, "b": b}
    return _("That move is not allowed now.")


#: every code this module has words for
CODES: tuple[str, ...] = REFUSAL_CODES + VIEW_CODES


def say(reason: Reason, *, names: Sequence[str] | None = None, me: int | None = None) -> str:
    """`refusal` for a `Reason`."""
    return refusal(reason.code, reason.params, names=names, me=me)


def rule_url(rule: str | None) -> str:
    """The rule's anchor on the rules page ("/rules/#R13"), for a "why?" link; "" without a rule."""
    if not rule:
        return ""
    return f"{_rules_path(get_script_prefix())}#{rule}"


@lru_cache(maxsize=8)
def _rules_path(prefix: str) -> str:
    """The rules page's path under the script prefix `prefix` (reverse() costs ~0.1 ms, and a
    hand's every tile that fits nowhere links to a rule, on every board)."""
    return reverse("games:rules")


# ---------------------------------------------------------------- the site's own refusals

#: The sentences of the site's refusals (the services', the stand-ins', the selectors', who
#: may do what: games.permissions and the features' rules) and of the match pages' notices,
#: by key: each sentence once. `games.errors` codes say what kind of refusal it is; these say
#: it in words. Lambdas, so each is translated when said, in the reader's language.
SITE: dict[str, Callable[[], str]] = {
    "no_such_match": lambda: _("This match does not exist."),
    "seat_not_number": lambda: _("A seat is a number."),
    "request_id_needed": lambda: _("A change needs a request id of 1 to 64 characters."),
    "request_id_used": lambda: _("This request id was already used."),
    "version_needed": lambda: _("A change needs the version of the match you saw."),
    "stale": lambda: _(
        "The match has changed since you last saw it. Refresh the page to see it as it is now."
    ),
    "not_started": lambda: _("The match has not started: it is waiting for players."),
    "not_an_action_because": lambda: _("That is not an action of this game: %(why)s"),
    "next_round_by_button": lambda: _("The next round is started with the Next round button."),
    "not_your_seat": lambda: _("You cannot act for this seat."),
    "show_tiles_first": lambda: _("Show your tiles first."),
    "not_their_look": lambda: _("It is not this player's turn to look at their tiles."),
    "server_error": lambda: _("Something went wrong on the server; nothing was changed."),
    "request_too_large": lambda: _(
        "This request is too large for the server (at most %(mb).1f MB)."
    ),
    "seat_count": lambda: _("A match has 2 to 10 seats."),
    "one_seat_yourself": lambda: _("You can take only one seat yourself."),
    "unknown_seat_kind": lambda: _("Unknown kind of seat."),
    "computer_levels": lambda: _("A computer player is a beginner, casual or expert."),
    "level_for_computers": lambda: _("Only a computer player has a level."),
    "name_lookalike": lambda: _(
        "This name looks too much like another player's name. Choose another."
    ),
    "name_length": lambda: _("A name has at most 40 characters."),
    "paces": lambda: _("The computers' pace is relaxed, normal, fast or instant."),
    "seed_range": lambda: _("A seed is a whole number from 0 to 2⁶³ − 1."),
    "seed_alone": lambda: _(
        "A deal number can be chosen only for a table without other people (you, computers "
        "and pass-and-play seats on your device) that is not listed in the lobby: whoever "
        "chooses it knows every hand."
    ),
    "seed_chosen_no_join": lambda: _(
        "Nobody can join this match: its creator chose its deal number, so they know every hand."
    ),
    "sign_in_to_create": lambda: _("Sign in to create a match."),
    "away_limits": lambda: _("Choose how long a seat may stay away from the list."),
    "sign_in_to_join": lambda: _("Sign in to join a match."),
    "invitation_only": lambda: _("This match is joined by invitation only."),
    "bad_invitation": lambda: _("This invitation link is not valid."),
    "match_full": lambda: _("Every seat of this match is taken."),
    "seat_taken": lambda: _("This seat is taken."),
    "request_waiting": lambda: _("A request is already waiting for an answer at this table."),
    "own_request": lambda: _("The others answer your request, not you."),
    "request_closed": lambda: _("This request is no longer open."),
    "computers_stopped": lambda: _("The match is over: its computers have stopped."),
    "same_pace": lambda: _("The computers already play at that pace."),
    "no_computer_due": lambda: _("No computer is to play now."),
    "hurrying_already": lambda: _("The computers are already hurrying."),
    "pause_connection": lambda: _("A pause needs the connection that opened it."),
    "not_being_played": lambda: _("The match is not being played."),
    "standin_already": lambda: _("A computer plays this seat already."),
    "no_standins_here": lambda: _("At this table no computer plays for a player who is away."),
    "at_the_table": lambda: _("%(name)s is at the table."),
    "away_less_than": lambda: _("%(name)s has been away for less than %(limit)s."),
    "seat_is_yours": lambda: _("No computer plays this seat: it is yours."),
    "same_setting": lambda: _("That is the table's setting already."),
    "rounds_range": lambda: _(
        "A match has 1 to 13 rounds: from the double 0-0 up to the standard 12-12."
    ),
    # who may (games.permissions, and the features' own rules in games/table/commands/)
    "players_only": lambda: _("Only the players at this match can do this."),
    "players_next_round": lambda: _("Only the players at this match can start the next round."),
    "players_pause": lambda: _("Only the players at this match can pause it."),
    "players_pace": lambda: _("Only the players at this match can change the computers' pace."),
    "players_prefer": lambda: _("Only the players at this match can change how it plays for them."),
    "others_stand_in": lambda: _(
        "Only the other players at this match can let a computer play this seat."
    ),
    "owner_takes_back": lambda: _("Only this seat's player can take it back."),
    "standin_for_you": lambda: _(
        "A computer is playing this seat for you: take your seat back first."
    ),
    "not_at_this_match": lambda: _("You cannot do this at this match."),
    # the match pages' notices (games/lobby/views.py)
    "match_ready": lambda: _(
        "Match %(id)s is ready. Share the invitation link to fill the free seats."
    ),
    "match_started": lambda: _("Match %(id)s has started. Good luck!"),
    "seat_held": lambda: _("You already have seat %(number)s at this match."),
    "seat_just_taken": lambda: _("Someone took that seat a moment ago. Choose another free seat."),
    "match_full_now": lambda: _("This match is full: every seat is taken."),
    "joined": lambda: _("You joined match %(id)s at seat %(number)s."),
    # the create form's refusals (games/lobby/forms.py), beside "name_lookalike" above
    "seat_name_without_kind": lambda: _("Choose who sits at this seat, or clear the name."),
    "local_needs_name": lambda: _(
        "A pass-and-play seat needs a name, so the device can be passed to the right person."
    ),
    "invited_no_name": lambda: _(
        "An invited player brings their own user name: leave the name blank."
    ),
    "too_few_seats": lambda: _("A match needs 2 to 10 players: choose at least one more seat."),
    "seat_names_alike": lambda: _("Two seats cannot share the name “%(name)s”."),
    "seed_beside_invited": lambda: _(
        "A deal number can be chosen only when nobody else takes a seat, since "
        "whoever chooses it knows every hand. Make the invited seats computers or "
        "pass-and-play seats, or leave the number blank for a random deal."
    ),
    "seed_listed": lambda: _(
        "A deal number can be chosen only for a table not listed in the lobby, "
        "since whoever chooses it knows every hand. Untick “List in the lobby”, "
        "or leave the number blank for a random deal."
    ),
    # the front page's one-click tables (games/lobby/quick.py)
    "guests_throttled": lambda: _(
        "Too many guest accounts were made from your address in the last hour. "
        "Please wait a while, or sign up or log in to play."
    ),
    "friends_range": lambda: _("Choose 1 to %(most)s friends."),
    "table_ready": lambda: _(
        "Your table is ready. Copy the invitation link and send it to your friends."
    ),
}


def sentence(key: str, **params: object) -> str:
    """The site's sentence for `key` (one of `SITE`) in the active language, `params` put in."""
    text = SITE[key]()
    return text % params if params else text


# ---------------------------------------------------------------- the create form

#: The create form's words that Django shows with its fields (games/lobby/forms.py): each computer
#: level's one line (by level), the fields' help texts and their own refusals, by key. Lazy:
#: the form's fields are made once and shown in each request's language.
FORM: dict[str, _StrPromise] = {
    "beginner": gettext_lazy(
        "Plays carelessly: often keeps its heavy tiles too long and cuts its first train short."
    ),
    "casual": gettext_lazy("Gets rid of its heaviest tile whenever it can, without a plan."),
    "expert": gettext_lazy(
        "Plans its first train, follows its doubles and keeps its options open."
    ),
    "seed_help": gettext_lazy(
        "The same number deals the same tiles again, to replay a match. Only for a table "
        "without other people, since whoever chooses it knows every hand. Leave it blank "
        "for a random deal."
    ),
    "seed_invalid": gettext_lazy(
        "Enter the seed as a whole number (0 or more), or leave it blank for a random deal."
    ),
    "seed_negative": gettext_lazy(
        "The seed cannot be negative: enter 0 or more, or leave it blank."
    ),
    "seed_too_large": gettext_lazy("That seed is too large: the largest is %(limit_value)s."),
    "length_help": gettext_lazy(
        "The standard match has 13 rounds, from the double 12 down to the double blank. "
        "A shorter match starts from a lower double and plays one round for each double "
        "down to the double blank."
    ),
    "length_invalid": gettext_lazy("Choose a match length from the list."),
    "pace_help": gettext_lazy(
        "How long the computers wait between their moves; the players can change it during the match."
    ),
    "away_limit_help": gettext_lazy(
        "How long a player may be away from the table before the others may let a computer play "
        "for them until they return; the players can change it during the match."
    ),
    "listed_help": gettext_lazy(
        "Anyone can then see the match in the lobby, take a free seat and watch it. "
        "Otherwise only the people you send the links to can."
    ),
}


# ---------------------------------------------------------------- the first-time tips

#: Each first-time tip's title and text (games/lobby/learn.py, shown by static/js/tips.js), by the
#: tip's id. A text may say the match's length (``%(rounds)s``) and its first double
#: (``%(first)s``, R31). Lazy: read in each player's language.
TIP_WORDS: dict[str, tuple[Promise, Promise]] = {
    "engine": (
        gettext_lazy("The engine double"),
        gettext_lazy(
            "Every round starts from one double in the centre: the double %(first)s in round 1, one less each "
            "round. Whoever holds it places it. If nobody held it, everyone drew one tile at a time, in turn, "
            "until someone found it: those tiles are in the hands now."
        ),
    ),
    "first_chain": (
        gettext_lazy("Your first turn: a chain"),
        gettext_lazy(
            "On your first turn you may lay as many tiles as you like on your own train, one after the other: "
            "the first matches the double in the centre, each next one the end of your train. End the turn "
            "when you are done."
        ),
    ),
    "end_open_double": (
        gettext_lazy("Ending on a double"),
        gettext_lazy(
            "Your chain ends with a double. It stays open: once everyone has had their first turn, it must be "
            "covered before anything else is played."
        ),
    ),
    "marker": (
        gettext_lazy("A marker on your train"),
        gettext_lazy(
            "Your train has a marker because you could not play. Now everyone may play on it. Play on your "
            "own train to take the marker off."
        ),
    ),
    "open_double": (
        gettext_lazy("An open double"),
        gettext_lazy(
            "A double on the table has nothing after it yet. The next plays must cover it, the oldest open "
            "double first, even on a train without a marker. If you cannot, you draw once, and if that does "
            "not help, you pass."
        ),
    ),
    "going_out": (
        gettext_lazy("One tile left"),
        gettext_lazy("Play your last tile and you go out: the round ends and you add no points."),
    ),
    "scoring": (
        gettext_lazy("Round scoring"),
        ngettext_lazy(
            "The round is over. Every hand is shown and each player adds the pips left in their hand to their "
            "total. Fewer is better: after %(rounds)s round the lowest total wins.",
            "The round is over. Every hand is shown and each player adds the pips left in their hand to their "
            "total. Fewer is better: after %(rounds)s rounds the lowest total wins.",
            "rounds",
        ),
    ),
}

# ---------------------------------------------------------------- the scores chart


def chart_title() -> str:
    """The running totals chart's title (games/charts.py), which a screen reader says."""
    return _("Running totals by round (the lowest total wins)")


def chart_after_round(number: int, totals: str) -> str:
    """The chart's description: each player's total after round `number` ("ana 12, bo 30")."""
    return _("After round %(round)s: %(totals)s.") % {"round": number, "totals": totals}


def chart_axis() -> str:
    """The chart's horizontal axis."""
    return _("Round")


def chart_point(name: str, number: int, total: int) -> str:
    """One point of the chart: `name`'s `total` after round `number`."""
    return _("%(name)s, round %(round)s: total %(total)s") % {
        "name": name,
        "round": number,
        "total": total,
    }


# ---------------------------------------------------------------- the admin's search boxes

#: What the admin shows under each search box (games/admin/), by the model it searches:
#: what a staff member may type (the lookups games/admin/lookups.py allows). Lazy: the
#: admin is made once.
SEARCH_HELP: dict[str, _StrPromise] = {
    "match": gettext_lazy("A match id or seed, a user name or a seat's name."),
    "seat": gettext_lazy("A match id, a user name or a seat's name."),
    "round": gettext_lazy("A match id."),
    "log_entry": gettext_lazy("A match id or a user name."),
}
