"""What was asked of a match: the request ids a client sent (a repeat is answered, not
applied twice) and the changes asked of the other people at a shared table (games.consent)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games import consent

from .matches import Match


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
