"""The admin's match page embeds the players' replay viewer (ended rounds only, R24), with
the seed, the export under a proper file name, an import check that reports the first
action where a file parts from the match, and logs with seats numbered from 1."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine.replay import run_replay
from games.models import Match, Round
from games.reads import selectors
from tests.games.matches import create, play, play_rounds

pytestmark = pytest.mark.django_db


def replay_url(match: Match, query: str = "") -> str:
    return reverse("admin:games_match_replay", args=[match.pk]) + query


def test_the_match_admin_is_the_history_wings_and_its_replay_is_the_players_viewer(
    admin_client_: Client, ana: Any
) -> None:
    """games/admin.py keeps the match read-only; replay and export are games/history/admin.py's
    alone (the old whole-match replay with every hand of a live round is gone)."""
    from django.contrib import admin

    from games.admin import MatchAdmin
    from games.history.admin import HistoryMatchAdmin

    assert type(admin.site._registry[Match]) is HistoryMatchAdmin
    assert not hasattr(MatchAdmin, "replay_view") and not hasattr(MatchAdmin, "export_view")
    match = play(create(ana, "casual", "local", seed=3), 5)
    page = admin_client_.get(replay_url(match))
    assert [t.name for t in page.templates][0] == "admin/history/match_replay.html"
    change = admin_client_.get(
        reverse("admin:games_match_change", args=[match.pk])
    ).content.decode()
    # No export link while the match is played (the file holds the seed: its page would refuse).
    assert (
        replay_url(match) in change
        and reverse("admin:games_match_export", args=[match.pk]) not in change
    )
    over(match)
    change = admin_client_.get(
        reverse("admin:games_match_change", args=[match.pk])
    ).content.decode()
    assert reverse("admin:games_match_export", args=[match.pk]) in change


def test_a_live_round_shows_no_hand_to_staff(admin_client_: Client, ana: Any) -> None:
    match = play(create(ana, "casual", "local", seed=3), 15)
    assert match.round_number == 1 and match.state["phase"] not in ("round_over", "match_over")
    page = admin_client_.get(replay_url(match, "?round=1&step=3"))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'class="reveal' not in html and "replay-board" not in html
    assert "No round of this match has ended yet" in html
    # the seed is every deal: hidden while the match is played (tests/games/history/test_seed_secret.py)
    assert 'id="replay-seed"' not in html and 'id="replay-seed-hidden"' in html


def test_an_ended_round_on_the_board_with_log_and_positions(
    admin_client_: Client, ana: Any
) -> None:
    match = play(play_rounds(create(ana, "casual", seed=2024), 2), 3)
    rnd = Round.objects.get(match=match, number=1)
    page = admin_client_.get(replay_url(match, "?round=1&step=2"))
    html = page.content.decode()
    assert page.context["step"] == 2 and page.context["number"] == 1
    assert html.count('<div class="reveal') == 2  # both hands face up (R21)
    assert 'data-version="' in html and 'id="replay-board"' in html
    lines = page.context["lines"]
    assert len(lines) == page.context["last"] + 1
    assert (
        lines[1]["text"].endswith("(seat 1) placed the engine 12-12")
        or "(seat 2)" in lines[1]["text"]
    )
    assert all(line["seat"] in (None, 1, 2) for line in lines)  # seats counted from 1
    assert 'href="?round=1&amp;step=5"' in html  # every log line links to its position
    assert "The replay reproduces the stored state." in html
    assert rnd.ended_by
    # round 2 is being played: not offered, not served
    assert [r["number"] for r in page.context["rounds"]] == [1]
    assert admin_client_.get(replay_url(match, "?round=2")).context.get("nothing") is True


def test_import_check_reports_the_first_divergence(admin_client_: Client, ana: Any) -> None:
    match = play(play_rounds(create(ana, "casual", seed=77), 2), 4)
    doc = selectors.match_replay_doc(match)

    def check(content: bytes) -> Any:
        upload = SimpleUploadedFile("file.json", content, content_type="application/json")
        return admin_client_.post(replay_url(match), {"replay": upload}).context["check"]

    same = check(json.dumps(doc).encode())
    assert same["result"].same

    k = next(
        i for i, a in enumerate(doc["actions"]) if a.get("act") == "draw" or a.get("act") == "play"
    )
    changed = json.loads(json.dumps(doc))
    changed["actions"][k] = {"seat": changed["actions"][k]["seat"], "act": "pass"}
    result = check(json.dumps(changed).encode())["result"]
    assert result.kind == "differs" and result.index == k and result.round == 1 and result.step == k

    shorter = {**doc, "actions": doc["actions"][:-2]}
    result = check(json.dumps(shorter).encode())["result"]
    assert result.kind == "file_shorter" and result.index == len(doc["actions"]) - 2

    other_seed = {**doc, "seed": 78}
    assert check(json.dumps(other_seed).encode())["result"].kind == "start"
    no_seed = {k: v for k, v in doc.items() if k != "seed"}
    assert check(json.dumps(no_seed).encode())["result"].message == "seed"
    defaults = {
        k: v for k, v in doc.items() if k not in ("round", "totals")
    }  # the format's defaults
    assert check(json.dumps(defaults).encode())["result"].same

    assert "not a replay" in check(b"{nope")["error"]
    assert check(json.dumps({"players": 99}).encode())["result"].kind == "bad_file"
    assert (
        "Choose a replay file"
        in admin_client_.post(replay_url(match), {}).context["check"]["error"]
    )
    match.refresh_from_db()
    assert selectors.match_replay_doc(match) == doc  # a check changes nothing


def over(match: Match) -> Match:
    """The match marked finished (its seed and export are shown only then), as it stands."""
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED, finished_at=timezone.now()
    )
    match.refresh_from_db()
    return match


def test_export_is_the_replay_file_under_a_proper_name(admin_client_: Client, ana: Any) -> None:
    match = over(play(create(ana, "casual", seed=11), 6))
    response = admin_client_.get(reverse("admin:games_match_export", args=[match.pk]))
    assert (
        response["Content-Disposition"]
        == f'attachment; filename="mexican-train-match-{match.pk}-seed-11.json"'
    )
    assert run_replay(json.loads(response.content))["error"] is None


@pytest.mark.parametrize(
    ("lang", "name"),
    [
        ("en", "mexican-train-match-{id}-seed-11.json"),
        ("es", "mexican-train-partida-{id}-semilla-11.json"),
        ("de", "mexican-train-partie-{id}-seed-11.json"),
    ],
)
def test_every_export_link_names_the_file_as_the_export_serves_it(
    admin_client_: Client, ana: Any, lang: str, name: str
) -> None:
    """The match page's and the replay page's export links give the file (``download``) the
    name it is served under, in the admin's language."""
    match = over(play(create(ana, "casual", seed=11), 6))
    admin_client_.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    export = reverse("admin:games_match_export", args=[match.pk])
    served = admin_client_.get(export)["Content-Disposition"]
    assert served == f'attachment; filename="{name.format(id=match.pk)}"'
    for page in (reverse("admin:games_match_change", args=[match.pk]), replay_url(match)):
        html = admin_client_.get(page).content.decode()
        named = re.findall(rf'<a href="{re.escape(export)}" download="([^"]*)"', html)
        assert named and set(named) == {name.format(id=match.pk)}, page


