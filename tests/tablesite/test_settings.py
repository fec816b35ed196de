"""Settings from the environment, production checks, ASGI wiring."""

from __future__ import annotations

import asyncio
import copy
import os
import secrets
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from channels.layers import InMemoryChannelLayer
from django.conf import settings

from tablesite.env import channel_layers, database, env_bool, env_list
from tests.conftest import REPO_ROOT


def test_no_redis_url_gives_the_in_memory_layer() -> None:
    assert channel_layers(None) == {
        "default": {"BACKEND": "tablesite.layers.SweepingInMemoryChannelLayer"}
    }
    assert channel_layers("") == channel_layers(None)


def test_redis_url_gives_channels_redis() -> None:
    layers = channel_layers("redis://127.0.0.1:6379/2")
    assert layers["default"]["BACKEND"] == "tablesite.layers.TableRedisChannelLayer"
    (host,) = layers["default"]["CONFIG"]["hosts"]
    assert host["address"] == "redis://127.0.0.1:6379/2"
    # Longer than channels-redis's blocking wait for a message, or idle websockets drop.
    from channels_redis.core import RedisChannelLayer

    assert host["socket_timeout"] > RedisChannelLayer.brpop_timeout


def test_settings_use_the_helper_for_this_environment() -> None:
    layers = copy.deepcopy(settings.CHANNEL_LAYERS)
    # On Redis, tests/conftest.py gives each test process a key prefix of its own.
    layers["default"].get("CONFIG", {}).pop("prefix", None)
    assert layers == channel_layers(os.environ.get("REDIS_URL"))


def test_env_bool_and_list() -> None:
    env = {"A": "true", "B": "0", "C": "maybe", "H": " a.example , b.example,, "}
    assert env_bool(env, "A", False) is True
    assert env_bool(env, "B", True) is False
    assert env_bool(env, "missing", True) is True
    with pytest.raises(ValueError):
        env_bool(env, "C", False)
    assert env_list(env, "H") == ["a.example", "b.example"]
    assert env_list(env, "missing") == []


def test_database_is_postgresql_only() -> None:
    config = database("postgres://ana:secret@db.example:5433/mextrain")
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["HOST"], config["PORT"], config["NAME"], config["USER"]) == (
        "db.example",
        5433,
        "mextrain",
        "ana",
    )
    with pytest.raises(ValueError, match="PostgreSQL"):
        database("sqlite:///db.sqlite3")
    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


def test_i18n_settings() -> None:
    assert [code for code, _ in settings.LANGUAGES] == ["en", "es", "de"]
    assert "django.middleware.locale.LocaleMiddleware" in settings.MIDDLEWARE
    assert settings.INSTALLED_APPS[0] == "daphne"


