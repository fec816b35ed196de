"""The table page's weight and load time: what a first visit to /m/<id>/ costs.

    python bench/page.py [--actions 20] [--late 300] [--runs 5] [--debug] [--compare COMMIT] [--json FILE]

What one run does, by itself, and cleans up after:

1. creates a fresh database (``--database``, default ``bench_page``) on the PostgreSQL
   server DATABASE_URL names (default 127.0.0.1:5432), migrates it, starts a 4-seat
   match of people and plays ``--actions`` first legal actions through the services;
2. starts daphne on this checkout, production-like (DEBUG off: ``collectstatic`` first,
   hashed names served with a long cache by ServeStatic) or with ``--debug`` as
   ``.ci/serve`` does by default (files straight from static/, max-age=0); with
   ``--compare COMMIT`` a second daphne on that commit's files (``git archive`` into a
   temporary folder, same database, same Python environment);
3. fetches the table page as the first seat's player and as an anonymous spectator (the
   watch link), and every stylesheet and script it references, and prints each one's
   bytes uncompressed and as sent to a browser that accepts gzip/brotli (every current
   browser: the first load's measure, HTML + CSS + JS on the wire, against its 100 kB
   target), and its Cache-Control; then the totals; and the same for a
   player of a second match ``--late`` actions in, against the first (the issue's "cost
   growth stays <= 1.2x");
4. loads the page in Chromium (Playwright, Debian's /usr/bin/chromium) ``--runs`` times
   per viewer and site, the sites taking turns: a fresh browser context each time
   (empty cache: navigation start to the load event, and to DOMContentLoaded), then a
   second visit in the same context (cached files); after each load it waits until the
   page's websocket is open (the scripts work) and counts script errors; prints the
   medians, the requests that went to the network, the browser's main-thread time until
   the load event (Chrome's Performance.getMetrics TaskDuration, and ScriptDuration of it:
   CPU-like, fairer than the clock on a shared machine) and the load average; and what the
   browser itself had taken, uncompressed, by the time the websocket was open (Resource
   Timing: HTML, stylesheets and scripts, a script loaded by another included; and in all,
   images too), then it opens the log drawer, whose script comes on first use
   (static/js/lazy.js), and checks it opens.
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
import tarfile
import tempfile
import urllib.request
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

# Run as `python bench/page.py`, this file's folder is first on sys.path and
# bench/engine.py would shadow the `engine` package: look in the repository instead.
ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.load import loadavg, make_users, session_cookie, setup_django  # noqa: E402
from bench.load_server import BenchDatabase, server_env  # noqa: E402
from tests.servers import Daphne  # noqa: E402

#: the target for the table page's first load: HTML + CSS + JS as sent to a browser that accepts gzip/brotli
TARGET_BYTES = 100 * 1024
#: the issue's "cost growth stays <= 1.2x": the same page late in a match against early
TARGET_GROWTH = 1.2
SEATS = 4
DESKTOP = {"width": 1280, "height": 860}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument(
        "--actions", type=int, default=20, help="actions played before the page is fetched"
    )
    p.add_argument(
        "--late",
        type=int,
        default=300,
        help="also weigh a player's page this many actions into a match (0: not)",
    )
    p.add_argument(
        "--runs", type=int, default=5, help="Chromium loads per viewer and site (0: none)"
    )
    p.add_argument(
        "--debug", action="store_true", help="servers with DEBUG on (files from static/, no cache)"
    )
    p.add_argument(
        "--compare", metavar="COMMIT", help="also measure this commit's page, side by side"
    )
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--database", default="bench_page")
    p.add_argument("--keep-database", action="store_true")
    p.add_argument("--json", type=Path, help="also write the results to this file")
    p.add_argument(
        "--save",
        type=Path,
        metavar="FOLDER",
        help="write each page's HTML there (to see what weighs)",
    )
    return p.parse_args(argv)


class Refs(HTMLParser):
    """The stylesheets and scripts a page references, in document order."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[tuple[str, str]] = []  # (kind, url)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        rel = (a.get("rel") or "").lower().split()
        if tag == "link" and a.get("href") and ("stylesheet" in rel or "modulepreload" in rel):
            self.urls.append(("css" if "stylesheet" in rel else "js", str(a["href"])))
        elif tag == "script" and a.get("src"):
            self.urls.append(("js", str(a["src"])))


