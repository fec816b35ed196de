"""A match's rounds, each round's append-only log and the undo points beside it.

The log can always rebuild the match's cached state: a round's deal (`Round.start`) plus
its effective actions (the log with undo, redo and restart folded in, see `games.log`)
replayed through the engine give the same state. Undo points keep the state before each
human action so Undo (R27) never replays from the start.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games import log

from .matches import Match


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
    """One line of a round's append-only log: a game action, undo / redo / restart, a step of
    a request of games.consent, the last round (R32)…: a kind of games.log.KINDS."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="log", verbose_name=_("round")
    )
    seq = models.PositiveIntegerField(_("sequence number"))
    #: a name of games.log.KINDS, which the features that write entries fill: the choices are
    #: read from it, and no constraint lists the kinds, so a new kind needs no migration; an
    #: entry of a kind nobody registered is refused when it is saved (`save`, and the services'
    #: own insert, games.services.store._append)
    kind = models.CharField(_("kind"), max_length=log.MAX_NAME, choices=log.choices)
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

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Saved only with a registered kind (games.log.kind raises `UnknownKind` otherwise)."""
        log.kind(self.kind)
        super().save(*args, **kwargs)


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
