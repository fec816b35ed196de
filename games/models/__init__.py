"""What the site stores: tables, matches, seats, rounds and the append-only log.

The engine state of the current round is cached on the match row (`Match.state`);
the log can always rebuild it: a round's deal (`Round.start`) plus its effective
actions (the log with undo, redo and restart folded in, see `games.log`) replayed
through the engine give the same state. Undo points keep the state before each
human action so Undo (R27) never replays from the start.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from django.conf import settings
from django.db import connection, models, router
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from engine.deal import ROUNDS
from games import consent

MAX_SEATS = 10

M = TypeVar("M", bound=models.Model)


def from_row(model: type[M], fields: Sequence[Any], row: Sequence[Any]) -> M:
    """The instance a query loading `fields` (in the model's field order) gives for `row`,
    for the statements written out in SQL on every action (games.services, games.table.board_reads).

    Each value is converted as the ORM converts it (a JSONField's text is decoded); the
    fields not read are deferred, loaded if asked for."""
    values = [
        f.from_db_value(value, None, connection) if hasattr(f, "from_db_value") else value
        for f, value in zip(fields, row, strict=True)
    ]
    return model.from_db(router.db_for_read(model), [f.attname for f in fields], values)


class Table(models.Model):
    """A table hosts successive matches of the same company and keeps their logs (R29)."""

    #: empty once its creator, a guest, was removed (accounts.guests)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tables_created",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self) -> str:
        return _("Table %(id)s") % {"id": self.pk}


class Match(models.Model):
    """One match at a table: 13 rounds from 12-12 (R5, R22), or a shorter one from a lower
    double n, n + 1 rounds (R31, `length`)."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        PLAYING = "playing", _("In progress")
        FINISHED = "finished", _("Finished")

    class Pace(models.TextChoices):
        """How long the computer players wait between two moves (`pace_seconds`)."""

        RELAXED = "relaxed", _("Relaxed")
        NORMAL = "normal", _("Normal")
        FAST = "fast", _("Fast")
        INSTANT = "instant", _("Instant")

    class AwayLimit(models.TextChoices):
        """How long a seat's owner may be away from the table (`AWAY_SECONDS`) before the
        other people there may let a computer play for them (games.standin)."""

        NEVER = "never", _("Never")
        MINUTES_10 = "10m", _("After 10 minutes")
        HOUR = "1h", _("After 1 hour")
        DAY = "1d", _("After 1 day")

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="matches", verbose_name=_("table")
    )
    number = models.PositiveSmallIntegerField(_("match number at the table"), default=1)
    seed = models.BigIntegerField(
        _("seed"),
        help_text=_(
            "The deal of each round is a function of the seed and the round's engine double."
        ),
    )
    #: the creator typed the seed (R4): they know every deal, so nobody else may sit at the
    #: match (games.services.matches) and it is never rated (games.history.stats)
    seed_chosen = models.BooleanField(_("seed chosen by its creator"), default=False)
    players = models.PositiveSmallIntegerField(_("players"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.WAITING
    )
    listed = models.BooleanField(_("listed in the lobby"), default=True)
    invite_token = models.CharField(_("invitation token"), max_length=32, unique=True)
    watch_token = models.CharField(_("spectator token"), max_length=32, unique=True)
    #: bumped by every change; clients send the version they saw (stale requests are refused)
    version = models.PositiveIntegerField(_("version"), default=0)
    round_number = models.PositiveSmallIntegerField(_("round"), default=1)
    #: R31: the match's length in rounds, chosen at creation: n + 1 rounds from the double n
    #: (13 from 12-12, the standard); words for it in games.length
    length = models.PositiveSmallIntegerField(_("rounds in the match"), default=ROUNDS)
    #: engine snapshot of the current round (engine.serialize); a cache the log rebuilds
    state = models.JSONField(_("state"), null=True, blank=True, editable=False)
    #: empty once its creator, a guest, was removed (accounts.guests)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="matches_created",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    #: the computers' pace, chosen at creation and changed by the seated people
    #: (games.services.table_settings.pace_set)
    pace = models.CharField(
        _("computer pace"), max_length=10, choices=Pace.choices, default=Pace.NORMAL
    )
    #: "skip to my turn": the computers play without waiting until a person is to act again
    hurry = models.BooleanField(_("computers hurry"), default=False)
    #: how long a person's seat may stay away before the others may let a computer play it
    #: until its owner returns (games.standin); chosen at creation, changed by the seated people
    away_limit = models.CharField(
        _("seat away limit"), max_length=10, choices=AwayLimit.choices, default=AwayLimit.HOUR
    )
    #: R29, once the match is over: who will play again, who left, what the creator chose for
    #: the left seats and the match that followed (games.table.commands.play_again); None
    #: until someone answers
    again = models.JSONField(_("play again"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-updated_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "number"], name="match_number_unique_per_table"
            ),
            models.CheckConstraint(
                condition=Q(players__gte=2) & Q(players__lte=MAX_SEATS),
                name="match_players_2_to_10",
            ),
            models.CheckConstraint(
                condition=Q(round_number__gte=1) & Q(round_number__lte=13),
                name="match_round_1_to_13",
            ),
            models.CheckConstraint(
                condition=Q(length__gte=1) & Q(length__lte=13), name="match_length_1_to_13"
            ),
            models.CheckConstraint(
                condition=Q(round_number__lte=F("length")), name="match_round_within_length"
            ),
            models.CheckConstraint(condition=Q(seed__gte=0), name="match_seed_not_negative"),
            models.CheckConstraint(
                condition=Q(status__in=["waiting", "playing", "finished"]),
                name="match_status_valid",
            ),
            # A started match always has its current round's snapshot.
            models.CheckConstraint(
                condition=Q(status="waiting") | Q(state__isnull=False),
                name="match_started_has_state",
            ),
            models.CheckConstraint(
                condition=Q(status="finished", finished_at__isnull=False)
                | (~Q(status="finished") & Q(finished_at__isnull=True)),
                name="match_finished_has_time",
            ),
            models.CheckConstraint(
                condition=~Q(invite_token="") & ~Q(watch_token=""), name="match_tokens_not_empty"
            ),
            models.CheckConstraint(
                condition=Q(pace__in=["relaxed", "normal", "fast", "instant"]),
                name="match_pace_valid",
            ),
            models.CheckConstraint(
                condition=Q(away_limit__in=["never", "10m", "1h", "1d"]),
                name="match_away_limit_valid",
            ),
        ]
        indexes = [models.Index(fields=["status", "listed"])]
        permissions = [
            # Staff watch a table they have no part in, live, only with this (games.permissions).
            ("watch_private_table", _("Can watch any table live")),
        ]

    def __str__(self) -> str:
        return _("Match %(id)s") % {"id": self.pk}


#: seconds between two computer moves at each pace when settings.COMPUTER_DELAY is its
#: default (0.6 s, "normal"); the setting scales them all (0 in tests: every pace instant)
PACE_SECONDS = {"relaxed": 1.5, "normal": 0.6, "fast": 0.25, "instant": 0.0}

#: seconds a seat's owner may be away before a computer may stand in (None: never; games.standin)
AWAY_SECONDS: dict[str, int | None] = {"never": None, "10m": 600, "1h": 3600, "1d": 86400}


class Seat(models.Model):
    """A seat (R2): a signed-in player, a pass-and-play seat on the creator's device, or a computer."""

    class Kind(models.TextChoices):
        HUMAN = "human", _("Player")
        LOCAL = "local", _("Pass-and-play")
        COMPUTER = "computer", _("Computer")

    class Level(models.TextChoices):
        """engine.bots.LEVELS, weakest first."""

        BEGINNER = "beginner", _("Beginner")
        CASUAL = "casual", _("Casual")
        EXPERT = "expert", _("Expert")

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="seats", verbose_name=_("match")
    )
    index = models.PositiveSmallIntegerField(_("seat index"))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    #: HUMAN: the player once joined (empty while the seat is free); LOCAL: the creator
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
        verbose_name=_("user"),
    )
    #: shown at the table: a pass-and-play or computer name (players show their user name);
    #: a player's seat with no user but a name is a removed guest's (accounts.guests)
    name = models.CharField(_("name"), max_length=40, blank=True)
    level = models.CharField(_("level"), max_length=10, choices=Level.choices, blank=True)
    #: a person's seat played by a computer of this level while its owner is away (games.standin);
    #: empty when its owner plays it
    standin = models.CharField(
        _("computer standing in"), max_length=10, choices=Level.choices, blank=True
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="seat_index_unique_per_match"),
            models.UniqueConstraint(
                fields=["match", "user"],
                condition=Q(kind="human"),
                name="one_player_seat_per_user_per_match",
            ),
            models.CheckConstraint(condition=Q(index__lt=MAX_SEATS), name="seat_index_below_10"),
            models.CheckConstraint(
                condition=(Q(kind="computer", user__isnull=True) & ~Q(level=""))
                | (Q(kind="human") & Q(level=""))
                | (Q(kind="local", user__isnull=False) & Q(level="")),
                name="seat_kind_fields_consistent",
            ),
            # only a person's seat (a player's or a pass-and-play one) has a computer stand in
            models.CheckConstraint(
                condition=Q(standin="") | ~Q(kind="computer"), name="seat_standin_for_people"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}/{self.index + 1} {self.display_name}"  # seats from 1, as players see them

    @property
    def display_name(self) -> str:
        """The name shown at the table; unnamed seats get a translated default."""
        if self.kind == self.Kind.HUMAN:
            if self.user is not None:
                return self.user.get_username()
            if self.name:
                return str(_("%(name)s (former guest)") % {"name": self.name})
            return str(_("Free seat %(n)s") % {"n": self.index + 1})
        if self.name:
            return self.name
        if self.kind == self.Kind.COMPUTER:
            return str(_("Computer %(n)s") % {"n": self.index + 1})
        return str(_("Player %(n)s") % {"n": self.index + 1})

    @property
    def computer_plays(self) -> bool:
        """Whether a computer chooses this seat's moves: a computer's seat, or a person's seat
        with a computer standing in (games.standin)."""
        return self.kind == self.Kind.COMPUTER or bool(self.standin)

    @property
    def computer_level(self) -> str:
        """The level of the computer that plays this seat now ("" when a person does)."""
        return self.level if self.kind == self.Kind.COMPUTER else self.standin

    def controlled_by(self, user: object) -> bool:
        """Whether `user` may act for this seat (their own seat, or their pass-and-play seat)."""
        return self.may_act(self.kind, self.user_id, user)

    @staticmethod
    def may_act(kind: str, user_id: int | None, user: object) -> bool:
        """`controlled_by` for a seat of `kind` held by `user_id`, known without loading the seat."""
        return (
            kind != Seat.Kind.COMPUTER
            and user_id is not None
            and user_id == getattr(user, "pk", None)
        )


