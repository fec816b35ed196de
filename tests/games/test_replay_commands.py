"""`manage.py replay_check` and `manage.py export_replay` (R4: the seed and the log rebuild a match)."""

from __future__ import annotations

import copy
import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from engine.replay import run_replay
from games.models import Match
from games.reads import selectors

from .matches import create, play, play_rounds

pytestmark = pytest.mark.django_db


def check(*ids: int) -> tuple[str, str, CommandError | None]:
    out, err = StringIO(), StringIO()
    try:
        call_command("replay_check", *[str(i) for i in ids], stdout=out, stderr=err)
    except CommandError as e:
        return out.getvalue(), err.getvalue(), e
    return out.getvalue(), err.getvalue(), None


def test_replay_check_ok_for_played_matches(ana: Any) -> None:
    two_rounds = play(play_rounds(create(ana, "casual", seed=99), 2), 3)
    short = play(create(ana, "expert", "local", seed=5), 12)
    out, _err, error = check(two_rounds.pk, short.pk)
    assert error is None
    assert f"match {two_rounds.pk}: OK (round 2" in out
    assert f"match {short.pk}: OK (round 1" in out


@pytest.mark.parametrize(
    "tamper, difference",
    [
        (lambda s: s["hands"][0].append(s["boneyard"].pop()), "hands[0]"),
        (lambda s: s.__setitem__("turn", (s["turn"] + 1) % 3), "turn"),
        (lambda s: s.__setitem__("totals", [5, 0, 0]), "totals"),
        (
            lambda s: (
                s["trains"][3]["tiles"].clear()
                if s["trains"][3]["tiles"]
                else s["trains"][0].__setitem__("marker", not s["trains"][0]["marker"])
            ),
            "trains",
        ),
    ],
)
def test_replay_check_detects_a_tampered_snapshot(ana: Any, tamper: Any, difference: str) -> None:
    match = play(create(ana, "casual", "casual", seed=8), 10)
    good = play(create(ana, "casual", seed=9), 4)
    state = copy.deepcopy(match.state)
    tamper(state)
    Match.objects.filter(pk=match.pk).update(state=state)

    out, _err, error = check(good.pk, match.pk)
    assert error is not None and error.returncode == 1
    assert f"match {good.pk}: OK" in out
    assert f"match {match.pk}: MISMATCH" in out
    assert any(line.strip().startswith(difference) for line in out.splitlines())


def test_replay_check_reports_a_missing_match_and_a_waiting_one(ana: Any) -> None:
    waiting = create(ana, "human")
    out, err, error = check(waiting.pk)
    assert error is None
    assert "not started" in out
    out, err, error = check(424242)
    assert error is not None and error.returncode == 1
    assert "no such match" in err


def test_replay_check_detects_a_changed_phase(ana: Any) -> None:
    # call_command raises; manage.py turns the CommandError into its exit status (1).
    match = play(create(ana, "casual", seed=4), 3)
    Match.objects.filter(pk=match.pk).update(state={**match.state, "phase": "round_over"})
    with pytest.raises(CommandError) as caught:
        call_command("replay_check", str(match.pk), stdout=StringIO(), stderr=StringIO())
    assert caught.value.returncode == 1


def test_export_replay_writes_the_replay_file(ana: Any, tmp_path: Path) -> None:
    match = play(create(ana, "casual", "local", seed=77), 9)
    target = tmp_path / "m.json"
    call_command(
        "export_replay", str(match.pk), "-o", str(target), stdout=StringIO(), stderr=StringIO()
    )
    doc = json.loads(target.read_text(encoding="utf-8"))
    assert doc == selectors.match_replay_doc(match)
    assert run_replay(doc)["error"] is None

    out = StringIO()
    call_command("export_replay", str(match.pk), stdout=out)
    assert json.loads(out.getvalue()) == doc
    with pytest.raises(CommandError):
        call_command("export_replay", "424242", stdout=StringIO())
