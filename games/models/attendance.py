"""Who is at the table: the pauses the open rules or log hold (R26), each table
connection's presence, and the computers standing in for the seats of people away."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .matches import Match, Seat


class Pause(models.Model):
    """A human at the table has the rules or the log open: computer players wait (R26).

    A pause lives only as long as the connection that holds it keeps saying so: the
    page renews it while the panel is open (`alive_at`), and one not renewed for
    `games.reads.selectors.PAUSE_TIMEOUT` no longer counts (its connection, or its server
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


class Presence(models.Model):
    """One table connection (websocket) of a signed-in user: what "away" is measured from.

    The connection's server renews `alive_at` every `games.attendance.presence.RENEW` while the
    connection is open (the heartbeat, as for `Pause`); at its end the row is kept,
    `closed`, with the time it was last seen. A row not renewed within
    `games.attendance.presence.TIMEOUT` counts as closed whatever it says: its server is gone
    (killed without closing its sockets). Turn e-mails (games.history.mail) and the
    stand-in computers (games.attendance.standin) read it through `games.attendance.presence`."""

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
    """The record of a computer standing in for a person's seat (games.attendance.standin): who
    handed the seat to a computer and when, and when its owner took it back.

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