class Round(models.Model):
    """A round of a match (R5): its deal and the totals before it, then its result (R21)."""

    class EndedBy(models.TextChoices):
        OUT = "out", _("A player went out")
        BLOCKED = "blocked", _("Blocked")

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("match")
    )
    number = models.PositiveSmallIntegerField(_("round"))
    #: engine.serialize.start_to_json: the deal and the totals before this round (R28)
    start = models.JSONField(_("deal and totals before"), editable=False)
    ended_by = models.CharField(_("ended by"), max_length=10, choices=EndedBy.choices, blank=True)
    points = models.JSONField(_("penalty points"), null=True, blank=True)
    totals = models.JSONField(_("totals after"), null=True, blank=True)
    restarts = models.PositiveSmallIntegerField(_("restarts"), default=0)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)
    #: not a column: the round's log's last sequence number (None: no entry yet), set when
    #: games.services.store reads the round for a change
    last_seq: int | None

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "number"], name="round_number_unique_per_match"
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1) & Q(number__lte=13), name="round_number_1_to_13"
            ),
            # A round's result is all there (R21) or not at all (still being played).
            models.CheckConstraint(
                condition=Q(
                    ended_by="", points__isnull=True, totals__isnull=True, ended_at__isnull=True
                )
                | (
                    Q(ended_by__in=["out", "blocked"])
                    & Q(points__isnull=False, totals__isnull=False, ended_at__isnull=False)
                ),
                name="round_result_complete",
            ),
        ]

    def __str__(self) -> str:
        return _("Round %(n)s of match %(m)s") % {"n": self.number, "m": self.match_id}