def test_round_log_numbers_seats_from_one(admin_client_: Client, ana: Any) -> None:
    match = play(create(ana, "casual", seed=12), 4)
    rnd = Round.objects.get(match=match, number=1)
    html = admin_client_.get(reverse("admin:games_round_change", args=[rnd.pk])).content.decode()
    assert "(seat 1)" in html or "(seat 2)" in html
    assert "(seat 0)" not in html


def test_changelist_filters_by_computers_and_searches_players(
    admin_client_: Client, ana: Any, ben: Any
) -> None:
    with_computer = create(ana, "casual", seed=1)
    people = create(ben, "human", seed=2)
    url = reverse("admin:games_match_changelist")
    ids = [m.pk for m in admin_client_.get(url + "?computers=yes").context["cl"].result_list]
    assert with_computer.pk in ids and people.pk not in ids
    ids = [m.pk for m in admin_client_.get(url + "?computers=no").context["cl"].result_list]
    assert people.pk in ids and with_computer.pk not in ids
    ids = [m.pk for m in admin_client_.get(url + "?q=ben").context["cl"].result_list]
    assert ids == [people.pk]


def test_list_actions_export_and_check_the_selected_matches(
    admin_client_: Client, ana: Any
) -> None:
    one, two = (
        over(play(create(ana, "casual", seed=41), 5)),
        over(play(create(ana, "casual", seed=42), 3)),
    )
    live = play(create(ana, "casual", seed=43), 3)
    url = reverse("admin:games_match_changelist")
    response = admin_client_.post(
        url, {"action": "export_selected", "_selected_action": [one.pk, two.pk, live.pk]}
    )
    assert response["Content-Disposition"] == 'attachment; filename="mexican-train-replays.json"'
    docs = json.loads(response.content)
    assert [d["match"] for d in docs] == [one.pk, two.pk]  # not the live one: its seed is its deals
    assert all(
        run_replay({k: v for k, v in d.items() if k != "match"})["error"] is None for d in docs
    )
    response = admin_client_.post(
        url, {"action": "check_selected", "_selected_action": [one.pk, two.pk]}, follow=True
    )
    texts = [str(m) for m in response.context["messages"]]
    assert f"Match {one.pk}: the replay reproduces it." in texts
    assert f"Match {two.pk}: the replay reproduces it." in texts


