"""Telling the table that a match changed, after the change is committed.

Only the match id and the new version travel on the channel layer — never a hand
or a view (R24): each websocket connection, when told, reads its own seat's view
from the database. The services call these from `transaction.on_commit`, so a
failure here (no channel layer, Redis down) must never undo or fail the service:
the data is already committed and a client that reconnects asks for a fresh view.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


def match_group(match_id: int) -> str:
    """The channel-layer group of everyone at a match's table (players and spectators)."""
    return f"match-{match_id}"


def _send(match_id: int, message: dict[str, object]) -> bool:
    try:
        layer = get_channel_layer()
        if layer is None:
            logger.warning("no channel layer configured: match %s not notified", match_id)
            return False
        async_to_sync(layer.group_send)(match_group(match_id), message)
    except Exception:  # the change is committed; a lost notice only delays the others' refresh
        logger.warning("could not notify match %s of %s", match_id, message.get("type"), exc_info=True)
        return False
    return True


def match_changed(match_id: int, version: int) -> bool:
    """Tell the match group the match is now at `version`. True if sent."""
    return _send(match_id, {"type": "match.changed", "version": version})


def match_paused(match_id: int, paused: bool) -> bool:
    """Tell the match group the computer players paused or resumed (R26). True if sent."""
    return _send(match_id, {"type": "match.paused", "paused": paused})
