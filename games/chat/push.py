"""The one way chat events reach a table's connections: `push(match_id, event, audience)`.

Today it sends on the channel-layer group of the table (games.notify.match_group), as
``{"type": "chat.event", "event": …, "audience": …}``; each of the table's connections
(the chat's extension of them, games.chat.live: `deliver`) passes on only what its reader's rooms
and mutes let through, in its reader's language. Chat text is public to its room, so it
may travel on the layer; hands never do. When the table's connections move to a
per-process hub (``broadcast(event, audience)``), this function is the one seam to point
at it.

`audience`: a room (``players``, ``spectators``) or `EVERYONE` (the table's state, a
hidden message, a mute the muting account's own connections apply).
"""

from __future__ import annotations

from typing import Any

from games import notify

EVERYONE = "all"


def push(match_id: int, event: dict[str, Any], audience: str) -> bool:
    """Deliver `event` to the connections at `match_id`'s table for `audience`; True if sent.
    Called after commit: a lost event costs a reader a line until they reconnect (the
    history on connect holds it), never the stored message."""
    return notify._send(match_id, {"type": "chat.event", "event": event, "audience": audience})
