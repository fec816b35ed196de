"""ASGI entry point: HTTP through Django, websockets through Channels.

Websocket routes live in ``games/table/routing.py`` (``websocket_urlpatterns``). Every
websocket handshake is checked against this site's origins — scheme, host and port
(tablesite/origins.py) — and carries the signed-in user from the session.

The computer players (games/worker/) start with the server, not at the first
request: under daphne (no ASGI lifespan) once its event loop runs
(`start_with_daphne`), under servers that speak lifespan at its ``startup``; any
connection starts them too if that did not happen. With ``REDIS_URL`` the server
runs none and ``manage.py run_computers`` does (``COMPUTER_WORKER`` overrides).

Garbage collection: an action leaves no reference cycles (what it makes
is freed by reference counting; tests/bench/test_gc.py), so the cycle collector has
little to find. Once the application is set up, `settle_heap` moves the start-up heap
(Django, the apps, the templates: most of the process's objects) into the permanent
generation, which collections never traverse, and sets the thresholds (see there).
With ``GC_STATS_FILE`` set (bench/load.py sets it), the process records its
collection pauses there (tablesite/gcstats.py).
"""

import gc
import os

from django.core.asgi import get_asgi_application

from tablesite import gcstats

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tablesite.settings")

# Set up Django (apps, models) before importing anything that touches them.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from games import servers  # noqa: E402
from games.table.routing import websocket_urlpatterns  # noqa: E402
from games.worker import WithComputerWorker, lifespan, start_with_daphne  # noqa: E402
from tablesite.edge import BodyLimit, Health  # noqa: E402
from tablesite.origins import SiteOriginValidator  # noqa: E402

application = ProtocolTypeRouter(
    {
        # /healthz for the proxy; bodies over the limit answered 413 unread (tablesite/edge.py)
        "http": Health(
            BodyLimit(WithComputerWorker(django_asgi_app)), out_of_service=servers.out_of_service
        ),
        "websocket": SiteOriginValidator(
            WithComputerWorker(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
        "lifespan": lifespan,
    }
)


def warm_templates() -> None:
    """Compile the board's Jinja2 templates and load every language's catalogue now, so
    they are part of the frozen heap rather than young objects of the first requests."""
    from django.conf import settings
    from django.template import engines
    from django.utils import translation

    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Round")

    env = engines["jinja2"].env  # type: ignore[attr-defined]
    for name in env.list_templates():
        if name.startswith("games/"):
            env.get_template(name)


def settle_heap() -> None:
    """Freeze what start-up made and set the collector's thresholds (`THRESHOLDS`)."""
    warm_templates()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


#: The collector's thresholds, from measurement (2026-12-03, 2-core machine, load
#: average 10-20 from other work; CPU times, which that load stretches less than the wall clock).
#: Frozen at start-up: ~114,000 objects. After that an action leaves no cycles (the
#: server's collections freed 0-12 objects per action in bench/load.py runs, 155 before).
#: - gen0: in the harness of tests/bench/test_gc.py (one thread, four matches) a young
#:   collection costs ~0.5 ms at threshold 700, 1.2 ms at 2,000, with 8x fewer of them.
#:   In a server (bench/load.py, 20 tables at 0.5 actions/s, 1 spectator each, 30 s),
#:   2,000 gave 16 young collections of ~8 ms CPU each, the longest 17-22 ms (the young
#:   generation then holds every action in flight: parsed snapshots, views, contexts,
#:   and frees of older objects let it grow past the threshold); Python's 700 gave 139
#:   young and 12 middle collections of ~1 ms each, the longest 4.7 ms (young) and 7.4
#:   ms (middle), 2.8% of the server's CPU against 1.4%. The pause is what a player
#:   feels: 700.
#: - gen2: a full collection traverses every object made since start-up and still alive
#:   (mostly the reads kept for each match's latest version, games/table/board_reads.py,
#:   ~500-1,000 objects a match), ~1-2 ms with four matches and growing with the tables a
#:   process serves; since an action makes no cyclic garbage, full collections are made
#:   ten times rarer than the default (100 middle collections between two; Python's own
#:   rule of 25% growth of the old generation still applies). None happened in the runs.
#: Before (no freeze, default thresholds, the reads' cycles): a full collection of the
#: whole heap in every 30 s run, 95-410 ms, 1,073 ms by the wall clock (157 ms
#: CPU) on this loaded machine.
THRESHOLDS = (700, 10, 100)

settle_heap()
gcstats.install_from_env()
start_with_daphne()
