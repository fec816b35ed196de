"""Telling the table that a match changed, after the change is committed.

Only the match id and the new version travel on the channel layer — never a hand
or a view (R24): each websocket connection, when told, reads its own seat's view
from the database. The services call these from `transaction.on_commit`, so a
failure here (no channel layer, Redis down) must never undo or fail the service:
the data is already committed and a client that reconnects asks for a fresh view.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from . import signals

logger = logging.getLogger(__name__)


def _layer_lost_errors() -> tuple[type[BaseException], ...]:
    errors: list[type[BaseException]] = [OSError]  # refused, reset, unreachable
    try:
        import redis.exceptions
    except ImportError:  # pragma: no cover - channels-redis (and so redis) is a dependency
        return tuple(errors)
    return (*errors, redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)


#: What the channel layer raises when its store is gone (Redis restarted or down): an
#: outage to report in one line, not a bug to report with a traceback.
LAYER_LOST: tuple[type[BaseException], ...] = _layer_lost_errors()


def match_group(match_id: int) -> str:
    """The channel-layer group of everyone at a match's table (players and spectators)."""
    return f"match-{match_id}"


def _in_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _send(match_id: int, message: dict[str, object]) -> bool:
    try:
        layer = get_channel_layer()
        if layer is None:
            logger.warning("no channel layer configured: match %s not notified", match_id)
            return False
        send = async_to_sync(layer.group_send)
        if _in_event_loop():
            # A thread that runs an event loop cannot wait on one: never the server's
            # services (they run in worker threads), but code driving a browser, which
            # calls them from its own loop's thread. The notice goes from a thread of its own.
            with ThreadPoolExecutor(1) as pool:
                pool.submit(send, match_group(match_id), message).result()
        else:
            send(match_group(match_id), message)
    except LAYER_LOST as e:
        logger.warning("could not notify match %s of %s: channel layer unreachable (%s)",
                       match_id, message.get("type"), e)
        return False
    except Exception:  # the change is committed; a lost notice only delays the others' refresh
        logger.warning("could not notify match %s of %s", match_id, message.get("type"), exc_info=True)
        return False
    return True


def match_changed(match_id: int, version: int) -> bool:
    """Tell the match group the match is now at `version`, and this process's computer
    players (`signals.match_moved`, heard by games.worker: a computer may be next). True if sent."""
    _poke(match_id)
    return _send(match_id, {"type": "match.changed", "version": version})


def match_paused(match_id: int, paused: bool) -> bool:
    """Tell the match group the computer players paused or resumed (R26), and this process's
    computer players. True if sent."""
    _poke(match_id)
    return _send(match_id, {"type": "match.paused", "paused": paused})


def match_seats(match_id: int) -> bool:
    """Tell the match group that what its seats may do changed without a new version: a
    seat's away limit passed (games.standin), so the others may now let a computer play
    it. True if sent."""
    return _send(match_id, {"type": "match.seats"})


def _poke(match_id: int) -> None:
    try:
        signals.match_moved.send(sender=None, match_id=match_id)
    except Exception:  # the notice matters more; the loop looks again at its next poll anyway
        logger.warning("could not wake the computer players", exc_info=True)
