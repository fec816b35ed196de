"""What the history wing stores: each player's stats and rating, which matches they count,
and the turn e-mails (settings and what was sent; presence is games.attendance.presence).

Stats are a cache the action log rebuilds: `manage.py rebuild_stats` recounts every
finished match from its rounds' deals and logs (`games.history.stats`) and gives the
same numbers as the counting done when each match ended.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Match, Round


def _token() -> str:
    return secrets.token_urlsafe(24)


class PlayerStats(models.Model):
    """One account's record over finished matches where it held a player's seat."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="history_stats",
        verbose_name=_("user"),
    )
    matches = models.PositiveIntegerField(_("matches"), default=0)
    #: R22: the lowest total alone
    wins = models.PositiveIntegerField(_("wins"), default=0)
    #: R22: equal lowest totals win together
    shared_wins = models.PositiveIntegerField(_("shared wins"), default=0)
    rounds = models.PositiveIntegerField(_("rounds"), default=0)
    penalty_sum = models.PositiveIntegerField(_("penalty points"), default=0)
    best_round = models.PositiveIntegerField(_("best round"), null=True, blank=True)
    worst_round = models.PositiveIntegerField(_("worst round"), null=True, blank=True)
    #: rounds this player ended by emptying their hand (R20)
    rounds_out = models.PositiveIntegerField(_("rounds gone out"), default=0)
    #: {"people"|"beginner"|"casual"|"expert": {"matches": n, "wins": n, "shared_wins": n}}
    by_opponents = models.JSONField(_("by opponents"), default=dict)
    #: openskill (Plackett–Luce) rating from matches among people only; None before the first
    rating_mu = models.FloatField(_("rating"), null=True, blank=True)
    rating_sigma = models.FloatField(_("rating uncertainty"), null=True, blank=True)
    rated_matches = models.PositiveIntegerField(_("rated matches"), default=0)

    class Meta:
        verbose_name = _("player's stats")
        verbose_name_plural = _("players' stats")

    def __str__(self) -> str:
        return str(self.user)

    @property
    def average_penalty(self) -> float | None:
        return self.penalty_sum / self.rounds if self.rounds else None

    @property
    def rating_low(self) -> float | None:
        """The rating players are ranked by: mean minus three deviations (openskill's ordinal)."""
        if self.rating_mu is None or self.rating_sigma is None:
            return None
        return self.rating_mu - 3 * self.rating_sigma


class CountedMatch(models.Model):
    """A finished match already added to its players' stats (counted once, in this order)."""

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, primary_key=True, related_name="+", verbose_name=_("match")
    )
    counted_at = models.DateTimeField(_("counted"), auto_now_add=True)

    class Meta:
        verbose_name = _("counted match")
        verbose_name_plural = _("counted matches")

    def __str__(self) -> str:
        return f"match {self.match_id} counted"


class TurnMail(models.Model):
    """An account's choice about e-mails when it is their turn (opt-in), and its unsubscribe key.
    Whether the account is at a table, and since when it is not, is
    `games.attendance.presence`'s."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="turn_mail",
        verbose_name=_("user"),
    )
    enabled = models.BooleanField(_("e-mail me when it is my turn"), default=False)
    #: minutes without the table open before an e-mail goes
    after_minutes = models.PositiveIntegerField(_("after minutes away"), default=30)
    token = models.CharField(_("unsubscribe key"), max_length=64, unique=True, default=_token)

    class Meta:
        verbose_name = _("turn e-mail setting")
        verbose_name_plural = _("turn e-mail settings")
        constraints = [
            models.CheckConstraint(
                condition=Q(after_minutes__gte=1) & Q(after_minutes__lte=10080),
                name="history_turnmail_minutes_range",
            )
        ]

    def __str__(self) -> str:
        return str(self.user)


class TurnMailSent(models.Model):
    """One e-mail per turn at most: a turn is (match, round, the log's length at its start)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="+", verbose_name=_("match")
    )
    turn_key = models.CharField(_("turn"), max_length=64)
    sent_at = models.DateTimeField(_("sent"), auto_now_add=True)

    class Meta:
        verbose_name = _("turn e-mail sent")
        verbose_name_plural = _("turn e-mails sent")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "match", "turn_key"], name="history_one_mail_per_turn"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.match_id} {self.turn_key}"


class RoundReview(models.Model):
    """The expert's look back at the people's decisions of one ended round
    (games.history.reviews, engine.review), computed by the computer worker's process, never
    in a request, and kept.

    `moves` holds one entry per decision of a person with a choice, in step order:
    ``{"step", "seat", "taken", "expert", "reason", "taken_points", "expert_points",
    "playouts"}`` (actions in the replay format; the points None where the expert chose the
    same). `version` is the match version after the round's last effective action when the
    review was made: a round whose log says otherwise is reviewed again."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        DONE = "done", _("done")

    round = models.OneToOneField(
        Round,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="review",
        verbose_name=_("round"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    version = models.PositiveIntegerField(_("version"), default=0)
    moves = models.JSONField(_("decisions"), default=list)
    #: when a reader asked for it (it goes before the rounds queued as they ended)
    asked_at = models.DateTimeField(_("asked"), null=True, blank=True)
    queued_at = models.DateTimeField(_("queued"), default=timezone.now)
    done_at = models.DateTimeField(_("done"), null=True, blank=True)

    class Meta:
        verbose_name = _("round review")
        verbose_name_plural = _("round reviews")
        indexes = [models.Index(fields=["status", "asked_at"], name="history_review_queue")]

    def __str__(self) -> str:
        return f"review of round {self.round_id} ({self.status})"
