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
- Sending never fails a page: the link goes once the change that asked for it is
  committed (after the transaction of `save_address` or accounts.signup), through
  Django's mail backend with its short `EMAIL_TIMEOUT`; a mail server that refuses, does
  not answer, fails TLS or the login, or hangs up mid-way (`MAIL_SERVER_FAILURES`) is
  logged and told to the page as `Delivery.FAILED` (the account and its address are
  kept, and the person may send the link again after `RETRY_AFTER`).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import smtplib
import ssl
from datetime import datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import BaseUserManager
from django.core import signing
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import EmailAddress

if TYPE_CHECKING:
    from django.contrib.auth.models import User

logger = logging.getLogger(__name__)

SALT = "accounts.emails.confirm"
#: a link may be sent again after this long (a button cannot flood someone's mailbox)
RESEND_AFTER = timedelta(seconds=60)
#: a try that did not reach the mail server may be made again after this long (each try
#: may hold a server thread for up to EMAIL_TIMEOUT while the mail server does not answer)
RETRY_AFTER = timedelta(seconds=15)

#: what a mail server that is down or misbehaving raises from Django's SMTP backend:
#: refused or reset connections and timeouts (OSError: ConnectionError, TimeoutError,
#: socket.gaierror), TLS failures (ssl.SSLError, an OSError too), a refused login or
#: recipient and a server that hangs up mid-way (smtplib.SMTPException)
MAIL_SERVER_FAILURES: tuple[type[BaseException], ...] = (
    smtplib.SMTPException,
    ssl.SSLError,
    TimeoutError,
    OSError,
)


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
        row.address, row.changed_at, row.verified_at = address, now, None
        row.sent_at = row.failed_at = None
    row.save()
    get_user_model().objects.filter(pk=user.pk).update(email=address)
    user.email = address
    return row


def save_address(
    user: User, address: str, *, language: str | None = None, request: HttpRequest | None = None
) -> tuple[EmailAddress | None, Delivery | None]:
    """The account's e-mail page saved: `set_address`, then, once that is committed, a
    confirmation link when the address is new. (the row or None, the link's delivery or None)."""
    # durable: the outermost transaction, so it has committed when the block ends
    with transaction.atomic(durable=True):
        before = row_of(user)
        row = set_address(user, address)
    if row is None or (
        before is not None and before.pk == row.pk and before.address == row.address
    ):
        return row, None
    return row, send_confirmation(row, language=language, request=request)


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


class Delivery(StrEnum):
    """What asking for a confirmation e-mail did (accounts.words says it to the person)."""

    #: the link went to the mail server
    SENT = "sent"
    #: the mail server could not take it (logged); the person may try again
    FAILED = "failed"
    #: asked too soon after the last link (`RESEND_AFTER`) or the last failed try (`RETRY_AFTER`)
    WAIT = "wait"
    #: the address is confirmed already: nothing to send
    VERIFIED = "verified"


def may_send_again(row: EmailAddress, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    return (row.sent_at is None or now - row.sent_at >= RESEND_AFTER) and (
        row.failed_at is None or now - row.failed_at >= RETRY_AFTER
    )


def deliver(subject: str, body: str, address: str, *, what: str) -> bool:
    """Send one e-mail now; False (logged, without the address) when the mail server
    could not take it. `what` names the e-mail in the log."""
    try:
        send_mail(subject, body, None, [address])
    except MAIL_SERVER_FAILURES as e:
        logger.warning("%s: the mail server did not take it (%s: %s)", what, type(e).__name__, e)
        return False
    return True


def send_confirmation(
    row: EmailAddress, *, language: str | None = None, request: HttpRequest | None = None
) -> Delivery:
    """E-mail the confirmation link to the row's address now, at most once every
    `RESEND_AFTER`, and once every `RETRY_AFTER` after a try that failed. The link is on
    the host of `request` when SITE_URL is unset (`confirmation_url`).

    Call it once the change that asked for the link is committed (`save_address` and
    accounts.signup do): a link never goes for an address or an account that was then
    rolled back, and no transaction stays open while the mail server takes its time."""
    now = timezone.now()
    if row.verified:
        return Delivery.VERIFIED
    # The try is claimed in the row (failed_at, until it goes), so parallel requests (two
    # clicks, two tabs) send one link, and the limits hold across servers.
    claimed = (
        EmailAddress.objects.filter(
            pk=row.pk, address=row.address, changed_at=row.changed_at, verified_at__isnull=True
        )
        .filter(Q(sent_at__isnull=True) | Q(sent_at__lte=now - RESEND_AFTER))
        .filter(Q(failed_at__isnull=True) | Q(failed_at__lte=now - RETRY_AFTER))
        .update(failed_at=now)
    )
    if not claimed:
        # what the person is told depends on whether the last try went (accounts.words)
        fresh = EmailAddress.objects.filter(pk=row.pk).values("sent_at", "failed_at").first()
        if fresh is not None:
            row.sent_at, row.failed_at = fresh["sent_at"], fresh["failed_at"]
        return Delivery.WAIT
    row.failed_at = now
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
    if not deliver(subject, body, row.address, what=f"confirmation link of user {row.user_id}"):
        return Delivery.FAILED  # failed_at stays: the page offers to send it again
    sent = timezone.now()
    EmailAddress.objects.filter(pk=row.pk, failed_at=now).update(sent_at=sent, failed_at=None)
    row.sent_at, row.failed_at = sent, None
    return Delivery.SENT


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
