"""ASGI entry point: HTTP through Django, websockets through Channels.

Websocket routes live in ``games/table/routing.py`` (``websocket_urlpatterns``). Every
websocket handshake is checked against this site's origins — scheme, host and port
(tablesite/origins.py) — and carries the signed-in user from the session.

The computer players (games/worker.py) start with the server, not at the first
request: under daphne (no ASGI lifespan) once its event loop runs
(`start_with_daphne`), under servers that speak lifespan at its ``startup``; any
connection starts them too if that did not happen. With ``REDIS_URL`` the server
runs none and ``manage.py run_computers`` does (``COMPUTER_WORKER`` overrides).

With ``GC_STATS_FILE`` set (bench/load.py sets it), the process records its
garbage-collection pauses there (tablesite/gcstats.py).
"""

import os

from django.core.asgi import get_asgi_application

from tablesite import gcstats

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tablesite.settings")

# Set up Django (apps, models) before importing anything that touches them.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from games.table.routing import websocket_urlpatterns  # noqa: E402
from games.worker import WithComputerWorker, lifespan, start_with_daphne  # noqa: E402
from tablesite.origins import SiteOriginValidator  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": WithComputerWorker(django_asgi_app),
        "websocket": SiteOriginValidator(
            WithComputerWorker(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
        "lifespan": lifespan,
    }
)

gcstats.install_from_env()
start_with_daphne()
