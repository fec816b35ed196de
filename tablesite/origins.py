"""The websocket handshake's Origin check: scheme, host and port, not the host alone.

Channels' `AllowedHostsOriginValidator` accepts any origin whose *host* is in
ALLOWED_HOSTS, whatever its scheme and port: a page served on another port of the
same machine (``http://127.0.0.1:9999``), or plain http beside an https site, could
open the table's websocket with the visitor's cookie. Here the allowed origins are
built for each handshake, the way Django's CSRF check builds its "good origin":

- every host of ALLOWED_HOSTS (Django's defaults for DEBUG when it is empty), with
  *this request's own* scheme (``wss`` → https, or the proxy's header named by
  SECURE_PROXY_SSL_HEADER) and port (from the Host header, else the scheme's default);
- plus each of CSRF_TRUSTED_ORIGINS as written (scheme, host or ``*.domain``, port).

A handshake without an Origin, with ``null``, or with two Origin headers is refused
(403, before any consumer runs).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import OriginValidator, WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port

#: the hosts Django allows when DEBUG is on and ALLOWED_HOSTS is empty (HttpRequest.get_host)
DEBUG_HOSTS = [".localhost", "127.0.0.1", "[::1]"]
DEFAULT_PORTS = {"http": 80, "https": 443}


def _headers(scope: dict[str, Any], name: bytes) -> list[str]:
    return [
        value.decode("latin-1") for key, value in scope.get("headers") or [] if key.lower() == name
    ]


def own_scheme(scope: dict[str, Any]) -> str:
    """http or https: how the browser reached this server (the page's scheme)."""
    if scope.get("scheme") in ("wss", "https"):
        return "https"
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        meta_name, secure_value = proxy
        header = meta_name.removeprefix("HTTP_").replace("_", "-").lower().encode()
        values = _headers(scope, header)
        if values and values[0].split(",")[0].strip() == secure_value:
            return "https"
    return "http"


def own_port(scope: dict[str, Any], scheme: str) -> int:
    """The port the browser connected to: the Host header's, else the scheme's default."""
    hosts = _headers(scope, b"host")
    if hosts:
        _domain, port = split_domain_port(hosts[0])
        if port.isdigit():
            return int(port)
    return DEFAULT_PORTS[scheme]


def allowed_origins(scope: dict[str, Any]) -> list[str]:
    """The origin patterns (in `OriginValidator.match_allowed_origin`'s syntax) a page
    may open this websocket from."""
    scheme = own_scheme(scope)
    port = own_port(scope, scheme)
    hosts = list(settings.ALLOWED_HOSTS) or (DEBUG_HOSTS if settings.DEBUG else [])
    patterns = [f"{scheme}://{host}:{port}" for host in hosts]
    for origin in getattr(settings, "CSRF_TRUSTED_ORIGINS", []):
        # Django's "https://*.example.com" is channels' "https://.example.com"
        patterns.append(origin.replace("://*.", "://.", 1))
    return patterns


class SiteOriginValidator(OriginValidator):
    """`OriginValidator` with the allowed origins of each request (`allowed_origins`)."""

    def __init__(self, application: Any) -> None:
        super().__init__(application, allowed_origins=[])

    def origin_allowed(self, scope: dict[str, Any]) -> bool:
        origins = _headers(scope, b"origin")
        if len(origins) != 1:
            return False
        try:
            parsed = urlsplit(origins[0].strip())
            port = self.get_origin_port(parsed)  # raises ValueError for a port out of range
        except ValueError:
            return False
        if parsed.scheme not in DEFAULT_PORTS or not parsed.hostname or port is None:
            return False
        if parsed.path or parsed.query or parsed.fragment or parsed.username or parsed.password:
            return False  # an origin is scheme://host[:port], nothing else
        scheme = own_scheme(scope)
        for pattern in allowed_origins(scope):
            wildcard = urlsplit(pattern)
            if wildcard.hostname == "*":  # ALLOWED_HOSTS = ["*"]: any host, same scheme and port
                if parsed.scheme == scheme and port == own_port(scope, scheme):
                    return True
            elif self.match_allowed_origin(parsed, pattern):
                return True
        return False

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            raise ValueError("SiteOriginValidator checks websocket handshakes only")
        if self.origin_allowed(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