def test_the_round_page_is_in_words_with_seats_from_one_and_links_its_replay(
    admin_client_: Client, ana: Any
) -> None:
    """No stored action in its raw form ({'act': 'engine', 'seat': 2}); points and totals by
    name with seats numbered from 1; a link to the round's replay once it has ended (R24)."""
    match = play(play_rounds(create(ana, "casual", "expert", seed=2024), 2), 3)
    ended = Round.objects.get(match=match, number=1)
    html = admin_client_.get(reverse("admin:games_round_change", args=[ended.pk])).content.decode()
    main = html[html.index('id="content-main"') :]
    assert "{&#x27;act&#x27;" not in main and "'act'" not in main and "&#x27;seat&#x27;" not in main
    assert "placed the engine 12-12" in main  # the log in words
    assert "(seat 0)" not in main and "Computer 3 (seat 3)" in main
    names = ["ana", "Computer 2", "Computer 3"]
    for i, (name, points, total) in enumerate(
        zip(names, ended.points, ended.totals, strict=True), start=1
    ):
        assert (
            f"{i}. <bdi>{name}</bdi>: {points}" in main
            and f"{i}. <bdi>{name}</bdi>: {total}" in main
        )
    assert f"[{', '.join(map(str, ended.points))}]" not in main  # not the stored list
    assert f'href="{replay_url(match, "?round=1")}"' in main and "Replay round 1" in main
    # the round still being played: no replay link, a sentence saying why
    live = Round.objects.get(match=match, number=2)
    html = admin_client_.get(reverse("admin:games_round_change", args=[live.pk])).content.decode()
    assert replay_url(match, "?round=2") not in html and "can be replayed once it is over" in html
    # the list of rounds too
    listing = admin_client_.get(reverse("admin:games_round_changelist")).content.decode()
    assert f"1. <bdi>ana</bdi>: {ended.totals[0]}" in listing


def test_export_selected_refuses_unfinished_matches_with_a_message(
    admin_client_: Client, ana: Any
) -> None:
    live = play(create(ana, "casual", seed=43), 3)
    url = reverse("admin:games_match_changelist")
    response = admin_client_.post(
        url, {"action": "export_selected", "_selected_action": [live.pk]}, follow=True
    )
    assert "Content-Disposition" not in response  # no file, not a silent []
    texts = [str(m) for m in response.context["messages"]]
    assert any("Nothing was exported" in t and str(live.pk) in t for t in texts), texts


def test_the_bulk_export_passes_the_check_of_each_of_its_matches(
    admin_client_: Client, ana: Any
) -> None:
    one, two = (
        over(play(create(ana, "casual", seed=41), 5)),
        over(play(create(ana, "casual", seed=42), 3)),
    )
    other = over(play(create(ana, "casual", seed=44), 3))
    response = admin_client_.post(
        reverse("admin:games_match_changelist"),
        {"action": "export_selected", "_selected_action": [one.pk, two.pk]},
    )
    content = response.content

    def check(match: Match) -> Any:
        upload = SimpleUploadedFile(
            "mexican-train-replays.json", content, content_type="application/json"
        )
        page = admin_client_.post(replay_url(match), {"replay": upload})
        return page.context["check"], page.content.decode()

    for match in (one, two):
        result, html = check(match)
        assert "error" not in result and result["result"].same, result
        assert "replays this match action for action" in html
    result, _html = check(other)
    assert result["error"] == (
        f"That file holds the replays of other matches ({one.pk}, {two.pk}), "
        f"not of match {other.pk}."
    )


def test_the_match_page_numbers_seats_from_one(admin_client_: Client, ana: Any) -> None:
    """The admin's match page numbered the seats from 0 (its seats' rows and its
    rounds' points and totals); players see them from 1."""
    match = play(play_rounds(create(ana, "casual", "expert", seed=2024), 2), 3)
    ended = Round.objects.get(match=match, number=1)
    html = admin_client_.get(reverse("admin:games_match_change", args=[match.pk])).content.decode()
    main = html[html.index('id="content-main"') :]
    seats = re.findall(r'<td class="field-seat_number">\s*<p>(\d+)</p>', main)
    assert seats == ["1", "2", "3"], seats
    assert f"{match.pk}/0 " not in main and f"{match.pk}/1 ana" in main  # each seat's row title
    for i, (name, points) in enumerate(
        zip(["ana", "Computer 2", "Computer 3"], ended.points, strict=True)
    ):
        assert f"{i + 1}. <bdi>{name}</bdi>: {points}" in main
    assert f"[{', '.join(map(str, ended.points))}]" not in main  # not the stored list
    seat = match.seats.get(index=0)
    page = admin_client_.get(reverse("admin:games_seat_change", args=[seat.pk])).content.decode()
    assert re.search(r'<div class="readonly">1</div>', page), page[
        page.index('id="content-main"') :
    ][:3000]


def test_a_finished_matchs_page_offers_no_seat_or_round_to_add(
    admin_client_: Client, ana: Any
) -> None:
    """The admin adds nothing to a match (the services make its seats and rounds): a finished
    match's page offered "Add another Seat" and "Add another Round" all the same."""
    from tests.games.history.fabricate import finished_match

    match = finished_match([ana, "casual"], seed=99)
    html = admin_client_.get(reverse("admin:games_match_change", args=[match.pk])).content.decode()
    main = html[html.index('id="content-main"') :]
    assert "Add another" not in main, re.findall(r"Add another[^<]*", main)
    assert "add-row" not in main and "__prefix__" not in main  # no empty form to add from
    assert 'name="listed"' in main  # what the admin may change stays: the lobby listing
