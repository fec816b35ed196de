"""games.attendance.presence `came_back`: when a connection opening brings a seated person back to
their table, so that the others' dots turn "here" at once. It is asked before
the connection's own row is `opened`."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from games.attendance import presence

pytestmark = pytest.mark.django_db


def test_a_first_arrival_is_not_a_return(make_match: Any, alice: Any) -> None:
    match = make_match("me", "computer")
    assert not presence.came_back(match_id=match.pk, user=alice)


def test_a_seated_person_whose_tabs_all_closed_comes_back(make_match: Any, alice: Any) -> None:
    match = make_match("me", "computer")
    presence.opened(match_id=match.pk, user=alice, channel="tab-1")
    presence.closed(match_id=match.pk, channel="tab-1")
    assert presence.came_back(match_id=match.pk, user=alice)


def test_a_second_tab_brings_nobody_back(make_match: Any, alice: Any) -> None:
    match = make_match("me", "computer")
    presence.opened(match_id=match.pk, user=alice, channel="tab-1")
    assert not presence.came_back(match_id=match.pk, user=alice)
    presence.opened(match_id=match.pk, user=alice, channel="tab-2")
    presence.closed(match_id=match.pk, channel="tab-1")
    assert not presence.came_back(match_id=match.pk, user=alice)  # tab-2 is still open
    presence.closed(match_id=match.pk, channel="tab-2")
    assert presence.came_back(match_id=match.pk, user=alice)


def test_a_spectator_or_a_guest_has_no_seat_to_come_back_to(make_match: Any, bob: Any) -> None:
    match = make_match("me", "computer")
    presence.opened(match_id=match.pk, user=bob, channel="watching")
    presence.closed(match_id=match.pk, channel="watching")
    assert not presence.came_back(match_id=match.pk, user=bob)
    assert not presence.came_back(match_id=match.pk, user=AnonymousUser())
