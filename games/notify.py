"""Telling the table that a match changed, after the change is committed.

Only the match id, the new version and the PUBLIC log entries of that version travel
on the channel layer — never a hand or a view (R24; a draw names no tile, a played
tile is on the table): each process's hub of the match (games.table.hub) applies the
entries with the engine to the state it holds, or reads the version when it cannot.
In the process that made the change the hub is told directly (`hub_sink`), not
through the layer; the layer's copy goes to the other processes only where the layer can
do that (Redis: `tablesite.layers.TableRedisChannelLayer.group_send_elsewhere`), and
carries this process's `ORIGIN` so that its own hubs skip it wherever it still reaches them
(with the in-memory layer, which reaches no other process, no copy goes when this
process's hubs hold the match: `hub_holds`). The services call these from `transaction.on_commit`, so a failure here (no
channel layer, Redis down) must never undo or fail the service: the data is already
committed and a client that reconnects asks for a fresh view.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.processes import trace

from . import signals

logger = logging.getLogger(__name__)

#: this process's name on the channel layer's notices (its hubs were told directly)
ORIGIN = secrets.token_hex(8)


class Entry(NamedTuple):
    """A log entry of an action, as a notice carries it: the columns the board reads
    (games.table.board_reads.Line, the same fields in the same order). Public (R24)."""

    id: int
    round_id: int
    seq: int
    kind: str
    seat: int | None
    action: Any
    user_id: int | None
    by_computer: bool
    version: int
    username: str | None


#: where this process's hubs are told of a change made here (games.table.hub installs it):
#: called with (match id, message) in the thread that committed; must not block
hub_sink: Callable[[int, dict[str, Any]], None] | None = None
#: whether this process's hubs hold a match (games.table.hub installs it): with a layer that
#: reaches no other process (the in-memory one), a notice told to them directly goes no further
hub_holds: Callable[[int], bool] | None = None


def reaches_this_process_only(layer: Any) -> bool:
    """Whether `layer` is the in-memory channel layer, which no other process shares."""
    return type(layer).__name__.endswith("InMemoryChannelLayer")


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


_held = threading.local()


class Held(NamedTuple):
    """The notices of a command run within `held`: for this process's hubs (`hubs`), and the
    layer's copies for the other processes (`elsewhere`: (group, message), where the layer
    can send to those only), both handed on by the caller from its event loop."""

    hubs: list[tuple[int, dict[str, Any]]]
    elsewhere: list[tuple[str, dict[str, Any]]]


@contextlib.contextmanager
def held() -> Iterator[Held]:
    """Within: this thread's notices to this process's hubs are kept, not handed to
    `hub_sink`, and so are the layer's copies for the other processes when the layer can
    send to those only (Redis). A table connection runs its commands so, in a database
    thread; from its event loop it then hands the first to the hub after its own answer (an
    ack, so that the acting page gets it before the board of the version) and sends the
    others (`send_elsewhere`): the thread does not wait on the loop and Redis for them."""
    before = getattr(_held, "notices", None)
    kept = Held([], [])
    _held.notices = kept
    try:
        yield kept
    finally:
        _held.notices = before


#: the sends `send_elsewhere` started that have not ended (kept until they end)
_sending: set[asyncio.Task[None]] = set()


def send_elsewhere(copies: list[tuple[str, dict[str, Any]]]) -> asyncio.Task[None] | None:
    """Send the layer's copies kept by `held` to the other processes, from the running event
    loop, one after the other: the task that sends them (None when there are none)."""
    if not copies:
        return None
    task = asyncio.get_running_loop().create_task(_send_in_turn(list(copies)))
    _sending.add(task)
    task.add_done_callback(_sending.discard)
    return task


async def _send_in_turn(copies: list[tuple[str, dict[str, Any]]]) -> None:
    for group, message in copies:
        try:
            await get_channel_layer().group_send_elsewhere(group, message)
        except Exception as e:
            _not_sent(message.get("match"), message, e)


def _not_sent(match_id: object, message: dict[str, Any], error: Exception) -> None:
    """Log a notice the layer did not take: the change is committed, so a lost notice only
    delays the others' refresh (a page checks its version every 20 s). An outage (Redis
    down) is one line; anything else comes with its traceback."""
    if isinstance(error, LAYER_LOST):
        logger.warning(
            "could not notify match %s of %s: channel layer unreachable (%s)",
            match_id,
            message.get("type"),
            error,
        )
    else:
        logger.warning(
            "could not notify match %s of %s", match_id, message.get("type"), exc_info=error
        )


def match_group(match_id: int) -> str:
    """The channel-layer group of everyone at a match's table (players and spectators)."""
    return f"match-{match_id}"


