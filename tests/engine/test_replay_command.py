"""`python -m engine replay FILE|-` follows ../shared/spec/replay-format.md exactly.

Output: one JSON object with exactly the documented keys and types; exit 0, also
for an illegal action (reported in `error`). Exit 2 with one line on stderr and
nothing on stdout for a file that is not a valid replay.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.replay import BadReplay, run_replay
from engine.rules import apply, legal_actions, new_match_round
from engine.state import Action

from .engine_helpers import REPO, RULE_ID, play_out, replay_cmd, replay_out

KEYS = [
    "players",
    "seed",
    "round",
    "engine",
    "holder",
    "phase",
    "turn",
    "hands",
    "boneyard",
    "trains",
    "open_doubles",
    "legal",
    "ended_by",
    "round_points",
    "totals",
    "winners",
    "error",
]

BASIC: dict[str, Any] = {
    "players": 3,
    "round": 1,
    "deal": {
        "hands": [["12-12", "12-5", "5-3"], ["12-4", "4-4", "1-0"], ["6-7", "8-9"]],
        "boneyard": ["2-2", "1-1"],
    },
    "actions": [
        {"seat": 0, "act": "engine"},
        {"seat": 0, "act": "play", "tile": "5-12", "train": 0},
        {"seat": 0, "act": "end"},
    ],
}


def is_tile(x: object) -> bool:
    if not isinstance(x, str):
        return False
    parts = x.split("-")
    return len(parts) == 2 and all(p.isdigit() and 0 <= int(p) <= 12 for p in parts)


def is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def check_format(out: dict[str, Any]) -> None:
    """The output object of replay-format.md: keys, and the type of every value."""
    assert list(out) == KEYS  # exactly these keys (order as documented)
    n = out["players"]
    assert is_int(n) and 2 <= n <= 10
    assert out["seed"] is None or is_int(out["seed"])
    assert is_int(out["round"]) and 1 <= out["round"] <= 13
    assert out["engine"] == 13 - out["round"]
    assert is_int(out["holder"]) and 0 <= out["holder"] < n
    assert out["phase"] in ("engine", "first", "play", "round_over", "match_over")
    over = out["phase"] in ("round_over", "match_over")
    assert (out["turn"] is None) == over
    assert out["turn"] is None or (is_int(out["turn"]) and 0 <= out["turn"] < n)
    assert isinstance(out["hands"], list) and len(out["hands"]) == n
    assert all(isinstance(h, list) and all(is_tile(t) for t in h) for h in out["hands"])
    assert is_int(out["boneyard"]) and out["boneyard"] >= 0
    trains = out["trains"]
    assert isinstance(trains, dict) and list(trains) == [str(i) for i in range(n)] + ["mexican"]
    for key, tr in trains.items():
        assert list(tr) == (["tiles"] if key == "mexican" else ["tiles", "marker"])
        assert all(is_tile(t) for t in tr["tiles"])
        if key != "mexican":
            assert isinstance(tr["marker"], bool)
        # Each tile's first number matches the previous end; the first one the engine number.
        end = out["engine"]
        for t in tr["tiles"]:
            a, b = (int(x) for x in t.split("-"))
            assert a == end, (key, tr["tiles"])
            end = b
    assert isinstance(out["open_doubles"], list)
    for d in out["open_doubles"]:
        assert list(d) == ["tile", "train"] and is_tile(d["tile"]) and isinstance(d["train"], str)
        assert d["train"] in trains and trains[d["train"]]["tiles"][-1] == d["tile"]
    assert isinstance(out["legal"], list) and (out["legal"] == []) == over
    for a in out["legal"]:
        assert a["seat"] == out["turn"]
        assert a["act"] in ("engine", "play", "draw", "pass", "end")
        if a["act"] == "play":
            assert list(a) == ["seat", "act", "tile", "train"] and is_tile(a["tile"])
            assert a["train"] == "mexican" or (is_int(a["train"]) and 0 <= a["train"] < n)
        else:
            assert list(a) == ["seat", "act"]
    assert out["ended_by"] in ((None,) if not over else ("out", "blocked"))
    assert (out["round_points"] is None) == (not over)
    if over:
        assert len(out["round_points"]) == n and all(
            is_int(p) and p >= 0 for p in out["round_points"]
        )
    assert len(out["totals"]) == n and all(is_int(t) for t in out["totals"])
    if out["phase"] == "match_over":
        assert out["winners"] and all(is_int(w) for w in out["winners"])
    else:
        assert out["winners"] is None
    err = out["error"]
    if err is not None:
        assert list(err) == ["index", "action", "message"]
        assert (
            is_int(err["index"])
            and isinstance(err["message"], str)
            and RULE_ID.search(err["message"])
        )


# ------------------------------------------------------------------ output


def test_replay_output_has_exactly_the_documented_keys_and_types() -> None:
    out = replay_out(BASIC)
    check_format(out)
    assert out["phase"] == "first" and out["turn"] == 1
    assert out["trains"]["0"] == {"tiles": ["12-5"], "marker": False}
    assert out["trains"]["mexican"] == {"tiles": []}
    assert out["legal"] == [{"seat": 1, "act": "play", "tile": "4-12", "train": 1}]
    assert out["seed"] is None and out["error"] is None
    assert out["hands"][0] == ["3-5"] or out["hands"][0] == ["5-3"]


def test_replay_before_any_action_waits_for_the_engine() -> None:
    out = replay_out({**BASIC, "actions": []})
    check_format(out)
    assert (out["phase"], out["turn"], out["holder"], out["engine"], out["boneyard"]) == (
        "engine",
        0,
        0,
        12,
        2,
    )
    assert out["legal"] == [{"seat": 0, "act": "engine"}]


def test_replay_stdout_is_one_json_object_and_nothing_else() -> None:
    p = replay_cmd(BASIC)
    assert p.returncode == 0 and p.stderr == ""
    assert p.stdout.endswith("\n") and p.stdout.count("\n") == 1
    assert json.loads(p.stdout) == run_replay(BASIC)


def test_replay_reads_a_file_too(tmp_path: Path) -> None:
    f = tmp_path / "r.json"
    f.write_text(json.dumps(BASIC))
    p = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(f)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 0
    assert json.loads(p.stdout) == run_replay(BASIC)


def test_replay_defaults_round_1_zero_totals_no_actions() -> None:
    out = run_replay({"players": 2, "deal": {"hands": [["12-12"], ["1-2"]]}})
    check_format(out)
    assert out["round"] == 1 and out["totals"] == [0, 0] and out["phase"] == "engine"


def test_replay_tiles_out_of_play_are_allowed() -> None:
    out = run_replay(
        {"players": 2, "deal": {"hands": [["12-12", "12-1"], ["3-4"]], "boneyard": []}}
    )
    assert out["boneyard"] == 0 and out["error"] is None


# ------------------------------------------------------------------ illegal actions: exit 0 + error


def test_illegal_action_stops_the_replay_and_is_reported_with_exit_0() -> None:
    doc = {
        **BASIC,
        "actions": BASIC["actions"]
        + [
            {"seat": 1, "act": "play", "tile": "12-4", "train": "mexican"},
            {"seat": 1, "act": "play", "tile": "12-4", "train": 1},
        ],
    }
    out = replay_out(doc)
    check_format(out)
    assert out["error"]["index"] == 3
    assert out["error"]["action"] == {"seat": 1, "act": "play", "tile": "12-4", "train": "mexican"}
    assert "(R8)" in out["error"]["message"]
    # The state is the one before the illegal action; later actions are not applied.
    assert out["turn"] == 1 and out["trains"]["1"]["tiles"] == []
    before = run_replay({**doc, "actions": doc["actions"][:3]})
    assert {k: v for k, v in out.items() if k != "error"} == {
        k: v for k, v in before.items() if k != "error"
    }


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        ({"seat": 1, "act": "engine"}, "R7"),
        ({"seat": 0, "act": "draw"}, "R7"),
        ({"seat": 7, "act": "pass"}, "R7"),
        ({"act": "next_round"}, "R20"),
    ],
)
def test_illegal_first_action_index_0(action: dict[str, Any], rule: str) -> None:
    out = run_replay({**BASIC, "actions": [action]})
    assert out["error"]["index"] == 0 and f"({rule})" in out["error"]["message"]
    assert out["phase"] == "engine"


# ------------------------------------------------------------------ invalid files: exit 2


def hands_doc(
    hands: list[list[str]], boneyard: list[str] | None = None, **extra: Any
) -> dict[str, Any]:
    return {"players": len(hands), "deal": {"hands": hands, "boneyard": boneyard or []}, **extra}


INVALID: dict[str, str | dict[str, Any]] = {
    "bad JSON": '{"players": 3, ',
    "not JSON at all": "hello",
    "not an object": "[1, 2]",
    "unknown tile in a hand": json.dumps(hands_doc([["12-12", "13-1"], ["1-2"]])),
    "unknown tile in the boneyard": json.dumps(hands_doc([["12-12"], ["1-2"]], ["x-y"])),
    "unknown tile in an action": json.dumps(
        {**BASIC, "actions": [{"seat": 0, "act": "play", "tile": "12-13", "train": 0}]}
    ),
    "duplicate tile in one hand": json.dumps(hands_doc([["12-12", "1-2", "2-1"], ["3-4"]])),
    "duplicate tile across hands": json.dumps(hands_doc([["12-12", "1-2"], ["2-1"]])),
    "duplicate tile hand and boneyard": json.dumps(hands_doc([["12-12"], ["3-4"]], ["4-3"])),
    "one seat": json.dumps({"players": 1, "seed": 3}),
    "eleven seats": json.dumps({"players": 11, "seed": 3}),
    "zero seats": json.dumps({"players": 0, "seed": 3}),
    "players missing": json.dumps({"seed": 3}),
    "players not a number": json.dumps({"players": "3", "seed": 3}),
    "hands do not match players": json.dumps(
        {"players": 3, "deal": {"hands": [["12-12"], ["1-2"]]}}
    ),
    "round 0": json.dumps({"players": 2, "seed": 1, "round": 0}),
    "round 14": json.dumps({"players": 2, "seed": 1, "round": 14}),
    "round not a number": json.dumps({"players": 2, "seed": 1, "round": "2"}),
    "engine double nowhere": json.dumps(hands_doc([["1-2"], ["3-4"]], ["5-6"])),
    "totals of the wrong length": json.dumps({"players": 2, "seed": 1, "totals": [0]}),
    "unknown act": json.dumps({**BASIC, "actions": [{"seat": 0, "act": "fly"}]}),
    "actions not a list": json.dumps({**BASIC, "actions": {"seat": 0}}),
    "seed not a number": json.dumps({"players": 2, "seed": "abc"}),
}


@pytest.mark.parametrize("name", list(INVALID))
def test_invalid_replay_exits_2_with_one_stderr_line_and_empty_stdout(name: str) -> None:
    raw = INVALID[name]
    p = replay_cmd(None, raw=raw if isinstance(raw, str) else json.dumps(raw))
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert p.stdout == ""
    lines = p.stderr.strip("\n").split("\n")
    assert len(lines) == 1 and lines[0].strip(), p.stderr


@pytest.mark.parametrize("name", [k for k in INVALID if k not in ("bad JSON", "not JSON at all")])
def test_invalid_replay_raises_bad_replay_in_process(name: str) -> None:
    raw = INVALID[name]
    with pytest.raises(BadReplay):
        run_replay(json.loads(raw) if isinstance(raw, str) else raw)


def test_command_usage_errors_exit_2() -> None:
    for args in ([], ["replay"], ["play", "-"], ["replay", "/nonexistent/file.json"]):
        p = subprocess.run(
            [sys.executable, "-m", "engine", *args],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert p.returncode == 2 and p.stdout == "" and p.stderr.strip()


# ------------------------------------------------------------------ seeds and next_round


def log_of_match(
    players: int, seed: int, rounds: int, rng: random.Random
) -> tuple[list[dict[str, Any]], Any]:
    """Play `rounds` rounds of a seeded match in-process; return the action log and the state."""
    s = new_match_round(players, seed)
    log: list[dict[str, Any]] = []
    for r in range(rounds):
        if r:
            s = apply(s, Action("next_round"))
            log.append({"act": "next_round"})
        while not s.over:
            a = rng.choice(legal_actions(s))
            log.append(a.to_json())
            s = apply(s, a)
    return log, s


def test_neither_seed_nor_deal_picks_a_seed_and_reports_it() -> None:
    a = replay_out({"players": 4})
    b = replay_out({"players": 4})
    check_format(a)
    assert isinstance(a["seed"], int) and isinstance(b["seed"], int)
    assert a["seed"] != b["seed"]  # fresh randomness by default (R4)
    again = replay_out({"players": 4, "seed": a["seed"]})
    assert again == a  # the reported seed reproduces the deal


def test_seed_deals_the_round_and_next_round_continues_the_match() -> None:
    log, state = log_of_match(3, 99, 2, random.Random(1))
    doc = {"players": 3, "seed": 99, "actions": log}
    out = replay_out(doc)
    check_format(out)
    assert out["round"] == 2 and out["engine"] == 11 and out["phase"] == "round_over"
    assert out["totals"] == list(state.totals)
    assert out == run_replay(doc)
    # next_round once more: round 3 waits for its engine, totals carried over.
    out3 = run_replay({**doc, "actions": log + [{"act": "next_round"}]})
    assert out3["round"] == 3 and out3["phase"] == "engine" and out3["totals"] == list(state.totals)
    assert out3["round_points"] is None and out3["ended_by"] is None


def test_a_full_seeded_match_through_the_command() -> None:
    log, state = log_of_match(4, 2026, 13, random.Random(7))
    out = replay_out({"players": 4, "seed": 2026, "actions": log})
    check_format(out)
    assert out["phase"] == "match_over" and out["round"] == 13 and out["engine"] == 0
    assert out["totals"] == list(state.totals)
    best = min(state.totals)
    assert out["winners"] == [i for i, t in enumerate(state.totals) if t == best]
    extra = run_replay({"players": 4, "seed": 2026, "actions": log + [{"act": "next_round"}]})
    assert extra["error"]["index"] == len(log) and "(R22)" in extra["error"]["message"]


def test_next_round_without_a_seed_is_an_illegal_action() -> None:
    s = play_out(new_match_round(2, 1))
    log = []
    s2 = new_match_round(2, 1)
    while not s2.over:
        a = legal_actions(s2)[0]
        log.append(a.to_json())
        s2 = apply(s2, a)
    assert s2 == s
    deal = {
        "hands": [[f"{a}-{b}" for a, b in h] for h in s.start.deal.hands],
        "boneyard": [f"{a}-{b}" for a, b in s.start.deal.boneyard],
    }
    out = run_replay({"players": 2, "deal": deal, "actions": log + [{"act": "next_round"}]})
    assert out["phase"] == "round_over" and out["seed"] is None
    assert out["error"]["index"] == len(log) and "(R4)" in out["error"]["message"]
    # With the seed given alongside the deal, the next round is dealt from the seed.
    out = run_replay(
        {"players": 2, "seed": 1, "deal": deal, "actions": log + [{"act": "next_round"}]}
    )
    assert out["error"] is None and out["round"] == 2
    assert out == run_replay({"players": 2, "seed": 1, "round": 2, "totals": list(s.totals)})


def test_round_and_totals_inputs() -> None:
    out = run_replay({"players": 2, "seed": 5, "round": 13, "totals": [7, 9]})
    assert out["engine"] == 0 and out["totals"] == [7, 9] and out["round"] == 13


def test_tiles_and_trains_may_be_written_either_way() -> None:
    a = run_replay(BASIC)
    flipped = json.loads(json.dumps(BASIC))
    flipped["deal"]["hands"][0] = ["12-12", "5-12", "3-5"]
    flipped["actions"][1]["tile"] = "12-5"
    assert run_replay(flipped)["trains"] == a["trains"]
    assert a["trains"]["0"]["tiles"] == ["12-5"]
