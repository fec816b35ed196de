"""E-mail when it is your turn and you are away: at most one per turn, none to accounts
that did not opt in or whose address is not confirmed, none while a table of yours is
open; every e-mail can unsubscribe."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from accounts import emails
from accounts.models import EmailAddress
from games.attendance import presence
from games.history.mail import send_turn_mails
from games.history.models import TurnMail
from games.models import Match, Presence
from tests.games.matches import create, step

pytestmark = pytest.mark.django_db


def on_turn(match: Match, seat: int = 0) -> Match:
    """Play until `seat` (ana's) is to act."""
    for _ in range(200):
        match.refresh_from_db()
        if match.state["turn"] == seat and match.state["phase"] not in ("round_over", "match_over"):
            return match
        step(match)
    raise AssertionError("never ana's turn")


def confirmed(user: Any) -> Any:
    """`user`'s address as if they had followed its confirmation link (accounts.emails)."""
    row = emails.set_address(user, user.email)
    EmailAddress.objects.filter(pk=row.pk).update(verified_at=timezone.now())
    return user


def away(match: Match, minutes: int = 90) -> None:
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - timedelta(minutes=minutes))


@pytest.fixture
def ana_opted_in(make_user: Any) -> Any:
    ana = confirmed(make_user("ana", email="ana@example.org"))
    TurnMail.objects.create(user=ana, enabled=True, after_minutes=30)
    return ana


def test_one_mail_per_turn(ana_opted_in: Any) -> None:
    match = on_turn(create(ana_opted_in, "casual", seed=21))
    away(match)
    assert send_turn_mails() == 1
    assert send_turn_mails() == 0  # the same turn: no second e-mail
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["ana@example.org"] and str(match.pk) in message.subject
    assert f"/m/{match.pk}/" in message.body
    # ana plays; her next turn is another turn
    step(match)
    match = on_turn(match)
    away(match)
    assert send_turn_mails() == 1 and len(mail.outbox) == 2


def test_none_before_the_chosen_time_or_when_not_her_turn(ana_opted_in: Any) -> None:
    match = on_turn(create(ana_opted_in, "casual", seed=21))
    away(match, minutes=10)  # chose 30
    assert send_turn_mails() == 0
    assert send_turn_mails(now=timezone.now() + timedelta(minutes=40)) == 1


def test_none_to_accounts_that_did_not_opt_in(make_user: Any) -> None:
    ben = confirmed(make_user("ben", email="ben@example.org"))
    match = on_turn(create(ben, "casual", seed=21))
    away(match)
    assert send_turn_mails() == 0  # no setting at all
    TurnMail.objects.create(user=ben, enabled=False)
    assert send_turn_mails() == 0
    assert mail.outbox == []


def test_none_to_an_unconfirmed_or_changed_address(ana_opted_in: Any) -> None:
    match = on_turn(create(ana_opted_in, "casual", seed=21))
    away(match)
    emails.set_address(ana_opted_in, "ana@elsewhere.example")  # changed: not confirmed yet
    assert send_turn_mails() == 0
    # a stored User.email alone (no confirmed row) is not enough either
    EmailAddress.objects.filter(user=ana_opted_in).delete()
    assert send_turn_mails() == 0 and mail.outbox == []
    confirmed(ana_opted_in)
    assert send_turn_mails() == 1 and mail.outbox[0].to == ["ana@elsewhere.example"]


def test_none_while_connected_and_not_right_after_leaving(ana_opted_in: Any) -> None:
    match = on_turn(create(ana_opted_in, "casual", seed=21))
    away(match, minutes=120)
    presence.opened(match_id=match.pk, user=ana_opted_in, channel="tab-1")
    presence.opened(match_id=match.pk, user=ana_opted_in, channel="tab-2")  # two tabs
    assert send_turn_mails() == 0
    presence.closed(match_id=match.pk, channel="tab-1")
    assert send_turn_mails() == 0  # one tab still open
    presence.closed(match_id=match.pk, channel="tab-2")
    assert send_turn_mails() == 0  # left just now: not away for 30 minutes yet
    assert send_turn_mails(now=timezone.now() + timedelta(minutes=31)) == 1


