"""Who is at a table now, and since when someone is away: one row per table connection.

The table's websocket (games.table.consumers) calls `opened` when a signed-in user's
connection is accepted, `renew` every `RENEW` while it stays open (a heartbeat kept by
the server holding the connection, whether or not the page is in view) and `closed`
when it ends. A connection whose server died without closing it (killed, crashed) is
renewed no more: after `TIMEOUT` it counts as gone, as a pause does (R26, `Pause`),
and its time away starts at its last renewal. The computer worker marks such rows
closed (`expire`) and, as a lone server starting up, all of them (no connection of a
fresh process exists yet).

Read by the turn e-mails (games.history.mail: `connected`, `last_seen`), the table's seats (`at_table`:
the dot by each name, `here`: whether a closing connection was its user's last, `came_back`:
whether an opening one is their first) and by the
stand-in computers (games.attendance.standin: `away_since`).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import Max, Q
from django.utils import timezone

from games.models import Match, Presence, Seat

#: how often an open connection's server renews its row
RENEW = timedelta(seconds=60)
#: a row not renewed for this long counts as closed (its server is gone)
TIMEOUT = timedelta(seconds=180)


def _uid(user: Any) -> int | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return getattr(user, "pk", None)


def _live(now: datetime) -> Q:
    return Q(closed=False, alive_at__gte=now - TIMEOUT)


def opened(*, match_id: int, user: Any, channel: str) -> bool:
    """A table connection of `user` opened (anonymous watchers are not recorded). The user's
    earlier rows at this table that are no longer live are dropped: the new row says more.
    True when recorded."""
    uid = _uid(user)
    if uid is None:
        return False
    now = timezone.now()
    with transaction.atomic():
        Presence.objects.filter(match_id=match_id, user_id=uid).exclude(_live(now)).delete()
        Presence.objects.update_or_create(
            match_id=match_id,
            channel=channel,
            defaults={"user_id": uid, "opened_at": now, "alive_at": now, "closed": False},
        )
    return True


def came_back(*, match_id: int, user: Any) -> bool:
    """Asked before `opened`: whether a connection opening now brings a seated person back
    to a match being played: they were seen at this table before, and none of their
    connections to it is live. Their seat's dot then turns "here" on every board at once
    (the consumer tells the table, `notify.match_seats`). A first arrival tells nobody: the
    others' boards show it with the next version."""
    uid = _uid(user)
    if uid is None:
        return False
    if not Seat.objects.filter(
        match_id=match_id, user_id=uid, match__status=Match.Status.PLAYING
    ).exists():
        return False
    seen = Presence.objects.filter(match_id=match_id, user_id=uid).exists()
    return seen and not here(match_id=match_id, user=user)


def renew(*, match_id: int, channel: str) -> int:
    """The heartbeat of an open connection; how many rows it renewed (0 or 1)."""
    return Presence.objects.filter(match_id=match_id, channel=channel, closed=False).update(
        alive_at=timezone.now()
    )


def closed(*, match_id: int, channel: str) -> int:
    """A connection ended: its row stays, closed, saying when its user was last seen."""
    return Presence.objects.filter(match_id=match_id, channel=channel, closed=False).update(
        closed=True, alive_at=timezone.now()
    )


def expire(*, everything: bool = False) -> int:
    """Mark closed the rows nobody renews any more (`TIMEOUT`), keeping their last renewal
    as the time last seen; with `everything`, every open row (a lone server starting up:
    none of its connections exists yet). How many were closed."""
    rows = Presence.objects.filter(closed=False)
    if not everything:
        rows = rows.filter(alive_at__lt=timezone.now() - TIMEOUT)
    return rows.update(closed=True)


def connected(user_id: int, now: datetime | None = None) -> bool:
    """Whether the user has a table open anywhere now (a live connection)."""
    return Presence.objects.filter(_live(now or timezone.now()), user_id=user_id).exists()


def last_seen(user_id: int) -> datetime | None:
    """When the user was last seen at any table (None: never)."""
    value: datetime | None = Presence.objects.filter(user_id=user_id).aggregate(
        last=Max("alive_at")
    )["last"]
    return value


def here(*, match_id: int, user: Any) -> bool:
    """Whether `user` has a live connection to this match's table now."""
    uid = _uid(user)
    return (
        uid is not None
        and Presence.objects.filter(_live(timezone.now()), match_id=match_id, user_id=uid).exists()
    )


def at_table(match_id: int, now: datetime | None = None) -> dict[int, tuple[bool, datetime]]:
    """For each user ever seen at the match's table: (there now, last seen), in one query."""
    return at_tables([match_id], now).get(match_id, {})


def at_tables(
    match_ids: list[int], now: datetime | None = None
) -> dict[int, dict[int, tuple[bool, datetime]]]:
    """`at_table` of each of the matches, in one query."""
    now = now or timezone.now()
    out: dict[int, dict[int, tuple[bool, datetime]]] = {}
    # Written out in SQL: a board at a shared table reads it once per version, and the ORM
    # spent longer building the statement than the database running it (as games.services).
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT match_id, user_id, closed, alive_at FROM games_presence"
            " WHERE match_id = ANY(%s)",
            [list(match_ids)],
        )
        rows = cursor.fetchall()
    for match_id, uid, was_closed, alive in rows:
        seen = out.setdefault(match_id, {})
        live = not was_closed and alive >= now - TIMEOUT
        there, last = seen.get(uid, (False, alive))
        seen[uid] = (there or live, max(last, alive))
    return out
