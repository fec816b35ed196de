"""The proxy's configuration: deploy/haproxy.cfg.template filled for N daphnes.

    python -m tablesite.haproxy --bind 127.0.0.1:8000 127.0.0.1:8001 127.0.0.1:8002 > haproxy.cfg
    haproxy -f haproxy.cfg -db

Each server address becomes ``server d<i> <address>`` (the name the ``X-Served-By``
response header carries); the body limit is settings.REQUEST_BODY_MAX and the 413's
words are `tablesite.edge.too_large_text` (Django is set up to read them). `.ci/serve`
(``SERVERS=N``), tests/servers.py `Proxy` and bench/load.py use it.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parent.parent / "deploy" / "haproxy.cfg.template"
HAPROXY = "/usr/sbin/haproxy"


#: the most connections the proxy accepts at once (each table: its seats and spectators)
MAXCONN = 20_000


def default_maxconn() -> int:
    """`MAXCONN`, or less when the hard limit of open files is lower (two per connection)."""
    import resource

    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        return MAXCONN
    return max(256, min(MAXCONN, (hard - 200) // 2))


def haproxy_string(text: str) -> str:
    """`text` inside a double-quoted HAProxy string (backslashes, quotes, newlines escaped)."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def render(
    *,
    bind: str,
    servers: list[str],
    stats_socket: str,
    max_body: int | None = None,
    too_large: str | None = None,
    log_level: str = "notice",
    maxconn: int | None = None,
) -> str:
    """The configuration for `servers` (host:port each) behind `bind` (host:port). `maxconn`
    defaults to what this machine's open-file limit allows (HAProxy needs two descriptors
    per connection: client and server), at most `MAXCONN`."""
    if maxconn is None:
        maxconn = default_maxconn()
    if not servers:
        raise ValueError("at least one server")
    if max_body is None or too_large is None:
        from tablesite.edge import body_limit, too_large_text

        max_body = body_limit() if max_body is None else max_body
        too_large = too_large_text() if too_large is None else too_large
    lines = "\n".join(f"    server d{i} {address}" for i, address in enumerate(servers, start=1))
    return TEMPLATE.read_text().format(
        bind=bind,
        servers=lines,
        stats_socket=stats_socket,
        max_body=max_body,
        too_large=haproxy_string(too_large),
        log_level=log_level,
        maxconn=maxconn,
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bind", default="127.0.0.1:8000", help="address the proxy listens on")
    p.add_argument(
        "--stats-socket", default=None, help="the admin socket (default: beside the output)"
    )
    p.add_argument("--log-level", default="notice", help="info logs every request")
    p.add_argument("servers", nargs="+", help="the daphnes, host:port each")
    args = p.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tablesite.settings")
    import django

    django.setup()
    socket_path = args.stats_socket or f"/tmp/mextrain-haproxy-{os.getpid()}.sock"
    sys.stdout.write(
        render(
            bind=args.bind, servers=args.servers, stats_socket=socket_path, log_level=args.log_level
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
