"""An account's e-mail address: set, change or remove it, and prove it is yours with a link.

- `set_address` keeps `User.email` and the `EmailAddress` row together; a new address
  starts unverified and voids every link sent for an older one (the link is signed over
  the user and a hash of the address and when it was set).
- `confirmation_token` / `confirm`: a link signed with the site's key
  (`django.core.signing`), valid `EMAIL_CONFIRM_DAYS` days, working only for the account
  it was made for, signed in. `confirm` answers a reason code (`Outcome`); the words are
  in accounts/words.py.
- A verified address belongs to one account only (a unique index on the lower-cased
  address of verified rows): whoever confirms second is told it is taken.
- `verified_address` is what the turn e-mails send to (games.history.mail): an
  unverified address never gets one.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import BaseUserManager
from django.core import signing
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import EmailAddress

if TYPE_CHECKING:
    from django.contrib.auth.models import User

SALT = "accounts.emails.confirm"
#: a link may be sent again after this long (a button cannot flood someone's mailbox)
RESEND_AFTER = timedelta(seconds=60)


class Outcome(StrEnum):
    """What following a confirmation link did (accounts.words.email_outcome says it)."""

    VERIFIED = "verified"
    ALREADY = "already"
    EXPIRED = "expired"
    BAD = "bad"
    OTHER_ACCOUNT = "other_account"
    REPLACED = "replaced"
    TAKEN = "taken"


def confirm_days() -> int:
    return int(getattr(settings, "EMAIL_CONFIRM_DAYS", 3))


def row_of(user: User) -> EmailAddress | None:
    return EmailAddress.objects.filter(user=user).first()


def verified_address(user: User) -> str | None:
    """The account's address if its owner has confirmed it (and it is still the account's)."""
    row = row_of(user)
    email = getattr(user, "email", "") or ""
    if row is None or not row.verified or row.address.lower() != email.lower():
        return None
    return row.address


def normalize(address: str) -> str:
    return BaseUserManager.normalize_email((address or "").strip())


@transaction.atomic
def set_address(user: User, address: str) -> EmailAddress | None:
    """Give `user` this address (unverified unless it is the one they have); "" removes it."""
    address = normalize(address)
    row = EmailAddress.objects.select_for_update().filter(user=user).first()
    if not address:
        EmailAddress.objects.filter(user=user).delete()
        get_user_model().objects.filter(pk=user.pk).update(email="")
        user.email = ""
        return None
    if row is not None and row.address == address:
        return row
    now = timezone.now()
    if row is None:
        row = EmailAddress(user=user, address=address, changed_at=now)
    else:
        row.address, row.changed_at, row.verified_at, row.sent_at = address, now, None, None
    row.save()
    get_user_model().objects.filter(pk=user.pk).update(email=address)
    user.email = address
    return row


def _fingerprint(row: EmailAddress) -> str:
    """The address and when it was set, hashed: the link names neither (server logs keep URLs)."""
    raw = f"{row.address}\n{row.changed_at.isoformat(timespec='microseconds')}".encode()
    return hashlib.sha256(raw).hexdigest()[:24]


def confirmation_token(row: EmailAddress) -> str:
    return signing.dumps([row.user_id, _fingerprint(row)], salt=SALT)


def confirmation_url(row: EmailAddress, request: HttpRequest | None = None) -> str:
    """The link for `row`: on SITE_URL when it is set, else on the host that `request` came to
    (the one the person used), else on SITE_FALLBACK."""
    path = reverse("email_confirm", args=[confirmation_token(row)])
    if not settings.SITE_URL and request is not None:
        return request.build_absolute_uri(path)
    return (settings.SITE_URL or settings.SITE_FALLBACK).rstrip("/") + path


def may_send_again(row: EmailAddress, now: datetime | None = None) -> bool:
    return row.sent_at is None or (now or timezone.now()) - row.sent_at >= RESEND_AFTER


def send_confirmation(
    row: EmailAddress, *, language: str | None = None, request: HttpRequest | None = None
) -> bool:
    """E-mail the confirmation link to the row's address (at most once a minute); whether it
    went. The link is on the host of `request` when SITE_URL is unset (`confirmation_url`)."""
    now = timezone.now()
    if row.verified or not may_send_again(row, now):
        return False
    with translation.override(language or settings.LANGUAGE_CODE):
        subject = _("Confirm your e-mail address for Mexican Train")
        body = _(
            "Hello %(name)s,\n\nto confirm that %(address)s is your e-mail address, open this link "
            "while signed in (it works for %(days)s days):\n%(url)s\n\n"
            "If you did not ask for this, ignore this e-mail: nothing changes.\n"
        ) % {
            "name": row.user.get_username(),
            "address": row.address,
            "days": confirm_days(),
            "url": confirmation_url(row, request),
        }
    send_mail(subject, body, None, [row.address])
    EmailAddress.objects.filter(pk=row.pk).update(sent_at=now)
    row.sent_at = now
    return True


def check(user: User, token: str) -> tuple[Outcome | None, EmailAddress | None]:
    """What confirming `token` as `user` would do: (refusal, None) or (None, the row to verify);
    (ALREADY, row) when it is verified already. Changes nothing."""
    try:
        user_id, fingerprint = signing.loads(
            token, salt=SALT, max_age=timedelta(days=confirm_days())
        )
    except signing.SignatureExpired:
        return Outcome.EXPIRED, None
    except (signing.BadSignature, ValueError, TypeError):
        return Outcome.BAD, None
    if user_id != user.pk:
        return Outcome.OTHER_ACCOUNT, None
    row = row_of(user)
    if row is None or not hmac.compare_digest(_fingerprint(row), str(fingerprint)):
        return Outcome.REPLACED, None
    if row.verified:
        return Outcome.ALREADY, row
    if (
        EmailAddress.objects.filter(address__iexact=row.address, verified_at__isnull=False)
        .exclude(user=user)
        .exists()
    ):
        return Outcome.TAKEN, None
    return None, row


def confirm(user: User, token: str) -> Outcome:
    """Verify the address the link was made for, if every check passes."""
    refusal, row = check(user, token)
    if refusal is not None or row is None:
        return refusal or Outcome.BAD
    try:
        with transaction.atomic():
            updated = EmailAddress.objects.filter(
                pk=row.pk, address=row.address, changed_at=row.changed_at, verified_at__isnull=True
            ).update(verified_at=timezone.now())
    except IntegrityError:  # another account confirmed the same address a moment ago
        return Outcome.TAKEN
    return Outcome.VERIFIED if updated else Outcome.REPLACED
