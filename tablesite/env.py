"""Small, pure helpers that turn environment variables into settings values.

Kept apart from ``settings.py`` so they can be unit-tested without reloading
Django's settings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import dj_database_url

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(env: Mapping[str, str], name: str, default: bool) -> bool:
    """Read a boolean flag; unknown spellings are an error, not a silent False."""
    raw = env.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ValueError(f"{name}={raw!r} is not a boolean (use true/false)")


def env_list(env: Mapping[str, str], name: str, default: list[str] | None = None) -> list[str]:
    """Read a comma-separated list, ignoring blanks."""
    raw = env.get(name)
    if raw is None:
        return list(default or [])
    return [item.strip() for item in raw.split(",") if item.strip()]


#: Seconds a read from Redis may take. channels-redis waits for a connection's next
#: message with a blocking pop of up to 5 s; redis-py (8+) gives up on any read after
#: 5 s unless told otherwise, which cut those waits off and closed every idle
#: websocket with 1011 after about 5 s (found by bench/load.py --processes 2).
REDIS_SOCKET_TIMEOUT = 30

#: Redis connections a server process's channel layer may have in use at once. Each
#: open table page makes its own layer calls (joining its match's group on connect,
#: leaving on close), so a process with a few hundred pages makes that many at once
#: when they (re)connect together; redis-py 8.1 caps a pool at 100 by default and fails
#: the next call ("Too many connections"), which closed those pages (found by
#: bench/load.py --processes 2). Idle connections are reused, not opened per call;
#: this is Redis's own default limit of clients.
REDIS_MAX_CONNECTIONS = 10_000

#: Messages the Redis layer holds for one key before it drops more. channels-redis
#: keeps the messages of all of a server process's connections under one key, and a
#: group message to a full key is dropped without an error: at its default (100), a
#: process with a couple of hundred table pages that fell 100 notices behind lost
#: "match changed" notices, and those pages stopped updating until reloaded (found by
#: bench/load.py --processes 2 at 100 tables). Messages still expire after 60 s.
REDIS_CAPACITY = 10_000

#: How often a Redis command is tried again on a broken connection before the layer gives up.
#: After Redis restarts, every connection a server process keeps in its pool is dead, and
#: redis-py (without a retry policy, as channels-redis builds its pools) failed the first
#: command on each: the first table page to connect to each server after a Redis restart
#: was closed with 4503. A retry reconnects that connection and sends
#: the command again; Redis really down still fails after a few tenths of a second.
REDIS_RETRIES = 3


def redis_retry() -> Any:
    """The layer's retry policy: `REDIS_RETRIES` more tries, 50 ms apart and growing, at most 0.5 s."""
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialBackoff

    return Retry(ExponentialBackoff(cap=0.5, base=0.05), REDIS_RETRIES)


def channel_layers(redis_url: str | None) -> dict[str, Any]:
    """CHANNEL_LAYERS: channels-redis when a Redis URL is given, else in-memory.

    The in-memory layer only reaches consumers in the same process, which is
    right for development and tests with one daphne; several processes need Redis.
    It is Channels' own, sweeping for expired entries once a second instead of on
    every call (tablesite/layers.py).
    """
    if redis_url:
        return {
            "default": {
                "BACKEND": "tablesite.layers.TableRedisChannelLayer",
                "CONFIG": {
                    "hosts": [
                        {
                            "address": redis_url,
                            "socket_timeout": REDIS_SOCKET_TIMEOUT,
                            "max_connections": REDIS_MAX_CONNECTIONS,
                            "retry": redis_retry(),
                        }
                    ],
                    "capacity": REDIS_CAPACITY,
                },
            }
        }
    return {"default": {"BACKEND": "tablesite.layers.SweepingInMemoryChannelLayer"}}


def database(url: str, *, conn_max_age: int = 0) -> dict[str, Any]:
    """DATABASES['default'] from a PostgreSQL URL. Other engines are refused:
    the game relies on PostgreSQL row locks (SELECT ... FOR UPDATE)."""
    config: dict[str, Any] = dict(dj_database_url.parse(url, conn_max_age=conn_max_age))
    if config.get("ENGINE") != "django.db.backends.postgresql":
        raise ValueError(
            f"DATABASE_URL must point at PostgreSQL (postgres://...), got engine {config.get('ENGINE')!r}"
        )
    return config


_CONSOLE_MAIL = "django.core.mail.backends.console.EmailBackend"
_SMTP_MAIL = "django.core.mail.backends.smtp.EmailBackend"