@dataclass
class Resource:
    kind: str
    url: str
    raw: int
    wire: int
    cache: str


@dataclass
class Site:
    """One daphne serving one checkout (this one, or a commit unpacked elsewhere)."""

    name: str
    folder: Path
    env: dict[str, str]
    daphne: Daphne | None = None
    results: dict[str, Any] = field(default_factory=dict)

    def start(self, log_dir: Path) -> None:
        if self.env["DEBUG"] == "false":
            subprocess.run(
                [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
                cwd=self.folder,
                env=self.env,
                check=True,
            )
        self.daphne = Daphne(self.env, log_dir=log_dir)
        self.daphne.cwd = self.folder
        self.daphne.start(60)

    def stop(self) -> None:
        if self.daphne is not None:
            self.daphne.stop()

    @property
    def url(self) -> str:
        assert self.daphne is not None
        return self.daphne.url


def unpack(commit: str, into: Path) -> Path:
    """The files of `commit` (git archive) in a folder of their own."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", commit], cwd=ROOT, check=True, capture_output=True
    ).stdout
    folder = into / f"commit-{commit[:12]}"
    folder.mkdir()
    tar_path = into / "commit.tar"
    tar_path.write_bytes(archive)
    with tarfile.open(tar_path) as tar:
        tar.extractall(folder, filter="data")
    tar_path.unlink()
    return folder


def get(url: str, cookie: str | None, *, compressed: bool) -> tuple[bytes, dict[str, str]]:
    headers = {"Accept-Encoding": "br, gzip" if compressed else "identity"}
    if cookie:
        headers["Cookie"] = f"sessionid={cookie}"
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30) as r:
        return r.read(), {k.lower(): v for k, v in r.headers.items()}


def weigh(page_url: str, cookie: str | None) -> list[Resource]:
    """The page and every stylesheet and script it references: bytes raw and on the wire."""
    html, headers = get(page_url, cookie, compressed=False)
    out = [Resource("html", page_url, len(html), len(html), headers.get("cache-control", ""))]
    refs = Refs()
    refs.feed(html.decode())
    for kind, href in refs.urls:
        url = urljoin(page_url, href)
        raw, _ = get(url, cookie, compressed=False)
        wire, headers = get(url, cookie, compressed=True)
        out.append(Resource(kind, url, len(raw), len(wire), headers.get("cache-control", "")))
    return out


def chromium_loads(browser: Any, page_url: str, cookie: str | None, base: str) -> dict[str, float]:
    """One cold visit (a fresh context, empty cache) and one warm (the same context again)."""
    context = browser.new_context(viewport=DESKTOP)
    if cookie:
        context.add_cookies([{"name": "sessionid", "value": cookie, "url": base}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    out: dict[str, float] = {}
    cdp = context.new_cdp_session(page)
    try:
        for visit in ("cold", "warm"):
            cdp.send(
                "Performance.enable"
            )  # the browser's main-thread time, fairer than the clock here
            page.goto(page_url, wait_until="load")
            metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
            cdp.send("Performance.disable")
            out[f"{visit}_task_ms"] = 1000 * float(metrics.get("TaskDuration", 0.0))
            out[f"{visit}_script_ms"] = 1000 * float(metrics.get("ScriptDuration", 0.0))
            nav = page.evaluate("() => performance.getEntriesByType('navigation')[0].toJSON()")
            # files that went over the network (a cached one has no transfer), the page included
            fetched = page.evaluate(
                "() => performance.getEntriesByType('resource')"
                ".filter(e => e.transferSize > 0).length"
            )
            out[f"{visit}_load_ms"] = float(nav["loadEventEnd"] or nav["loadEventStart"])
            out[f"{visit}_dcl_ms"] = float(nav["domContentLoadedEventEnd"])
            out[f"{visit}_html_ms"] = float(
                nav["responseEnd"]
            )  # the server's part: the page's HTML
            out[f"{visit}_requests"] = float(1 + fetched)
            # the scripts work: the page's websocket is open (table.js) and its board live
            page.wait_for_function("() => window.MT && MT.online && MT.online()", timeout=15000)
            if visit == "cold":
                # what the browser itself took by then, uncompressed, whoever asked for it (a
                # script loaded by another counts): no script comes unasked beyond the page's own
                took = page.evaluate(
                    "() => [performance.getEntriesByType('navigation')[0],"
                    " ...performance.getEntriesByType('resource')]"
                    ".map(e => [e.initiatorType, e.decodedBodySize])"
                )
                out["cold_taken_kb"] = (
                    sum(float(n) for _, n in took) / 1024
                )  # kB as kb() counts them
                out["cold_taken_code_kb"] = (
                    sum(float(n) for kind, n in took if kind in ("navigation", "script", "link"))
                    / 1024
                )
                # the scripts loaded on first use (static/js/lazy.js) come and work: the log drawer
                if page.locator('#board [data-panel="log"]').count():
                    page.keyboard.press("l")
                    page.locator("#log-panel").wait_for(state="visible", timeout=15000)
                    page.keyboard.press("Escape")
            out[f"{visit}_errors"] = float(len(errors))
            if errors:
                print(f"  page errors on {page_url}: {errors}")
            page.goto("about:blank")
    finally:
        context.close()
    return out


def make_table(actions: int, seed: int, prefix: str) -> tuple[int, str, str]:
    """A started 4-seat match of people, `actions` first legal actions in (the next round
    started whenever one ends); its id, the first seat's session key and the watch token."""
    import uuid

    from engine import rules
    from engine.serialize import state_from_json
    from games import services
    from games.models import Match
    from tests import seeded

    users = make_users(SEATS, prefix)
    match = seeded.match_create(
        creator=users[0],
        seed=seed,
        listed=False,
        seats=[services.SeatSpec("me")] + [services.SeatSpec("human")] * (SEATS - 1),
    )
    for user in users[1:]:
        services.seat_join(match_id=match.pk, user=user, token=match.invite_token)
    for _ in range(actions):
        row = Match.objects.get(pk=match.pk)
        state = state_from_json(row.state)
        if state.phase == "round_over":
            services.round_next(
                match_id=match.pk,
                user=users[0],
                expected_version=row.version,
                request_id=uuid.uuid4().hex,
            )
            continue
        if state.phase == "match_over":
            break
        action = rules.legal_actions(state)[0]
        assert action.seat is not None
        services.action_submit(
            match_id=match.pk,
            user=users[action.seat],
            seat=action.seat,
            action=action.to_json(),
            expected_version=row.version,
            request_id=uuid.uuid4().hex,
        )
    return match.pk, session_cookie(users[0]), match.watch_token


def kb(n: float) -> str:
    return f"{n / 1024:.1f} kB"


def report_weights(site: Site, viewers: list[str]) -> None:
    for viewer in viewers:
        resources: list[Resource] = site.results[viewer]["resources"]
        print(f"\n{site.name}, {viewer}:")
        for r in resources:
            name = (
                r.url.split("/static/", 1)[-1]
                if "/static/" in r.url
                else r.url.split("//", 1)[-1].split("/", 1)[-1]
            )
            print(f"  {r.kind:4} {name[:64]:64} {kb(r.raw):>9} {kb(r.wire):>9}  {r.cache}")
        raw = sum(r.raw for r in resources)
        wire = sum(r.wire for r in resources)
        verdict = "met" if wire <= TARGET_BYTES else "missed"
        counts = {k: sum(1 for r in resources if r.kind == k) for k in ("css", "js")}
        print(
            f"  total: {kb(wire)} on the wire (target <= {kb(TARGET_BYTES)}: {verdict}), {kb(raw)} uncompressed;"
            f" {counts['css']} stylesheets, {counts['js']} scripts"
        )


def median_of(runs: list[dict[str, float]], key: str) -> float:
    return float(statistics.median(r[key] for r in runs))


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    db = BenchDatabase(args.database)
    temp = Path(tempfile.mkdtemp(prefix="bench-page-"))
    sites: list[Site] = []
    results: dict[str, Any] = {"debug": args.debug, "actions": args.actions}
    try:
        db.create()
        setup_django(db.url)
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)
        match_id, cookie, token = make_table(args.actions, args.seed, "page")
        late = make_table(args.late, args.seed, "late") if args.late > 0 else None
        env = server_env(db.url, redis_url=None, conn_max_age=60)
        env["DEBUG"] = "true" if args.debug else "false"
        env["COMPUTER_WORKER"] = "off"
        sites.append(Site("this checkout", ROOT, env))
        if args.compare:
            commit = subprocess.run(
                ["git", "rev-parse", "--short", args.compare],
                cwd=ROOT,
                check=True,
                capture_output=True,
                text=True,
            ).stdout.strip()
            sites.append(Site(f"commit {commit}", unpack(args.compare, temp), env))
        for site in sites:
            site.start(temp)
        viewers = {
            "player": (f"/m/{match_id}/", cookie),
            "spectator": (f"/m/{match_id}/?watch={token}", None),
        }
        weighed = dict(viewers)
        if late is not None:
            weighed["player, late"] = (f"/m/{late[0]}/", late[1])
        for site in sites:
            for viewer, (path, viewer_cookie) in weighed.items():
                resources = weigh(site.url + path, viewer_cookie)
                if args.save is not None:
                    args.save.mkdir(parents=True, exist_ok=True)
                    html, _ = get(site.url + path, viewer_cookie, compressed=False)
                    (args.save / f"{site.name.replace(' ', '-')}-{viewer}.html").write_bytes(html)
                site.results[viewer] = {
                    "resources": resources,
                    "loads": [],
                    "total": sum(r.raw for r in resources),
                }
            report_weights(site, list(weighed))
            if late is not None:
                growth = site.results["player, late"]["total"] / site.results["player"]["total"]
                site.results["growth"] = growth
                print(
                    f"  a player's page {args.late} actions into a match against {args.actions} in:"
                    f" {growth:.2f}x (target <= {TARGET_GROWTH}: {'met' if growth <= TARGET_GROWTH else 'missed'})"
                )
        if args.runs > 0:
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
                    for (
                        site
                    ) in sites:  # one unmeasured visit each: the servers' first requests warm up
                        chromium_loads(browser, site.url + viewers["player"][0], cookie, site.url)
                    for _ in range(args.runs):
                        for site in sites:
                            for viewer, (path, viewer_cookie) in viewers.items():
                                site.results[viewer]["loads"].append(
                                    chromium_loads(
                                        browser, site.url + path, viewer_cookie, site.url
                                    )
                                )
                finally:
                    browser.close()
            print(
                f"\nChromium, median of {args.runs} loads each ({'DEBUG on' if args.debug else 'production-like'};"
                f" navigation start to the load event):"
            )
            for site in sites:
                for viewer in viewers:
                    loads = site.results[viewer]["loads"]
                    print(
                        f"  {site.name:22} {viewer:9}  empty cache: HTML {median_of(loads, 'cold_html_ms'):4.0f} ms,"
                        f" DOMContentLoaded {median_of(loads, 'cold_dcl_ms'):4.0f} ms,"
                        f" load {median_of(loads, 'cold_load_ms'):4.0f} ms,"
                        f" {median_of(loads, 'cold_requests'):.0f} requests,"
                        f" {median_of(loads, 'cold_taken_code_kb'):.1f} kB of HTML, CSS and JS taken"
                        f" by the time the websocket is open ({median_of(loads, 'cold_taken_kb'):.1f} kB in all),"
                        f" main thread {median_of(loads, 'cold_task_ms'):4.0f} ms"
                        f" (scripts {median_of(loads, 'cold_script_ms'):3.0f});"
                        f"  cached: HTML {median_of(loads, 'warm_html_ms'):4.0f} ms,"
                        f" load {median_of(loads, 'warm_load_ms'):4.0f} ms,"
                        f" {median_of(loads, 'warm_requests'):.0f} requests;"
                        f" script errors: {sum(r['cold_errors'] + r['warm_errors'] for r in loads):.0f}"
                    )
        print(f"\nload average: {loadavg()}")
        results["loadavg"] = loadavg()
        results["sites"] = {
            s.name: {
                "growth": s.results.get("growth"),
                **{
                    v: {
                        "resources": [r.__dict__ for r in s.results[v]["resources"]],
                        "total": s.results[v]["total"],
                        "loads": s.results[v]["loads"],
                    }
                    for v in weighed
                },
            }
            for s in sites
        }
    finally:
        for site in sites:
            site.stop()
        if "django.db" in sys.modules:
            from django.db import connections

            connections.close_all()
        if not args.keep_database:
            db.drop()
        shutil.rmtree(temp, ignore_errors=True)
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
