"""games.presence `came_back`: when a connection opening brings a seated person back to
their table, so that the others' dots turn "here" at once (issue 19)."""

from __future__ import annotations

from typing import Any

import pytest

from games import presence

pytestmark = pytest.mark.django_db


def test_a_seated_persons_first_connection_brings_them_back(make_match: Any, alice: Any) -> None:
    match = make_match("me", "computer")
    assert presence.opened(match_id=match.pk, user=alice, channel="tab-1")
    assert presence.came_back(match_id=match.pk, user=alice, channel="tab-1")


def test_a_second_tab_brings_nobody_back(make_match: Any, alice: Any) -> None:
    match = make_match("me", "computer")
    presence.opened(match_id=match.pk, user=alice, channel="tab-1")
    presence.opened(match_id=match.pk, user=alice, channel="tab-2")
    assert not presence.came_back(match_id=match.pk, user=alice, channel="tab-2")
    presence.closed(match_id=match.pk, channel="tab-1")
    presence.closed(match_id=match.pk, channel="tab-2")
    presence.opened(match_id=match.pk, user=alice, channel="tab-3")  # both closed: back again
    assert presence.came_back(match_id=match.pk, user=alice, channel="tab-3")


def test_a_spectator_or_a_guest_has_no_seat_to_come_back_to(make_match: Any, bob: Any) -> None:
    from django.contrib.auth.models import AnonymousUser

    match = make_match("me", "computer")
    presence.opened(match_id=match.pk, user=bob, channel="watching")
    assert not presence.came_back(match_id=match.pk, user=bob, channel="watching")
    assert not presence.came_back(match_id=match.pk, user=AnonymousUser(), channel="anon")
