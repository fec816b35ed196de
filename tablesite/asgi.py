"""ASGI entry point: HTTP through Django, websockets through Channels.

Websocket routes live in ``games/table/routing.py`` (``websocket_urlpatterns``). Every
websocket handshake is checked against this site's origins — scheme, host and port
(tablesite/origins.py) — and carries the signed-in user from the session.

The computer players (games/worker/) start with the server, not at the first
request: under daphne (no ASGI lifespan) once its event loop runs
(`start_with_daphne`), under servers that speak lifespan at its ``startup``; any
connection starts them too if that did not happen. With ``REDIS_URL`` the server
runs none and ``manage.py run_computers`` does (``COMPUTER_WORKER`` overrides).

Garbage collection (tablesite/heap.py): once the application is set up, the start-up heap
(Django, the apps, the templates) is frozen, and under daphne a thread keeps freezing what
survives, so the cycle collector's walks stay short. With ``GC_STATS_FILE`` set (bench/load.py sets it), the process records its
collection pauses there (tablesite/gcstats.py).
"""

import os

from django.core.asgi import get_asgi_application

from tablesite import gcstats
from tablesite.heap import Keeper, settle

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tablesite.settings")

# Set up Django (apps, models) before importing anything that touches them.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from games.processes import servers  # noqa: E402
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


settle(warm_templates)
gcstats.install_from_env()
if start_with_daphne():
    # A server process keeps its settled heap frozen (tablesite/heap.py); not a test
    # process, whose collections must see every object a test makes.
    Keeper().start()