def test_a_connection_its_server_no_longer_renews_stops_counting(ana_opted_in: Any) -> None:
    """A server killed with ana's table open leaves her row open: once not renewed for
    `presence.TIMEOUT` (minutes, not hours) it no longer blocks her turn e-mails, and her
    time away counts from its last renewal."""
    match = on_turn(create(ana_opted_in, "casual", seed=21))
    away(match, minutes=120)
    presence.opened(match_id=match.pk, user=ana_opted_in, channel="killed")
    for _beat in range(3):  # the server renews it while it lives
        presence.renew(match_id=match.pk, channel="killed")
        assert send_turn_mails() == 0
    # The server dies: no more renewals, no close. Within the timeout she still counts as here.
    assert send_turn_mails(now=timezone.now() + presence.TIMEOUT - timedelta(seconds=5)) == 0
    assert (
        presence.connected(
            ana_opted_in.pk, timezone.now() + presence.TIMEOUT + timedelta(seconds=1)
        )
        is False
    )
    # Not yet away for her 30 minutes since the last renewal ...
    assert send_turn_mails(now=timezone.now() + timedelta(minutes=29)) == 0
    # ... then the e-mail goes, hours before the old 6-hour guard would have let it.
    assert send_turn_mails(now=timezone.now() + timedelta(minutes=31)) == 1
    assert Presence.objects.get(channel="killed").closed is False  # nobody closed it ...
    Presence.objects.filter(channel="killed").update(alive_at=timezone.now() - presence.TIMEOUT * 2)
    assert presence.expire() == 1  # ... until the worker's clean-up does
    assert Presence.objects.get(channel="killed").closed is True


def test_a_lone_server_starting_up_closes_every_presence(ana_opted_in: Any) -> None:
    match = on_turn(create(ana_opted_in, "casual", seed=21))
    presence.opened(match_id=match.pk, user=ana_opted_in, channel="before-restart")
    assert presence.connected(ana_opted_in.pk)
    assert presence.expire(everything=True) == 1
    assert not presence.connected(ana_opted_in.pk)


def test_unsubscribe_link_turns_the_mails_off(ana_opted_in: Any) -> None:
    match = on_turn(create(ana_opted_in, "casual", seed=21))
    away(match)
    send_turn_mails()
    link = re.search(r"http://\S+/mail/unsubscribe/\S+/", mail.outbox[0].body).group(0)
    path = link.split("8000", 1)[1] if "8000" in link else link
    client = Client()
    assert client.get(path).status_code == 200
    assert TurnMail.objects.get(user=ana_opted_in).enabled  # a GET changes nothing
    client.post(path)
    assert not TurnMail.objects.get(user=ana_opted_in).enabled
    assert Client().get("/mail/unsubscribe/nope/").status_code == 404


def test_the_setting_page_opts_in(make_user: Any) -> None:
    cy = make_user("cy", email="cy@example.org")
    client = Client()
    client.force_login(cy)
    assert client.get("/account/turn-mail/").status_code == 200
    client.post("/account/turn-mail/", {"enabled": "on", "after_minutes": "60"})
    setting = TurnMail.objects.get(user=cy)
    assert setting.enabled and setting.after_minutes == 60
    assert (
        client.post("/account/turn-mail/", {"enabled": "on", "after_minutes": "7"}).status_code
        == 200
    )
    assert TurnMail.objects.get(user=cy).after_minutes == 60  # refused, unchanged


# ------------------------------------------------------------------ a mail server that fails


def test_a_mail_server_that_fails_skips_that_mail_and_sends_the_others(
    ana_opted_in: Any, make_user: Any, monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    ben = confirmed(make_user("ben", email="ben@example.org"))
    TurnMail.objects.create(user=ben, enabled=True, after_minutes=30)
    for user in (ana_opted_in, ben):
        away(on_turn(create(user, "casual", seed=21)))
    real_send = emails.send_mail
    calls: list[list[str]] = []

    def first_refused(subject: str, body: str, sender: Any, to: list[str]) -> int:
        calls.append(to)
        if len(calls) == 1:
            raise ConnectionRefusedError(111, "Connection refused")
        return real_send(subject, body, sender, to)

    monkeypatch.setattr(emails, "send_mail", first_refused)
    assert send_turn_mails() == 1  # no exception; the second e-mail went
    assert len(calls) == 2 and [m.to for m in mail.outbox] == [calls[1]]
    assert "turn e-mail of match" in caplog.text and "ConnectionRefusedError" in caplog.text
    assert send_turn_mails() == 0  # at most one per turn, even one the server did not take


def test_the_computer_players_never_wait_for_the_mail_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The worker's pass starts the scan in a thread of its own and goes on at once; one
    scan at a time per process."""
    import threading
    import time

    from games.history import mail as turn_mail

    release, scans = threading.Event(), []

    def slow_scan() -> int:  # a mail server that takes its time
        scans.append(threading.current_thread().name)
        release.wait(timeout=10)
        return 0

    monkeypatch.setattr(turn_mail, "send_turn_mails", slow_scan)
    monkeypatch.setattr(turn_mail, "SCAN_EVERY", 0.0)
    monkeypatch.setattr(turn_mail, "_last_scan", 0.0)
    started = time.monotonic()
    turn_mail.turn_mails_when_due()
    turn_mail.turn_mails_when_due()  # the first scan still runs: no second one
    assert time.monotonic() - started < 1.0
    release.set()
    for _ in range(100):
        if not turn_mail._scanning.locked():
            break
        time.sleep(0.05)
    assert scans == ["turn-mails"] and not turn_mail._scanning.locked()
