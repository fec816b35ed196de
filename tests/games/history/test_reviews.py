"""The expert's choices in the replay (games.history.reviews, engine.review): worked out by
the worker's process, never in a request, kept, and shown at the people's moves in the
reader's language; a computer's move gets none."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.db.models.signals import post_save
from django.test import Client

from engine import review as engine_review
from engine.views import view
from games import signals
from games.history import reviews
from games.history.models import RoundReview
from games.history.replays import round_replay
from games.models import Match, Round
from tests.games.matches import create, play_rounds

#: what each language says where the expert chose differently, and its button
WORDS = {
    "en": ("Show the expert's choices", "The expert would have played", "from 12 playouts"),
    "es": ("Mostrar las jugadas del experto", "El experto habría jugado", "de 12 simulaciones"),
    "de": ("Züge des Experten zeigen", "Der Experte hätte", "aus 12 Simulationen"),
}


def ended_round(ana: Any) -> tuple[Match, Round]:
    """A match of ana (playing as the casual bot would) and an expert computer, its first round over."""
    match = create(ana, "expert", seed=31)
    match = play_rounds(match, 2)
    rnd = Round.objects.get(match=match, number=1)
    assert rnd.ended_by
    return match, rnd


@pytest.fixture
def no_thread(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The worker's pass starts no thread in tests: the test works the queue itself."""
    started: list[str] = []

    class Finished:
        def is_alive(self) -> bool:
            return False

    def start() -> Finished:
        started.append(reviews.THREAD_NAME)
        return Finished()

    monkeypatch.setattr(reviews, "start_thread", start)
    monkeypatch.setitem(reviews._scan, "at", float("-inf"))
    return started


def expert_note_texts(html: str) -> list[str]:
    box = re.search(r'id="replay-expert-notes"[^>]*>(.*?)</div>', html, re.S)
    assert box is not None
    return re.findall(r"<p>(.*?)</p>", box.group(1), re.S)


@pytest.mark.django_db
def test_the_review_is_worked_out_off_the_request_path_and_shown(
    ana: Any, ana_client: Client, no_thread: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    match, rnd = ended_round(ana)
    page = f"/m/{match.pk}/replay/?round=1&step=0"
    computed: list[int] = []
    real = engine_review.review

    def counting(*args: Any, **kwargs: Any) -> Any:
        computed.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(reviews, "review", counting)

    # Before the worker: the page offers the button and works out nothing.
    html = ana_client.get(page).content.decode()
    assert "Show the expert&#x27;s choices" in html or "Show the expert's choices" in html
    assert 'data-status="ask"' in html
    assert not computed and not RoundReview.objects.exists()
    # Asking queues it; still nothing is worked out in the request.
    got = ana_client.post(
        f"/m/{match.pk}/replay/review/?round=1", HTTP_ACCEPT="application/json"
    ).json()
    assert got["status"] == "computing"
    assert not computed
    assert RoundReview.objects.get(round=rnd).status == RoundReview.Status.QUEUED
    assert "still looking" in ana_client.get(page + "&expert=1").content.decode()

    # The worker's pass: the queue is worked by a thread of its own (started here by hand).
    signals.worker_pass.send_robust(sender=None)
    assert no_thread == ["reviews"]
    reviews.work()
    row = RoundReview.objects.get(round=rnd)
    assert row.status == RoundReview.Status.DONE
    assert computed and len(row.moves) == len(computed)
    # Only ana's moves (seat 0) with a choice; never the computer's.
    assert row.moves and {m["seat"] for m in row.moves} == {0}
    replay = round_replay(match, 1)
    for m in row.moves:
        step = replay.steps[m["step"]]
        assert step.entry is not None and not step.entry.by_computer
        assert len(view(replay.steps[m["step"] - 1].state, 0).legal) > 1

    # Kept: reading it again works out nothing.
    computed.clear()
    got = ana_client.get(f"/m/{match.pk}/replay/review/?round=1").json()
    assert got["status"] == "done" and not computed

    differs = next(m for m in row.moves if m["taken"] != m["expert"])
    for lang, (button, would, playouts) in WORDS.items():
        ana_client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
        html = ana_client.get(f"/m/{match.pk}/replay/?round=1&step={differs['step']}&expert=1")
        text = html.content.decode().replace("&#x27;", "'")
        assert button.replace("Show", "Hide") in text or lang != "en"
        note = re.search(r'id="replay-expert-note"[^>]*>(.*?)</div>', text, re.S)
        assert note is not None
        assert would in note.group(1), (lang, note.group(1))
        assert playouts in note.group(1), (lang, note.group(1))
        notes = expert_note_texts(text)
        assert any(would in n for n in notes)
        page_off = ana_client.get(f"/m/{match.pk}/replay/?round=1").content.decode()
        assert button in page_off.replace("&#x27;", "'"), lang


@pytest.mark.django_db
def test_rounds_that_end_are_queued_by_the_worker(
    ana: Any, no_thread: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    match, rnd = ended_round(ana)
    signals.worker_pass.send_robust(sender=None)
    assert not RoundReview.objects.exists()  # tests ask (tests/conftest.py): nothing queued
    monkeypatch.setenv("EXPERT_REVIEWS", "ended")
    monkeypatch.setitem(reviews._scan, "at", float("-inf"))
    signals.worker_pass.send_robust(sender=None)
    assert RoundReview.objects.filter(round=rnd, status=RoundReview.Status.QUEUED).exists()
    assert no_thread == ["reviews"]
    # A round of computers only gets no review.
    assert not RoundReview.objects.filter(round__match=match, round__number=2).exists()


@pytest.mark.django_db
def test_the_page_queues_nothing_and_a_form_without_script_shows_the_choices(
    ana: Any, ana_client: Client
) -> None:
    match, rnd = ended_round(ana)
    saves: list[object] = []
    post_save.connect(
        lambda sender, **kw: saves.append(sender), sender=RoundReview, weak=False, dispatch_uid="t"
    )
    try:
        ana_client.get(f"/m/{match.pk}/replay/?round=1")
        ana_client.get(f"/m/{match.pk}/replay/review/?round=1")
    finally:
        post_save.disconnect(sender=RoundReview, dispatch_uid="t")
    assert not saves and not RoundReview.objects.exists()
    back = ana_client.post(f"/m/{match.pk}/replay/review/?round=1&step=4")
    assert back.status_code == 302
    assert back["Location"].endswith("round=1&step=4&expert=1#replay-expert")
    assert RoundReview.objects.filter(round=rnd).exists()


@pytest.mark.django_db
def test_only_those_who_may_look_back_see_or_ask(ana: Any, ben: Any) -> None:
    match, _rnd = ended_round(ana)
    other = Client()
    other.force_login(ben)
    assert other.get(f"/m/{match.pk}/replay/review/?round=1").status_code == 404
    assert other.post(f"/m/{match.pk}/replay/review/?round=1").status_code == 404
    assert not RoundReview.objects.exists()