def test_production_settings_pass_check_deploy() -> None:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "SECURE_", "CSRF_", "ALLOWED_", "SECRET_", "DEBUG"))
    }
    env.update(
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="dominoes.example.org",
        CSRF_TRUSTED_ORIGINS="https://dominoes.example.org",
        DATABASE_URL=os.environ.get("DATABASE_URL") or "postgres://unused@127.0.0.1:1/unused",
        # README's production settings: behind a TLS proxy, several processes (never contacted here)
        SECURE_PROXY_SSL_HEADER_NAME="HTTP_X_FORWARDED_PROTO",
        REDIS_URL="redis://127.0.0.1:1/0",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_settings_refuse_a_missing_secret_key() -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    env["DATABASE_URL"] = "postgres://unused@127.0.0.1:1/unused"
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


# --- ASGI -------------------------------------------------------------------


def test_asgi_application_routes_http_and_websockets() -> None:
    from channels.routing import ProtocolTypeRouter
    from channels.security.websocket import OriginValidator

    from tablesite.asgi import application
    from tablesite.origins import SiteOriginValidator

    assert isinstance(application, ProtocolTypeRouter)
    assert set(application.application_mapping) == {"http", "websocket", "lifespan"}
    assert isinstance(application.application_mapping["websocket"], OriginValidator)
    assert isinstance(application.application_mapping["websocket"], SiteOriginValidator)


@pytest.mark.asyncio
async def test_websocket_from_another_origin_is_refused() -> None:
    from channels.testing import WebsocketCommunicator

    from tablesite.asgi import application

    communicator = WebsocketCommunicator(
        application,
        "/ws/anything/",
        headers=[(b"origin", b"https://evil.example"), (b"host", b"testserver")],
    )
    connected, _ = await communicator.connect()
    assert not connected
    await communicator.disconnect()


def _redis_url() -> str | None:
    """REDIS_URL, else the local Redis if one answers (database 15), else None."""
    if os.environ.get("REDIS_URL"):
        return os.environ["REDIS_URL"]
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
    except OSError:
        return None
    return "redis://127.0.0.1:6379/15"


@pytest.mark.asyncio
async def test_channel_layers_deliver_group_messages() -> None:
    """Both layers the settings can choose carry a group message end to end."""
    from channels.layers import get_channel_layer
    from channels_redis.core import RedisChannelLayer

    from tablesite.layers import TableRedisChannelLayer

    layers = [InMemoryChannelLayer()]
    redis_url = _redis_url()
    if redis_url:
        layers.append(
            TableRedisChannelLayer(
                hosts=[redis_url], prefix=f"mextrain-test-{secrets.token_hex(4)}"
            )
        )
    assert get_channel_layer() is not None
    for layer in layers:
        channel = await layer.new_channel()
        await layer.group_add("match-1", channel)
        await layer.group_send("match-1", {"type": "match.changed", "version": 7})
        assert await layer.receive(channel) == {"type": "match.changed", "version": 7}
        await layer.group_discard("match-1", channel)
        if isinstance(layer, RedisChannelLayer):
            await layer.flush()
    if not redis_url:
        pytest.skip("in-memory layer checked; no Redis on 127.0.0.1:6379 for channels-redis")


@pytest_asyncio.fixture
async def site_redis_layer() -> AsyncIterator[Any]:
    """A channels-redis layer configured as the site configures it (`channel_layers`),
    with a key prefix of its own, on REDIS_URL or the local Redis."""
    from tablesite.layers import TableRedisChannelLayer

    redis_url = _redis_url()
    if not redis_url:
        if os.environ.get("CI"):
            pytest.fail("no Redis on 127.0.0.1:6379 under CI")
        pytest.skip("no Redis on 127.0.0.1:6379 (REDIS_URL not set)")
    config = channel_layers(redis_url)["default"]["CONFIG"]
    layer = TableRedisChannelLayer(**config, prefix=f"mextrain-test-{secrets.token_hex(4)}")
    yield layer
    await layer.flush()


@pytest.mark.asyncio
async def test_the_redis_layer_takes_as_many_calls_at_once_as_a_busy_server_makes(
    site_redis_layer: Any,
) -> None:
    """A server process with a few hundred table pages open makes that many channel-layer
    calls at once when they connect or a move is notified. redis-py 8.1 caps a pool at
    100 connections in use and fails the next call ("Too many connections"), which
    closed those pages (bench/load.py --processes 2): the site's pool is larger."""
    layer = site_redis_layer
    channels = [f"{await layer.new_channel()}{i}" for i in range(400)]
    await asyncio.gather(*(layer.group_add("match-busy", c) for c in channels))
    await asyncio.gather(*(layer.group_discard("match-busy", c) for c in channels))


@pytest.mark.asyncio
async def test_the_redis_layer_keeps_every_notice_for_a_busy_process(site_redis_layer: Any) -> None:
    """channels-redis keeps the messages for all of one server process's connections in
    one Redis key, and a group message to a key already holding `capacity` messages is
    dropped without an error. At the default (100) a process with a couple of hundred
    table pages lost "match changed" notices whenever it fell behind by 100 of them,
    and those pages stopped updating (bench/load.py --processes 2 at 100 tables)."""
    layer = site_redis_layer
    pages = [await layer.new_channel() for _ in range(300)]  # one process's connections
    for number, page in enumerate(pages):
        await layer.group_add(f"match-{number}", page)
    for number in range(len(pages)):  # a move at every table before the process reads any
        await layer.group_send(f"match-{number}", {"type": "match.changed", "version": number})
    received = [await asyncio.wait_for(layer.receive(page), 5) for page in pages]
    assert [m["version"] for m in received] == list(range(len(pages)))


@pytest.mark.asyncio
async def test_a_notice_told_here_already_goes_to_the_other_processes_only(
    site_redis_layer: Any,
) -> None:
    """`group_send_elsewhere` (what games.notify sends once this process's hubs were told
    directly): a member of the group in another process gets it, this process's own
    members do not, and with none elsewhere nothing is written for anyone."""
    from tablesite.layers import TableRedisChannelLayer

    here = site_redis_layer
    config = channel_layers(_redis_url())["default"]["CONFIG"]
    there = TableRedisChannelLayer(**config, prefix=here.prefix)  # another process's layer
    mine, theirs = await here.new_channel(), await there.new_channel()
    await here.group_add("match-1", mine)
    await here.group_send_elsewhere("match-1", {"type": "match.changed", "version": 6})
    written = await here.connection(0).keys(f"{here.prefix}*specific*")
    assert written == []  # the group's only member is here: nothing sent

    await there.group_add("match-1", theirs)
    await here.group_send_elsewhere("match-1", {"type": "match.changed", "version": 7})
    await here.group_send("match-1", {"type": "match.changed", "version": 8})
    assert await there.receive(theirs) == {"type": "match.changed", "version": 7}
    assert await there.receive(theirs) == {"type": "match.changed", "version": 8}
    assert await here.receive(mine) == {"type": "match.changed", "version": 8}  # not 7
    await there.flush()
