"""What accounts store beyond Django's User: guest marks, table preferences, throttle records,
and whether an account's e-mail address is verified."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


class Guest(models.Model):
    """A guest account: a real User with a generated name, kept by its session.

    It turns into a full account by choosing a name and a password (the row is then
    deleted); `manage.py remove_guests` removes guests unused for 30 days."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="guest",
        verbose_name=_("user"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    #: the last day a page was seen with this session (bumped at most once a day)
    last_seen = models.DateTimeField(_("last seen"))

    class Meta:
        verbose_name = _("guest")
        verbose_name_plural = _("guests")
        indexes = [models.Index(fields=["last_seen"])]

    def __str__(self) -> str:
        return str(self.user_id)


class Preferences(models.Model):
    """Table preferences kept on the account (guests too): the learning tips, and "draw and
    pass for me when I have no play" (set from the table, games.services.autodraw_set)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="preferences",
        verbose_name=_("user"),
    )
    #: "don't show tips again"
    tips_off = models.BooleanField(_("tips turned off"), default=False)
    #: the ids of the tips already dismissed (accounts.tips.TIPS)
    tips_seen = models.JSONField(_("tips seen"), default=list, blank=True)
    #: "draw and pass for me when I have no play": the table sends the one listed action (static/js/pace.js)
    autodraw = models.BooleanField(_("draw and pass for me"), default=False)

    class Meta:
        verbose_name = _("preferences")
        verbose_name_plural = _("preferences")

    def __str__(self) -> str:
        return str(self.user_id)


class Attempt(models.Model):
    """One sign-up or guest creation from an address, for the throttle (accounts.throttle)."""

    class Kind(models.TextChoices):
        SIGNUP = "signup", _("Sign-up")
        GUEST = "guest", _("Guest")

    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    address = models.GenericIPAddressField(_("address"))
    created_at = models.DateTimeField(_("time"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("account creation")
        verbose_name_plural = _("account creations")
        indexes = [models.Index(fields=["kind", "address", "created_at"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.address} {self.created_at:%Y-%m-%d %H:%M}"


class EmailAddress(models.Model):
    """An account's e-mail address and whether its owner proved it is theirs (accounts.emails).

    `User.email` holds the same address (Django's own field, what the e-mail code reads);
    this row adds when it was verified and when it was last changed. The confirmation link
    is signed over (user, address, changed_at), so changing the address voids every older
    link. A verified address belongs to one account only (case-insensitive); an unverified
    one gets no turn e-mail (games.history.mail)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="email_address",
        verbose_name=_("user"),
    )
    address = models.EmailField(_("e-mail address"))
    changed_at = models.DateTimeField(_("changed"))
    verified_at = models.DateTimeField(_("verified"), null=True, blank=True)
    #: when the last confirmation link went (accounts.emails.RESEND_AFTER)
    sent_at = models.DateTimeField(_("link sent"), null=True, blank=True)
    #: when the last try to send a link began, while it is under way or once it failed (the
    #: mail server refused it or did not answer); cleared when a link goes
    #: (accounts.emails.RETRY_AFTER)
    failed_at = models.DateTimeField(_("link not sent"), null=True, blank=True)

    class Meta:
        verbose_name = _("e-mail address")
        verbose_name_plural = _("e-mail addresses")
        constraints = [
            models.UniqueConstraint(
                Lower("address"),
                condition=Q(verified_at__isnull=False),
                name="accounts_verified_address_once",
            )
        ]

    def __str__(self) -> str:
        return self.address

    @property
    def verified(self) -> bool:
        return self.verified_at is not None

    @property
    def link_failed(self) -> bool:
        """The last try to send a confirmation link did not reach the mail server."""
        return self.failed_at is not None
