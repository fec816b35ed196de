"""E-mail when it is your turn and you have been away from the table (opt-in per account).

- Presence: `games.attendance.presence`, one row per table connection, renewed by its server while
  it is open (a heartbeat). An account counts as connected while one of its rows is
  live; a server killed without closing its sockets stops renewing them, and after
  `games.attendance.presence.TIMEOUT` (three minutes) they no longer block e-mails. Time away
  starts when the account was last seen at a table.
- `turn_mails_when_due()`: the computer worker's loop (games/worker/computers.py) calls it on
  every pass; it looks at most every `SCAN_EVERY` seconds in a process for matches
  where a person is to play who opted in, has a confirmed e-mail address
  (accounts.emails), is not connected,
  and whose table has been closed, and the turn open, for the minutes they chose.
  One e-mail per turn at most — a turn is the match version while it is theirs (a
  version changes with every action) — enforced by a unique row written before the
  e-mail goes (`TurnMailSent`), so several workers never send it twice.
- Each e-mail carries an unsubscribe link (`TurnMail.token`). Django's e-mail
  framework sends it (`EMAIL_BACKEND`: the console in development).
- A mail server that is down or slow never holds a move: the scan runs in a thread of its
  own (one at a time per process), not in the computer worker's pass, and each e-mail
  that the mail server does not take (refused, no answer within EMAIL_TIMEOUT, TLS,
  login, hang-up: `accounts.emails.MAIL_SERVER_FAILURES`) is logged and skipped, so the
  others of the scan still go. That turn's e-mail is not tried again (at most one per
  turn: the mail server may have taken it before it failed).
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, IntegerField, OuterRef
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts import emails
from games.attendance import presence
from games.history.models import TurnMail, TurnMailSent
from games.models import Match, Seat

logger = logging.getLogger(__name__)

#: seconds between two scans in one process
SCAN_EVERY = 30.0
_last_scan = 0.0
#: held while a scan runs in this process (`turn_mails_when_due`)
_scanning = threading.Lock()


def due_turns(now: datetime) -> list[tuple[Match, Seat, TurnMail]]:
    """(match, seat on turn, its account's setting) for every turn an e-mail is due for."""
    # A seat a computer stands in for (games.attendance.standin) waits for nobody.
    # Only to a confirmed address (accounts.emails): an unconfirmed one may be anybody's.
    on_turn = Seat.objects.filter(
        match=OuterRef("pk"),
        kind=Seat.Kind.HUMAN,
        index=OuterRef("turn"),
        standin="",
        user__turn_mail__enabled=True,
        user__email_address__verified_at__isnull=False,
    )
    matches = (
        Match.objects.filter(status=Match.Status.PLAYING, state__isnull=False)
        .annotate(turn=Cast(KeyTextTransform("turn", "state"), IntegerField()))
        .filter(Exists(on_turn))
    )
    out: list[tuple[Match, Seat, TurnMail]] = []
    for match in matches:
        seat = (
            Seat.objects.filter(match=match, index=match.turn)
            .select_related("user", "user__turn_mail")
            .first()
        )
        if seat is None or seat.user is None or emails.verified_address(seat.user) is None:
            continue
        setting = seat.user.turn_mail
        away = timedelta(minutes=setting.after_minutes)
        if presence.connected(seat.user.pk, now):
            continue
        seen = presence.last_seen(seat.user.pk)
        if seen is not None and now - seen < away:
            continue
        if now - match.updated_at < away:  # the turn has not been open that long
            continue
        out.append((match, seat, setting))
    return out


def _send(match: Match, seat: Seat, setting: TurnMail, base_url: str) -> bool:
    user = seat.user
    if user is None:  # `due_turns` gives a person's seat
        return False
    address = emails.verified_address(user)
    if address is None:
        return False
    key = f"v{match.version}"
    try:
        with transaction.atomic():
            TurnMailSent.objects.create(user=user, match=match, turn_key=key)
    except IntegrityError:
        return False  # sent already for this turn
    with translation.override(settings.LANGUAGE_CODE):
        table = base_url + reverse("games:table", args=[match.pk])
        unsubscribe = base_url + reverse("history:unsubscribe", args=[setting.token])
        subject = _("Your turn in match %(id)s") % {"id": match.pk}
        body = _(
            "Hello %(name)s,\n\nit is your turn in match %(id)s (round %(round)s of %(rounds)s).\n"
            "Play on: %(table)s\n\nYou get this e-mail because you asked for one when it is your turn "
            "and you are away.\nNo more of these e-mails: %(unsubscribe)s\n"
        ) % {
            "name": user.get_username(),
            "id": match.pk,
            "round": match.round_number,
            "rounds": match.length,
            "table": table,
            "unsubscribe": unsubscribe,
        }
    return emails.deliver(subject, body, address, what=f"turn e-mail of match {match.pk}")


def send_turn_mails(*, now: datetime | None = None) -> int:
    """Send every due turn e-mail once; how many went."""
    now = now or timezone.now()
    base_url = (settings.SITE_URL or settings.SITE_FALLBACK).rstrip("/")
    return sum(_send(m, s, t, base_url) for m, s, t in due_turns(now))


def on_worker_pass(sender: object, **kwargs: object) -> None:
    """Receiver of `games.signals.worker_pass` (connected in HistoryConfig.ready)."""
    turn_mails_when_due()


def turn_mails_when_due() -> None:
    """The worker's call on every pass: a scan at most every `SCAN_EVERY` seconds, in a
    thread of its own, so the computer players never wait for the mail server (each e-mail
    may take up to EMAIL_TIMEOUT); never raises."""
    global _last_scan
    if time.monotonic() - _last_scan < SCAN_EVERY:
        return
    if not _scanning.acquire(blocking=False):
        return  # the last scan is still sending
    _last_scan = time.monotonic()
    try:
        threading.Thread(target=_scan, name="turn-mails", daemon=True).start()
    except BaseException:
        _scanning.release()
        logger.exception("turn e-mails: could not start a scan")


def _scan() -> None:
    """One scan, in its own thread (`turn_mails_when_due`), which holds `_scanning`."""
    try:
        send_turn_mails()
    except Exception:
        logger.exception("turn e-mails: a scan failed")
    finally:
        connection.close()  # this thread's own connection
        _scanning.release()
