"""Tables, their matches and the matches' seats: who plays what, at which pace (R2, R4,
R5, R22, R29, R31), and the pace and away limit in seconds (`PACE_SECONDS`, `AWAY_SECONDS`).

`Match.state` caches the engine state of the current round; the round's deal and its log
(games.models.rounds) can always rebuild it.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from engine.deal import ROUNDS

MAX_SEATS = 10


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
        other people there may let a computer play for them (games.attendance.standin)."""

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
    #: (games.table.commands.pace)
    pace = models.CharField(
        _("computer pace"), max_length=10, choices=Pace.choices, default=Pace.NORMAL
    )
    #: "skip to my turn": the computers play without waiting until a person is to act again
    hurry = models.BooleanField(_("computers hurry"), default=False)
    #: how long a person's seat may stay away before the others may let a computer play it
    #: until its owner returns (games.attendance.standin); chosen at creation, changed by the
    #: seated people
    away_limit = models.CharField(
        _("seat away limit"), max_length=10, choices=AwayLimit.choices, default=AwayLimit.HOUR
    )
    #: what the table's features keep on the match, each under its own name (a feature's
    #: module reads and writes its own entry, with the match's row locked): a feature that
    #: keeps something needs no field and no migration of its own
    features = models.JSONField(_("features"), default=dict, blank=True, editable=False)

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

    def kept(self, feature: str) -> Any:
        """What `feature` keeps on this match (`features`; None while it keeps nothing)."""
        return (self.features or {}).get(feature) if isinstance(self.features, dict) else None

    def keep(self, feature: str, value: Any) -> None:
        """`feature` keeps `value` on this match, written at once and beside the other
        features' entries; the caller holds the match's row locked (a service's change)."""
        self.features = {
            **(self.features if isinstance(self.features, dict) else {}),
            feature: value,
        }
        Match.objects.filter(pk=self.pk).update(features=self.features)


#: seconds between two computer moves at each pace when settings.COMPUTER_DELAY is its
#: default (0.6 s, "normal"); the setting scales them all (0 in tests: every pace instant)
PACE_SECONDS = {"relaxed": 1.5, "normal": 0.6, "fast": 0.25, "instant": 0.0}

#: seconds a seat's owner may be away before a computer may stand in (None: never;
#: games.attendance.standin)
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
    #: a person's seat played by a computer of this level while its owner is away
    #: (games.attendance.standin); empty when its owner plays it
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
        with a computer standing in (games.attendance.standin)."""
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
