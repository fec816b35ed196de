"""ASGI entry point: HTTP through Django, websockets through Channels.

Websocket routes live in ``games/routing.py`` (``websocket_urlpatterns``). Every
websocket is checked against ALLOWED_HOSTS (Origin header) and carries the
signed-in user from the session. The first connection to a server process also
starts its computer-player loop (games/worker.py; ``COMPUTER_WORKER=off`` to run
it elsewhere, e.g. ``manage.py run_computers``).

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
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.table.routing import websocket_urlpatterns  # noqa: E402
from games.worker import WithComputerWorker  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": WithComputerWorker(django_asgi_app),
        "websocket": AllowedHostsOriginValidator(
            WithComputerWorker(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
    }
)

gcstats.install_from_env()