def _in_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _send(match_id: int, message: dict[str, Any]) -> bool:
    message = {**message, "match": match_id}
    trace.stamp(message)
    sink = hub_sink
    kept: Held | None = getattr(_held, "notices", None) if sink is not None else None
    if sink is not None:
        if kept is not None:
            kept.hubs.append((match_id, dict(message)))
        else:
            try:
                sink(match_id, message)
            except Exception:  # the layer's copy still goes; a hub that missed it reads at the next
                logger.warning(
                    "could not tell this process's hub of match %s", match_id, exc_info=True
                )
        message["origin"] = ORIGIN
    try:
        layer = get_channel_layer()
        if layer is None:
            logger.warning("no channel layer configured: match %s not notified", match_id)
            return False
        holds = hub_holds
        if (
            sink is not None
            and holds is not None
            and reaches_this_process_only(layer)
            and holds(match_id)
        ):
            # The layer would bring it back to this process only, whose hub skips its own
            # notices (it was told directly): the hop from this thread to the loop is saved.
            return True
        # Told here already: the layer's copy is for the other processes only, where the
        # layer can tell them apart (tablesite.layers: Redis); others bring it back, skipped.
        elsewhere = getattr(layer, "group_send_elsewhere", None) if sink is not None else None
        if elsewhere is not None and kept is not None:
            kept.elsewhere.append((match_group(match_id), message))  # sent by `send_elsewhere`
            return True
        send = async_to_sync(elsewhere or layer.group_send)
        if _in_event_loop():
            # A thread that runs an event loop cannot wait on one: never the server's
            # services (they run in worker threads), but code driving a browser, which
            # calls them from its own loop's thread. The notice goes from a thread of its own.
            with ThreadPoolExecutor(1) as pool:
                pool.submit(send, match_group(match_id), message).result()
        else:
            send(match_group(match_id), message)
    except Exception as e:
        _not_sent(match_id, message, e)
        return False
    return True


def match_changed(
    match_id: int,
    version: int,
    *,
    entries: tuple[Entry, ...] = (),
    hurry: bool | None = None,
    computer_next: bool = True,
) -> bool:
    """Tell the match group the match is now at `version`, and this process's computer
    players (`signals.match_moved`, heard by games.worker: a computer may be next; not when
    `computer_next` is False, a person surely being the one to act). `entries`: the action
    entries this version logged, when it logged only actions (games.services.store._logged),
    and `hurry` the match's "skip to my turn" after it; a hub derives the version from them.
    True if sent."""
    if computer_next:
        _poke(match_id)
    message: dict[str, Any] = {"type": "match.changed", "version": version}
    if entries:
        message["entries"] = [list(e) for e in entries]
        message["hurry"] = hurry
    return _send(match_id, message)


def match_paused(match_id: int, paused: bool) -> bool:
    """Tell the match group the computer players paused or resumed (R26), and this process's
    computer players. True if sent."""
    _poke(match_id)
    return _send(match_id, {"type": "match.paused", "paused": paused})


def match_broadcast(match_id: int, frame: dict[str, Any], audience: str = "all") -> bool:
    """Send `frame` as it is to every connection at the match's table in every process (or
    only its players, or only its spectators: games.table.hub.AUDIENCES), in order with
    their boards: an out-of-band event such as a chat message. Nothing private (R24):
    the same frame reaches everyone in the audience. True if sent."""
    return _send(match_id, {"type": "hub.broadcast", "frame": frame, "audience": audience})


def match_seats(match_id: int) -> bool:
    """Tell the match group that what its seats may do changed without a new version: a
    seat's away limit passed (games.attendance.standin), so the others may now let a computer play
    it. True if sent."""
    return _send(match_id, {"type": "match.seats"})


def _poke(match_id: int) -> None:
    try:
        signals.match_moved.send(sender=None, match_id=match_id)
    except Exception:  # the notice matters more; the loop looks again at its next poll anyway
        logger.warning("could not wake the computer players", exc_info=True)