class LogEntry(models.Model):
    """One line of a round's append-only log: a game action, or undo / redo / restart."""

    class Kind(models.TextChoices):
        ACTION = "action", _("Action")
        UNDO = "undo", _("Undo")
        REDO = "redo", _("Redo")
        RESTART = "restart", _("Restart round")
        #: a change asked of the other people at the table (games.consent), and its answers
        #: (``{"change": <a kind's name>, "step": "ask"|"accept"|"decline"|"expire"|"void"}``)
        CONSENT = "consent", _("Request")
        #: R32: the round in play was made the match's last
        LAST_ROUND = "last_round", _("Last round")

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="log", verbose_name=_("round")
    )
    seq = models.PositiveIntegerField(_("sequence number"))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    #: the acting seat of an action (None for undo/redo/restart)
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    #: an action in the replay format ({"seat", "act", "tile", "train"}); for undo: {"count": k}
    action = models.JSONField(_("action"), null=True, blank=True)
    #: the signed-in user who asked for it; empty for a computer player's action
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("user"),
    )
    by_computer = models.BooleanField(_("by a computer player"), default=False)
    #: the match version after this entry
    version = models.PositiveIntegerField(_("version"))
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("log entry")
        verbose_name_plural = _("log entries")
        ordering = ["round", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["round", "seq"], name="log_seq_unique_per_round"),
            models.CheckConstraint(
                condition=~Q(kind="action") | Q(seat__isnull=False, action__isnull=False),
                name="log_action_has_seat_and_action",
            ),
            models.CheckConstraint(
                condition=Q(
                    kind__in=["action", "undo", "redo", "restart", "consent", "last_round"]
                ),
                name="log_kind_valid",
            ),
            models.CheckConstraint(condition=Q(seq__gte=1), name="log_seq_from_1"),
            # undo and redo say how many actions they took back or restored
            models.CheckConstraint(
                condition=~Q(kind__in=["undo", "redo"])
                | Q(action__isnull=False, action__has_key="count"),
                name="log_undo_redo_has_count",
            ),
            # only an action has an acting seat; a computer's action has no user
            models.CheckConstraint(
                condition=Q(kind="action") | Q(seat__isnull=True, by_computer=False),
                name="log_only_actions_have_a_seat",
            ),
            models.CheckConstraint(
                condition=Q(by_computer=False) | Q(user__isnull=True),
                name="log_computer_has_no_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round_id}#{self.seq} {self.kind} {self.action or ''}"


class UndoPoint(models.Model):
    """The state just before a human action (R27): Undo restores it without replaying."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="undo_points", verbose_name=_("round")
    )
    #: the log entry of the human action this point precedes
    entry = models.OneToOneField(
        LogEntry, on_delete=models.CASCADE, related_name="undo_point", verbose_name=_("log entry")
    )
    state = models.JSONField(_("state before"), editable=False)

    class Meta:
        verbose_name = _("undo point")
        verbose_name_plural = _("undo points")

    def __str__(self) -> str:
        return f"undo point before {self.entry_id}"


class ClientRequest(models.Model):
    """A request id a client sent with a change, so a repeat is answered, not applied twice."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="requests", verbose_name=_("match")
    )
    request_id = models.CharField(_("request id"), max_length=64)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    #: the match version this request produced
    version = models.PositiveIntegerField(_("version"))
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("client request")
        verbose_name_plural = _("client requests")
        constraints = [
            models.UniqueConstraint(
                fields=["match", "request_id"], name="request_id_unique_per_match"
            ),
            models.CheckConstraint(condition=~Q(request_id=""), name="request_id_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}:{self.request_id} -> v{self.version}"


class Pause(models.Model):
    """A human at the table has the rules or the log open: computer players wait (R26).

    A pause lives only as long as the connection that holds it keeps saying so: the
    page renews it while the panel is open (`alive_at`), and one not renewed for
    `games.selectors.PAUSE_TIMEOUT` no longer counts (its connection, or its server
    process, is gone); the computer worker deletes those (`services.pauses_expire`)."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="pauses", verbose_name=_("match")
    )
    #: the websocket connection (channel name) that opened the panel
    channel = models.CharField(_("connection"), max_length=200)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    created_at = models.DateTimeField(_("since"), auto_now_add=True)
    #: last renewed by its connection (the page, while the panel stays open)
    alive_at = models.DateTimeField(_("renewed"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("pause")
        verbose_name_plural = _("pauses")
        constraints = [
            models.UniqueConstraint(fields=["match", "channel"], name="one_pause_per_connection"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} paused by {self.channel}"


class ChangeRequest(models.Model):
    """A change one person asked for at a table shared with others (games.consent: an undo,
    R27; a restart, R28; ending after this round, R32; a new away limit): it is made once
    every other person accepts; one declining, or a minute passing, closes it. One open
    request per match at a time (games.services.asking)."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        DONE = "done", _("Accepted and done")
        DECLINED = "declined", _("Declined")
        EXPIRED = "expired", _("Expired")
        VOID = "void", _("No longer possible")

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="change_requests", verbose_name=_("match")
    )
    #: its kind: a name of games.consent.KINDS (the services ask only registered kinds; the
    #: kinds are not listed in a constraint, so a new one needs no migration)
    change = models.CharField(_("change"), max_length=16, choices=consent.choices)
    #: what the change sets, for a kind that carries a value (the new away limit)
    value = models.CharField(_("value"), max_length=16, blank=True, default="")
    asked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("asked by"),
    )
    #: the asker's request id: a repeated one is answered with this request's state
    request_id = models.CharField(_("request id"), max_length=64, blank=True, default="")
    #: the round it is for: a request does not outlive its round
    round_number = models.PositiveSmallIntegerField(_("round"))
    #: the match version the asker saw
    version = models.PositiveIntegerField(_("version"))
    #: ids of the users who accepted so far
    accepted = models.JSONField(_("accepted by"), default=list)
    #: who declined it (the asker is told)
    declined_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("declined by"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    created_at = models.DateTimeField(_("asked"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"))
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)

    class Meta:
        verbose_name = _("request")
        verbose_name_plural = _("requests")
        constraints = [
            models.UniqueConstraint(
                fields=["match"], condition=Q(status="open"), name="one_open_request_per_match"
            ),
            models.CheckConstraint(
                condition=Q(status="open", closed_at__isnull=True)
                | (~Q(status="open") & Q(closed_at__isnull=False)),
                name="request_closed_has_time",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}: {self.change} by {self.asked_by_id} ({self.status})"


class Presence(models.Model):
    """One table connection (websocket) of a signed-in user: what "away" is measured from.

    The connection's server renews `alive_at` every `games.presence.RENEW` while the
    connection is open (the heartbeat, as for `Pause`); at its end the row is kept,
    `closed`, with the time it was last seen. A row not renewed within
    `games.presence.TIMEOUT` counts as closed whatever it says: its server is gone
    (killed without closing its sockets). Turn e-mails (games.history.mail) and the
    stand-in computers (games.standin) read it through `games.presence`."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="+", verbose_name=_("match")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    #: the websocket connection (channel name)
    channel = models.CharField(_("connection"), max_length=200)
    opened_at = models.DateTimeField(_("opened"), default=timezone.now)
    #: renewed while open; once closed, when it closed (the user was last seen there)
    alive_at = models.DateTimeField(_("last seen"), default=timezone.now)
    closed = models.BooleanField(_("closed"), default=False)

    class Meta:
        verbose_name = _("presence at a table")
        verbose_name_plural = _("presences at tables")
        constraints = [
            models.UniqueConstraint(fields=["match", "channel"], name="one_presence_per_connection")
        ]
        indexes = [
            models.Index(fields=["match", "user"]),
            models.Index(fields=["user", "alive_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.match_id} ({'closed' if self.closed else 'open'})"


class StandIn(models.Model):
    """The record of a computer standing in for a person's seat (games.standin): who handed
    the seat to a computer and when, and when its owner took it back.

    Not a line of the round's log (`LogEntry`): that log holds the game's decisions and
    the changes to them (undo, redo, restart, their requests), folds into the replay
    format's actions and is read by every replay, export, event and stats rebuild; a
    hand-over decides no move and outlives its round. The stand-in's moves themselves are
    ordinary actions of the seat in the log (``by_computer``)."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="standins", verbose_name=_("match")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    #: the computer level that played the seat (Seat.Level)
    level = models.CharField(_("level"), max_length=10, choices=Seat.Level.choices)
    handed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("handed over by"),
    )
    #: the round and match version when it was handed over
    round_number = models.PositiveSmallIntegerField(_("round"))
    version = models.PositiveIntegerField(_("version"))
    started_at = models.DateTimeField(_("since"), default=timezone.now)
    #: when its owner took the seat back (empty while the computer plays it)
    ended_at = models.DateTimeField(_("taken back"), null=True, blank=True)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("taken back by"),
    )

    class Meta:
        verbose_name = _("computer standing in")
        verbose_name_plural = _("computers standing in")
        ordering = ["match", "started_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "seat"],
                condition=Q(ended_at__isnull=True),
                name="one_standin_per_seat",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}/{self.seat} {self.level} {'until ' + str(self.ended_at) if self.ended_at else 'now'}"


class Server(models.Model):
    """A running process of the site on this database (a server, or ``manage.py
    run_computers``) and the channel layer it speaks (games.servers): processes whose
    layers differ would not hear each other's notices, so one that differs from those
    running refuses to start.

    A row counts while its process holds the PostgreSQL advisory lock
    (`games.servers.LOCK_SPACE`, the row's id) on a connection of its own, so a killed
    process stops counting as soon as PostgreSQL sees its connection close; a row left by
    one is deleted by the next process to start."""

    class Kind(models.TextChoices):
        SERVER = "server", _("server")
        COMPUTERS = "computers", _("computer players")

    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    #: the machine's host name and the process id, as an operator finds the process
    host = models.CharField(_("host"), max_length=255)
    pid = models.IntegerField(_("process id"))
    #: `tablesite.env.layer_identity`'s key: "memory", or "redis:" and a hash of where (no secret)
    layer = models.CharField(_("channel layer"), max_length=64)
    #: the same in words, e.g. "Redis redis://10.0.0.5:6379/0" (never a user name or password)
    layer_label = models.CharField(_("channel layer in words"), max_length=300)
    started_at = models.DateTimeField(_("started"), default=timezone.now)

    class Meta:
        verbose_name = _("running server")
        verbose_name_plural = _("running servers")

    def __str__(self) -> str:
        return f"{self.kind} {self.host}:{self.pid} ({self.layer_label})"
