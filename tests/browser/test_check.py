"""A page that missed a notice catches up by itself (static/js/table.js "check").

A move made where the page's server is not told (here: the test process, whose channel
layer does not reach the live server; in production: a notice dropped or expired by an
overloaded channel layer) leaves the page behind until it checks. The page checks every
`MT_CHECK_MS` (20 s; shortened here) and when it comes back into view."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from engine.rules import legal_actions
from engine.serialize import state_from_json
from games import services
from games.models import Match
from games.services import SeatSpec
from tests import seeded

from .table import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_page_that_missed_a_notice_catches_up_by_itself(
    live: str, make_user: Any, context_for: Any
) -> None:
    ana, bob = make_user("ana"), make_user("bob")
    match = seeded.match_create(creator=ana, seed=4, seats=[SeatSpec("me"), SeatSpec("human")])
    services.seat_join(match_id=match.pk, user=bob, token=match.invite_token)
    context = context_for(ana)
    context.add_init_script("window.MT_CHECK_MS = 300;")
    page = context.new_page()
    table = Table(page).open(f"{live}/m/{match.pk}/")
    version = table.version()

    row = Match.objects.get(pk=match.pk)
    action = legal_actions(state_from_json(row.state))[0]
    assert action.seat is not None
    services.action_submit(
        match_id=match.pk,
        user=[ana, bob][action.seat],
        seat=action.seat,
        action=action.to_json(),
        expected_version=row.version,
        request_id=uuid.uuid4().hex,
    )
    table.wait_version_above(version, timeout=5_000)  # no notice reached the page: its check did
    assert table.version() == version + 1
    table.assert_no_errors()
