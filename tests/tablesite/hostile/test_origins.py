"""The websocket handshake's Origin must match scheme, host AND port.

Channels' AllowedHostsOriginValidator looked at the host only: a page served on another
port of the same host, or over plain http beside an https site, could open the table's
socket with the visitor's cookie. Now an origin is allowed when it is this request's own
scheme and port with a host of ALLOWED_HOSTS, or one of CSRF_TRUSTED_ORIGINS as written.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from tablesite.origins import SiteOriginValidator

HOST = [(b"host", b"testserver")]


def scope(
    origin: str | list[str] | None,
    *,
    host: str = "testserver",
    scheme: str = "ws",
    extra: list[tuple[bytes, bytes]] | None = None,
) -> dict[str, Any]:
    origins = [origin] if isinstance(origin, str) else (origin or [])
    headers = (
        [(b"host", host.encode())] + [(b"origin", o.encode()) for o in origins] + (extra or [])
    )
    return {"type": "websocket", "scheme": scheme, "path": "/ws/m/1/", "headers": headers}


def allowed(s: dict[str, Any]) -> bool:
    return SiteOriginValidator(None).origin_allowed(s)


@pytest.mark.parametrize(
    ("origin", "host", "scheme", "ok"),
    [
        ("http://testserver", "testserver", "ws", True),
        ("http://testserver:80", "testserver", "ws", True),  # the default port, written out
        ("https://testserver", "testserver", "ws", False),  # another scheme
        ("http://testserver:8080", "testserver", "ws", False),  # another port
        ("http://testserver:8000", "testserver:8000", "ws", True),
        ("http://testserver", "testserver:8000", "ws", False),  # port 80 is not this site's 8000
        ("http://testserver:9999", "testserver:8000", "ws", False),
        ("https://testserver", "testserver", "wss", True),
        ("http://testserver", "testserver", "wss", False),  # plain http beside the https site
        ("https://testserver:8443", "testserver", "wss", False),
        ("http://evil.example", "testserver", "ws", False),
        ("http://testserver.evil.example", "testserver", "ws", False),
        ("null", "testserver", "ws", False),
        ("file://", "testserver", "ws", False),
        ("http://testserver/path", "testserver", "ws", False),
        ("http://user@testserver", "testserver", "ws", False),
        ("http://testserver:99999", "testserver", "ws", False),
        ("ws://testserver", "testserver", "ws", False),  # pages have http(s) origins
    ],
)
def test_an_origin_must_match_scheme_host_and_port(
    settings: Any, origin: str, host: str, scheme: str, ok: bool
) -> None:
    settings.ALLOWED_HOSTS = ["testserver", "localhost"]
    settings.CSRF_TRUSTED_ORIGINS = []
    assert allowed(scope(origin, host=host, scheme=scheme)) is ok


def test_no_origin_or_two_origins_are_refused(settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["testserver"]
    assert not allowed(scope(None))
    assert not allowed(scope(["http://testserver", "http://testserver"]))


def test_another_allowed_host_on_the_same_scheme_and_port_is_accepted(settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost", ".example.org"]
    assert allowed(scope("http://localhost:8000", host="127.0.0.1:8000"))
    assert allowed(scope("http://www.example.org:8000", host="127.0.0.1:8000"))
    assert not allowed(scope("http://localhost:8001", host="127.0.0.1:8000"))
    assert not allowed(scope("https://localhost:8000", host="127.0.0.1:8000"))


def test_behind_a_tls_proxy_the_forwarded_scheme_counts(settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["dominoes.example.org"]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    proxied = [(b"x-forwarded-proto", b"https")]
    assert allowed(
        scope("https://dominoes.example.org", host="dominoes.example.org", extra=proxied)
    )
    assert not allowed(
        scope("http://dominoes.example.org", host="dominoes.example.org", extra=proxied)
    )
    assert not allowed(
        scope("https://dominoes.example.org", host="dominoes.example.org")
    )  # not proxied


def test_trusted_origins_count_as_written(settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["dominoes.example.org"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://*.example.net", "https://play.example.com:8443"]
    host = "dominoes.example.org"
    assert allowed(scope("https://www.example.net", host=host))
    assert not allowed(scope("http://www.example.net", host=host))
    assert allowed(scope("https://play.example.com:8443", host=host))
    assert not allowed(scope("https://play.example.com", host=host))


def test_with_debug_and_no_allowed_hosts_the_loopback_names_are_allowed(settings: Any) -> None:
    settings.ALLOWED_HOSTS = []
    settings.DEBUG = True
    assert allowed(scope("http://127.0.0.1:8000", host="127.0.0.1:8000"))
    assert allowed(scope("http://localhost:8000", host="127.0.0.1:8000"))
    assert not allowed(scope("http://127.0.0.1:8001", host="127.0.0.1:8000"))


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("origin", "ok"),
    [
        (b"http://testserver", True),
        (b"https://testserver", False),
        (b"http://testserver:8080", False),
    ],
)
async def test_the_site_refuses_a_handshake_from_another_scheme_or_port(
    origin: bytes, ok: bool
) -> None:
    from tablesite.asgi import application

    # No such match: a handshake past the origin check is accepted, then closed with 4403.
    communicator = WebsocketCommunicator(
        application, "/ws/m/999999/", headers=[(b"origin", origin), *HOST]
    )
    connected, _ = await communicator.connect()
    assert connected is ok
    await communicator.disconnect()
