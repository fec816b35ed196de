"""bench/load.py's capacity figure: runs long enough for --min-samples latency
samples, the median of --searches whole searches with their spread, per mode.

The search is driven here by a stand-in for one run (`load_phase`) whose server holds a
known number of tables, different in each search, so the arithmetic is checked without
starting a server (tests/bench/test_load.py runs the real thing, tiny)."""

from __future__ import annotations

from typing import Any

import pytest

from bench import load


def args(*extra: str) -> Any:
    return load.parse_args(["--capacity", "--pace", "0.5", "--seconds", "20", *extra])


def test_a_run_lasts_long_enough_for_the_samples_asked() -> None:
    a = args()
    assert a.min_samples == 2000 and a.searches == 3
    # 20 tables offering 0.5 actions/s: 10 samples a second, so 200 s (and a little slack).
    assert 200 <= load.run_seconds(a, 20) <= 215
    # Many tables: --seconds is already enough.
    assert load.run_seconds(a, 1000) == 20
    assert load.run_seconds(args("--min-samples", "0"), 20) == 20


def test_the_figure_is_the_median_of_the_searches_with_their_spread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    capacities = iter([40, 22, 31])  # what the server holds in search 1, 2, 3
    current: dict[str, int] = {}
    calls: list[tuple[int, str]] = []

    def fake_run(a: Any, db: Any, *, tables: int, run_tag: str, mode: str) -> dict[str, Any]:
        calls.append((tables, mode))
        ok = tables <= current["limit"]
        return {
            "errors": 0,
            "p99_ms": 50.0 if ok else 500.0,
            "actions": 2100,
            "tables": tables,
            "seconds": load.run_seconds(a, tables),
            "actions_per_second": tables * a.pace,
            "p50_ms": 10.0,
            "server_cores": 0.1,
            "gc": {"max_pause_ms": 0.0},
            "loadavg_before": "0",
            "loadavg_after": "0",
        }

    def next_search(a: Any, db: Any, *, mode: str | None = None, tag: str = "") -> dict[str, Any]:
        current["limit"] = next(capacities)
        return real_search(a, db, mode=mode, tag=tag)

    real_search = load.capacity_search
    monkeypatch.setattr(load, "load_phase", fake_run)
    monkeypatch.setattr(load, "capacity_search", next_search)
    no_database: Any = None  # the stand-in runs touch none
    result = load.capacity_searches(args("--mode", "proxy"), db=no_database, mode="proxy")
    # Each search bisects to within 10% of what the server held.
    for held, truth in zip(result["each"], (40, 22, 31), strict=True):
        assert truth * 0.9 <= held <= truth
    assert result["tables_held"] == sorted(result["each"])[1]
    assert result["spread"] == [min(result["each"]), max(result["each"])]
    assert result["min_samples_per_run"] == 2100
    assert {mode for _tables, mode in calls} == {"proxy"}


def test_modes() -> None:
    assert load.modes_of(load.parse_args([])) == ["one"]
    assert load.modes_of(load.parse_args(["--processes", "2"])) == ["split"]
    assert load.modes_of(load.parse_args(["--mode", "one,proxy,split"])) == [
        "one",
        "proxy",
        "split",
    ]
    with pytest.raises(SystemExit):
        load.modes_of(load.parse_args(["--mode", "three"]))
