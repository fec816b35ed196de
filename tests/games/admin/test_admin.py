"""The admin: matches and their read-only logs, search, the replay view and the export."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine.replay import run_replay, state_json
from engine.serialize import state_from_json
from games.models import ClientRequest, LogEntry, Match, UndoPoint
from games.reads import selectors

from ..matches import create, play, play_rounds

pytestmark = pytest.mark.django_db


def replay_url(match: Match, step: int | None = None) -> str:
    url = reverse("admin:games_match_replay", args=[match.pk])
    return url if step is None else f"{url}?step={step}"


def test_changelist_lists_and_filters_matches(admin_client_: Client, ana: Any) -> None:
    waiting = create(ana, "human")
    playing = create(ana, "casual", "local")
    url = reverse("admin:games_match_changelist")
    response = admin_client_.get(url)
    assert response.status_code == 200
    assert {m.pk for m in response.context["cl"].result_list} == {waiting.pk, playing.pk}
    only_waiting = admin_client_.get(url, {"status__exact": "waiting"}).context["cl"].result_list
    assert [m.pk for m in only_waiting] == [waiting.pk]
    three = admin_client_.get(url, {"players": "3"}).context["cl"].result_list
    assert [m.pk for m in three] == [playing.pk]
    with_free = admin_client_.get(url, {"seat_kind": "free"}).context["cl"].result_list
    assert [m.pk for m in with_free] == [waiting.pk]


@pytest.mark.parametrize("term", ["id", "seed", "ben", "Guest 3", "guest"])
def test_changelist_search_by_id_seed_user_and_seat_name(
    admin_client_: Client, ana: Any, ben: Any, term: str
) -> None:
    target = create(ana, "human", "local", seed=987654)
    create(ana, "casual", seed=5)
    client = Client()
    client.force_login(ben)
    client.post(reverse("games:join", args=[target.pk, target.invite_token]), {"seat": 1})
    query = {"id": str(target.pk), "seed": "987654"}.get(term, term)
    response = admin_client_.get(reverse("admin:games_match_changelist"), {"q": query})
    # Not by the seed before the match is over: its seed is its deals (tests/games/history/test_seed_secret.py).
    assert [m.pk for m in response.context["cl"].result_list] == (
        [] if term == "seed" else [target.pk]
    )


def test_match_change_page_edits_only_listed(admin_client_: Client, ana: Any) -> None:
    match = play(create(ana, "casual", seed=11), 3)
    url = reverse("admin:games_match_change", args=[match.pk])
    page = admin_client_.get(url).content.decode()
    assert replay_url(match) in page
    # No export link while the match is played (tests/games/history/test_admin_replay.py: once it is over).
    assert reverse("admin:games_match_export", args=[match.pk]) not in page
    assert 'name="listed"' in page
    for readonly in ("seed", "status", "players", "version", "round_number"):
        assert f'name="{readonly}"' not in page
    response = admin_client_.post(
        url,
        {
            "seed": "1",
            "status": "finished",
            "version": "0",  # ignored: read-only
            "seats-TOTAL_FORMS": "0",
            "seats-INITIAL_FORMS": "2",
            "rounds-TOTAL_FORMS": "0",
            "rounds-INITIAL_FORMS": "1",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    before = (match.seed, match.status, match.version)
    match.refresh_from_db()
    assert match.listed is False
    assert (match.seed, match.status, match.version) == before


def test_log_rounds_and_undo_points_are_read_only(admin_client_: Client, ana: Any) -> None:
    match = play(create(ana, "casual", "local"), 6)
    entry = LogEntry.objects.filter(round__match=match).first()
    assert entry is not None
    models = {
        "logentry": entry,
        "round": entry.round,
        "undopoint": UndoPoint.objects.first(),
        "seat": match.seats.first(),
        "clientrequest": ClientRequest.objects.first(),
    }
    for name, obj in models.items():
        assert obj is not None, name
        assert admin_client_.get(reverse(f"admin:games_{name}_changelist")).status_code == 200
        assert admin_client_.get(reverse(f"admin:games_{name}_add")).status_code == 403
        change = admin_client_.get(reverse(f"admin:games_{name}_change", args=[obj.pk]))
        assert change.status_code == 200
        assert 'name="_save"' not in change.content.decode()  # view only
        assert (
            admin_client_.post(reverse(f"admin:games_{name}_delete", args=[obj.pk])).status_code
            == 403
        )
    assert admin_client_.get(reverse("admin:games_match_add")).status_code == 403
    assert (
        admin_client_.post(reverse("admin:games_match_delete", args=[match.pk])).status_code == 403
    )
    assert LogEntry.objects.filter(pk=entry.pk).exists()
    # The log of a match is found by its id.
    found = admin_client_.get(
        reverse("admin:games_logentry_changelist"), {"q": str(match.pk)}
    ).context["cl"]
    assert found.result_count == LogEntry.objects.filter(round__match=match).count()


def test_admin_pages_need_staff(client: Client, ana: Any) -> None:
    match = create(ana, "casual")
    signed = Client()
    signed.force_login(ana)
    for url in (replay_url(match), reverse("admin:games_match_export", args=[match.pk])):
        for c in (client, signed):
            response = c.get(url)
            assert response.status_code == 302
            assert response["Location"].startswith(reverse("admin:login"))


def test_replay_export_and_round_trip_across_rounds(admin_client_: Client, ana: Any) -> None:
    match = play(play_rounds(create(ana, "casual", seed=2024), 2), 5)
    assert match.round_number == 2
    doc = selectors.match_replay_doc(match)
    assert doc["seed"] == 2024 and doc["players"] == 2 and doc["round"] == 1
    assert doc["actions"].count({"act": "next_round"}) == 1
    assert doc.get("totals", [0, 0]) == [0, 0]

    url = reverse("admin:games_match_export", args=[match.pk])
    assert (
        admin_client_.get(url).status_code == 403
    )  # not while it is played: the file holds the seed
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED, finished_at=timezone.now()
    )
    response = admin_client_.get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        f'attachment; filename="mexican-train-match-{match.pk}-seed-2024.json"'
    )
    exported = json.loads(response.content)
    assert exported == doc

    # The export, replayed by the engine, is the state the match stored.
    replayed = run_replay(exported)
    assert replayed["error"] is None
    stored = state_json(state_from_json(match.state))
    assert replayed == stored