def email(env: Mapping[str, str], *, debug: bool) -> dict[str, Any]:
    """Django's EMAIL_* settings from the environment.

    EMAIL_URL (``smtp://user:password@host:587/?tls=True``, ``smtps://…``, ``console:``;
    read by dj-email-url) wins; else EMAIL_BACKEND / EMAIL_HOST / EMAIL_PORT /
    EMAIL_HOST_USER / EMAIL_HOST_PASSWORD / EMAIL_USE_TLS / EMAIL_USE_SSL. With neither a
    URL nor a host, development (DEBUG) prints e-mails on the console; production sends
    by SMTP (to localhost:25 unless told otherwise). EMAIL_TIMEOUT: seconds (default 10)."""
    import dj_email_url

    if env.get("EMAIL_URL"):
        parsed = dj_email_url.parse(env["EMAIL_URL"])
        config: dict[str, Any] = {key: value for key, value in parsed.items() if value is not None}
        config.setdefault("EMAIL_HOST", "localhost")
    else:
        default = _CONSOLE_MAIL if debug and not env.get("EMAIL_HOST") else _SMTP_MAIL
        config = {
            "EMAIL_BACKEND": env.get("EMAIL_BACKEND") or default,
            "EMAIL_HOST": env.get("EMAIL_HOST", "localhost"),
            "EMAIL_PORT": int(env.get("EMAIL_PORT", "25")),
            "EMAIL_HOST_USER": env.get("EMAIL_HOST_USER", ""),
            "EMAIL_HOST_PASSWORD": env.get("EMAIL_HOST_PASSWORD", ""),
            "EMAIL_USE_TLS": env_bool(env, "EMAIL_USE_TLS", False),
            "EMAIL_USE_SSL": env_bool(env, "EMAIL_USE_SSL", False),
        }
    if config.get("EMAIL_USE_TLS") and config.get("EMAIL_USE_SSL"):
        raise ValueError("EMAIL_USE_TLS and EMAIL_USE_SSL cannot both be on (choose one)")
    # Seconds each exchange with the mail server may take (EMAIL_TIMEOUT, or the URL's
    # ``?timeout=``): a mail server that does not answer holds the page that sends (a
    # sign-up, the e-mail page) no longer than this before it says the link could not go.
    if env.get("EMAIL_TIMEOUT"):
        config["EMAIL_TIMEOUT"] = float(env["EMAIL_TIMEOUT"])
    config.setdefault("EMAIL_TIMEOUT", 10)
    return config


#: the channel layer's identity when it is the in-memory one (each process its own)
MEMORY_LAYER = "memory"
_LOOPBACK = {"localhost", "127.0.0.1", "::1", "[::1]", "ip6-localhost"}


def layer_identity(layers: Mapping[str, Any], *, machine: str) -> tuple[str, str]:
    """(key, label) of the default channel layer in CHANNEL_LAYERS: two processes whose keys
    are equal hear each other's group messages; the label says which layer it is in words.

    The in-memory layer is `MEMORY_LAYER`. A Redis layer's key is a hash of what decides
    where its messages go: each host's scheme, address, port and database number, and the
    layer's key prefix; never a user name or password (neither is in the label either).
    A loopback address means this machine's Redis, so it is named with `machine` (the host
    name): ``redis://localhost`` on two machines is two Redis servers."""
    import hashlib
    import json
    from urllib.parse import parse_qs, urlsplit

    config = layers.get("default") or {}
    backend = str(config.get("BACKEND", ""))
    if "redis" not in backend.lower():
        return MEMORY_LAYER, "the in-memory layer without REDIS_URL"
    options = config.get("CONFIG") or {}
    places: list[tuple[str, str, int, int]] = []
    shown: list[str] = []
    for host in options.get("hosts") or [("localhost", 6379)]:
        address = host.get("address", host) if isinstance(host, Mapping) else host
        if isinstance(address, str):
            parts = urlsplit(address if "://" in address else f"redis://{address}")
            query = parse_qs(parts.query)
            scheme = parts.scheme or "redis"
            if scheme == "unix":
                name, port, db_text = parts.path, 0, (query.get("db") or ["0"])[0]
            else:
                name = (parts.hostname or "localhost").lower()
                port = parts.port or 6379
                db_text = parts.path.strip("/") or (query.get("db") or ["0"])[0]
        else:  # a (host, port) pair
            scheme, name, port, db_text = "redis", str(address[0]).lower(), int(address[1]), "0"
        db = int(db_text or 0)
        where = f"{scheme}://{name}{f':{port}' if port else ''}/{db}"
        local = scheme == "unix" or name in _LOOPBACK or name.startswith("127.")
        # every loopback name of one machine is that machine's Redis
        places.append((scheme, f"loopback on {machine}" if local else name, int(port), db))
        shown.append(f"{where} on {machine}" if local else where)
    prefix = str(options.get("prefix", "asgi"))
    digest = hashlib.sha256(json.dumps([prefix, sorted(places)]).encode()).hexdigest()[:16]
    label = ", ".join(shown) + (f" (prefix {prefix})" if prefix != "asgi" else "")
    return f"redis:{digest}", f"Redis {label}"
