"""Table talk after the fact: the match's participants read its chat under the
replay (nobody else: not a stranger, not staff); staff see a reported message with the lines
around it in the admin and hide it or block its sender; and who may do what (games.permissions)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Guest
from games import permissions, services
from games.chat import services as chat
from games.chat.models import Action, Block, Message, Mute, Report, TableChat
from games.chat.words import Refused
from games.permissions import Talk
from tests.games.matches import create, play_rounds

pytestmark = pytest.mark.django_db


def duo(ana: Any, ben: Any) -> Any:
    match = create(ana, "human", "casual")
    services.seat_join(match_id=match.pk, user=ben, token=match.invite_token)
    match.refresh_from_db()
    return match


def test_participants_read_the_chat_under_the_replay_in_their_language_and_nobody_else(
    ana: Any, ben: Any, ana_client: Client, admin_client_: Client, make_user: Any
) -> None:
    match = duo(ana, ben)
    chat.say(match_id=match.pk, user=ana, room="players", code="nice_double")
    chat.say(match_id=match.pk, user=ben, room="players", words="<script>alert(1)</script>")
    hidden = chat.say(match_id=match.pk, user=ben, room="players", words="rude")
    chat.hide([hidden], by=make_user("mod", is_staff=True))
    url = reverse("history:replay", args=[match.pk])
    page = ana_client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "¡Buen doble!" in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert(1)" not in page
    assert "rude" not in page
    # Staff may look back at the match's rounds, but its talk is its participants' alone.
    staff_page = admin_client_.get(url).content.decode()
    assert admin_client_.get(url).status_code == 200 and 'class="chat-history"' not in staff_page
    stranger = Client()
    stranger.force_login(make_user("eve"))
    assert stranger.get(url).status_code == 404
    assert chat.look_back(match, make_user("zed")) is None
    # A muted author is left out for the one who muted them.
    Mute.objects.create(user=ana, muted=ben)
    assert "alert" not in ana_client.get(url).content.decode()


def test_the_chat_shows_under_a_replayed_round_too(
    ana: Any, ben: Any, ana_client: Client, admin_client_: Client
) -> None:
    """Under the viewer of an ended round as under the page with none yet (the chat's
    ``{% match_chat %}`` tag on the replay page): its lines after the board, not for staff."""
    match = play_rounds(duo(ana, ben), 2)
    chat.say(match_id=match.pk, user=ben, room="players", code="good_game")
    url = reverse("history:replay", args=[match.pk]) + "?round=1"
    page = ana_client.get(url).content.decode()
    assert 'id="replay"' in page and "No round of this match has ended yet" not in page
    assert page.index('id="replay"') < page.index('class="chat-history"')
    assert "Good game!" in page
    assert 'class="chat-history"' not in admin_client_.get(url).content.decode()


def test_staff_see_a_report_with_the_lines_around_it_and_hide_it_or_block_the_sender(
    ana: Any, ben: Any, admin_client_: Client
) -> None:
    match = duo(ana, ben)
    for n in range(7):
        chat.say(match_id=match.pk, user=ana, room="players", words=f"line {n}")
        Message.objects.update(created_at="2026-01-01T00:00:00Z")  # past the flood window
    bad = chat.say(match_id=match.pk, user=ben, room="players", words="<b>rude</b> words")
    chat.say(match_id=match.pk, user=ana, room="players", words="after it")
    report = chat.report(match_id=match.pk, user=ana, message_id=bad.pk)
    page = admin_client_.get(reverse("admin:chat_report_change", args=[report.pk])).content.decode()
    assert "&lt;b&gt;rude&lt;/b&gt; words" in page and "<b>rude</b>" not in page
    assert all(f"line {n}" in page for n in range(2, 7)) and "line 1" not in page  # five before
    assert "after it" in page
    listing = reverse("admin:chat_report_changelist")
    admin_client_.post(listing, {"action": "hide_messages", "_selected_action": [report.pk]})
    bad.refresh_from_db()
    report.refresh_from_db()
    assert bad.hidden and report.handled
    assert chat.history(match.pk, "players")[-1]["text"] == "after it"
    admin_client_.post(listing, {"action": "block_senders", "_selected_action": [report.pk]})
    assert Block.objects.filter(user=ben).exists()
    with pytest.raises(Refused) as refused:
        chat.say(match_id=match.pk, user=ben, room="players", code="sorry")
    assert refused.value.code == "chat_blocked"
    assert list(Action.objects.order_by("id").values_list("kind", flat=True)) == [
        "report",
        "hide",
        "block",
    ]
    admin_client_.post(
        reverse("admin:chat_block_changelist"), {"action": "unblock", "_selected_action": [ben.pk]}
    )
    assert chat.say(match_id=match.pk, user=ben, room="players", code="sorry").code == "sorry"


def test_who_may_talk(ana: Any, ben: Any, make_user: Any) -> None:
    match = duo(ana, ben)
    carol, guest, staff = make_user("carol"), make_user("guest1"), make_user("mod", is_staff=True)
    Guest.objects.create(user=guest, last_seen=match.created_at)
    token = match.watch_token

    def may(user: Any, action: Talk, room: str | None = None, **kw: Any) -> bool:
        return permissions.chat_may(user, action, match, room=room, **kw)

    assert may(ben, Talk.POST, "players") and may(ana, Talk.POST, "players")
    assert not may(carol, Talk.READ, "players", token=token) and not may(
        carol, Talk.POST, "players", token=token
    )
    assert may(carol, Talk.READ, "spectators", token=token) and may(
        carol, Talk.POST, "spectators", token=token
    )
    assert not may(None, Talk.POST, "spectators", token=token) and may(
        None, Talk.READ, "spectators", token=token
    )
    assert not may(carol, Talk.READ, "spectators")  # no token: not at this table at all
    assert not may(staff, Talk.READ, "players") and not may(staff, Talk.LOOK_BACK)
    assert may(ben, Talk.OPEN_SPECTATORS) and not may(carol, Talk.OPEN_SPECTATORS, token=token)
    assert may(ana, Talk.SWITCH) and not may(ben, Talk.SWITCH)
    assert not may(ben, Talk.POST, "players", chat_on=False) and not may(
        ben, Talk.POST, "players", blocked=True
    )
    assert may(ben, Talk.FREE_TEXT) and not may(guest, Talk.FREE_TEXT)
    assert (
        may(ana, Talk.LOOK_BACK)
        and may(ben, Talk.LOOK_BACK)
        and not may(carol, Talk.LOOK_BACK, token=token)
    )
    # The creator's switch is kept on the match; off, nobody writes, and nothing is stored.
    chat.switch(match_id=match.pk, user=ana, on=False)
    assert TableChat.objects.get(match=match).on is False
    with pytest.raises(Refused):
        chat.say(match_id=match.pk, user=ana, room="players", code="hello")
    with pytest.raises(Refused):
        chat.switch(match_id=match.pk, user=ben, on=True)
    assert Message.objects.count() == 0 and Report.objects.count() == 0
