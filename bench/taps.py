"""How long a played tile takes to leave the hand: from the click to the first frame drawn without it.

    python bench/taps.py [--plays 25] [--seats 2] [--json FILE]

What one run does, by itself, and cleans up after:

1. creates a fresh database (``--database``, default ``bench_taps``) on the PostgreSQL server
   DATABASE_URL names (default 127.0.0.1:5432), migrates it, and starts daphne on this
   checkout, production-like (DEBUG off, ``collectstatic`` first), its computer worker on;
2. in Chromium (Playwright, Debian's /usr/bin/chromium), at 1280 x 860 and at 375 x 667 in
   turn, a person plays matches against casual computers through the page as a person does:
   every turn the first move that fits, the tile then its glowing train (in the first turn
   one tap lays a tile), Draw, Pass or End first turn otherwise, a new match when a round
   ends, until ``--plays`` plays were measured at each width;
3. for each play, in the page: from the time stamp of the click that plays the tile to the
   first animation frame after the tile left the hand (hidden as on its way, or gone); the
   page's own clock, so the browser's remote control costs nothing here;
4. prints each width's median, 90th percentile and maximum, the targets (median <= 30 ms,
   maximum <= 100 ms) and the load average (the machine's other work shows in the maximum).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# Run as `python bench/taps.py`, this file's folder is first on sys.path and bench/engine.py
# would shadow the `engine` package: look in the repository instead.
ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.load import loadavg, make_users, session_cookie, setup_django  # noqa: E402
from bench.load_server import BenchDatabase, server_env  # noqa: E402
from tests.servers import Daphne  # noqa: E402

TARGET_P50_MS = 30.0
TARGET_MAX_MS = 100.0
WIDTHS = {"1280": {"width": 1280, "height": 860}, "375": {"width": 375, "height": 667}}

#: armed before the click that plays `tile`: the click's time stamp, then the first animation
#: frame after the tile left the hand (window.__left: milliseconds between them)
ARM = """(tile) => {
  window.__left = null;
  let clicked = null;
  document.addEventListener("click", (e) => { clicked = e.timeStamp; }, { capture: true, once: true });
  const gone = () => {
    const el = document.querySelector(`.htile[data-tile="${tile}"]`);
    if (!el) return true;
    const svg = el.querySelector("svg");
    return !svg || getComputedStyle(svg).visibility === "hidden";
  };
  const watch = new MutationObserver(() => {
    if (clicked === null || !gone()) return;
    watch.disconnect();
    requestAnimationFrame(() => { window.__left = performance.now() - clicked; });
  });
  watch.observe(document.getElementById("board"), { subtree: true, childList: true, attributes: true });
}"""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--plays", type=int, default=25, help="plays measured at each width")
    p.add_argument("--seats", type=int, default=2, help="seats of each match (one person)")
    p.add_argument("--database", default="bench_taps")
    p.add_argument("--json", type=Path, help="also write the results to this file")
    return p.parse_args(argv)


def new_match(user: Any, seats: int) -> int:
    from games import services
    from games.models import Match
    from games.services import SeatSpec

    match = services.match_create(
        creator=user,
        seed=int(time.time() * 1000) % 100_000,
        listed=False,
        seats=[SeatSpec("me")] + [SeatSpec("computer", level="casual")] * (seats - 1),
    )
    Match.objects.filter(pk=match.pk).update(pace=Match.Pace.FAST)  # the person's turns come soon
    return int(match.pk)


def measure(page: Any, base: str, user: Any, plays: int, seats: int) -> list[float]:
    """Play matches through the page until `plays` plays were measured."""
    from tests.browser.table import Table

    out: list[float] = []
    while len(out) < plays:
        table = Table(page).open(f"{base}/m/{new_match(user, seats)}/")
        while len(out) < plays:
            table.wait_turn_or_over(60_000)
            if table.phase() in ("round_over", "match_over"):
                break
            act, tile, train = table.first_fit()
            if act != "play":
                table.do(act)
                continue
            assert tile is not None and train is not None
            before = table.version()
            if not (table.phase() == "first" and table.your_turn()):
                page.click(f'.htile[data-tile="{tile}"]')  # selected: its trains glow
                page.evaluate(ARM, tile)
                page.click(f'.train.is-target[data-train="{train}"]')
            else:
                page.evaluate(ARM, tile)
                page.click(f'.htile[data-tile="{tile}"]')  # first turn: one tap lays it
            page.wait_for_function("() => window.__left !== null", timeout=15_000)
            out.append(float(page.evaluate("window.__left")))
            table.wait_version_above(before)
    return out


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "n": float(len(values)),
        "p50": float(statistics.median(values)),
        "p90": ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))],
        "max": ordered[-1],
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    db = BenchDatabase(args.database)
    temp = Path(tempfile.mkdtemp(prefix="bench-taps-"))
    daphne: Daphne | None = None
    results: dict[str, Any] = {"plays": args.plays, "seats": args.seats}
    try:
        db.create()
        setup_django(db.url)
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)
        user = make_users(1, "taps")[0]
        cookie = session_cookie(user)
        env = server_env(db.url, redis_url=None, conn_max_age=60)
        env.update(COMPUTER_WORKER="on", COMPUTER_DELAY="0.05")
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
        daphne = Daphne(env, log_dir=temp)
        daphne.start(60)
        os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        from playwright.sync_api import sync_playwright

        from tests.conftest import CHROMIUM_ARGS

        chromium = (
            os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
        )
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=chromium, headless=True, args=CHROMIUM_ARGS
            )
            try:
                for name, viewport in WIDTHS.items():
                    context = browser.new_context(viewport=viewport)
                    context.add_cookies([{"name": "sessionid", "value": cookie, "url": daphne.url}])
                    values = measure(context.new_page(), daphne.url, user, args.plays, args.seats)
                    context.close()
                    s = summary(values)
                    results[name] = {**s, "values": values}
                    met = s["p50"] <= TARGET_P50_MS and s["max"] <= TARGET_MAX_MS
                    print(
                        f"{name:>5} px: click -> tile out of the hand, {s['n']:.0f} plays:"
                        f" median {s['p50']:.1f} ms, p90 {s['p90']:.1f} ms, max {s['max']:.1f} ms"
                        f" (target median <= {TARGET_P50_MS:.0f}, max <= {TARGET_MAX_MS:.0f}:"
                        f" {'met' if met else 'missed'})"
                    )
            finally:
                browser.close()
        results["loadavg"] = loadavg()
        print(f"load average: {loadavg()}")
    finally:
        if daphne is not None:
            daphne.stop()
        if "django.db" in sys.modules:
            from django.db import connections

            connections.close_all()
        db.drop()
        shutil.rmtree(temp, ignore_errors=True)
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
