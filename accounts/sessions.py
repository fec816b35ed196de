"""Sessions end everywhere: open websockets follow logout, password change and deactivation.

A table websocket authenticates once, at its handshake, from the session cookie. So
that it cannot outlive the session it was opened with:

- each socket of a signed-in user joins the channel-layer group `user_group(id)`;
- logging out, changing the password and deactivating the account send that group a
  ``session.ended`` notice after commit (`end_sessions`, from the signal receivers
  below: ``user_logged_out``, and a save of the user that changes its password hash
  or turns ``is_active`` off); each socket then re-checks its session and closes
  when it no longer holds (the logged-out session is named in the notice and closed
  outright: Django flushes it only after the signal);
- and a socket re-checks its session before every command (`SessionCheck`): the
  session must still exist, name the same user, who is still active, with the
  password hash the session was made with — `django.contrib.auth.get_user`'s checks,
  run on a fresh read of the session rather than on the copy loaded at the handshake.
  With the database session store the check is one query (the session's row and the
  user's password and active flag): while the session's data and the user's password
  are what the last full check saw, its answer is the same; anything else is checked
  in full again (`session_user_id`).
"""

from __future__ import annotations

import logging
from functools import cache
from importlib import import_module
from types import SimpleNamespace
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user, get_user_model
from django.contrib.auth.signals import user_logged_out
from django.db import connection, transaction
from django.db.models.signals import post_save, pre_save
from django.utils import timezone

logger = logging.getLogger(__name__)

#: the notice's channel-layer type (the consumer's ``session_ended`` handler)
SESSION_ENDED = "session.ended"


def user_group(user_id: int) -> str:
    """The channel-layer group of every open table socket of one user."""
    return f"user-{user_id}"


def session_user_id(session_key: str | None) -> int | None:
    """The id of the user the session `session_key` signs in now, or None when it has
    ended (logged out, expired, password changed, account deactivated). Reads the
    session afresh from its store; `get_user` checks the user and the password hash."""
    if not session_key:
        return None
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=session_key)
    # What get_user reads of a request: its session. A copy, so that its housekeeping on a
    # stale session (flush, or cycle_key after a SECRET_KEY rotation) does not touch the
    # browser's HTTP session: the next page request does that.
    user = get_user(SimpleNamespace(session=_SessionCopy(store.items())))  # type: ignore[arg-type]  # duck-typed request: get_user reads .session only
    return user.pk if user.is_authenticated else None


class SessionEnded(Exception):
    """The session a socket was opened with no longer signs its user in."""


class SessionCheck:
    """One socket's session check: `user_id()` is `session_user_id(session_key)`, in one
    query while nothing it depends on changed (the database session store only; any
    other store gets the full check every time). That query can also be joined into a
    statement of the caller's (`joined`, then `judge` on its columns): an action's lock
    reads the session with the match (games.services)."""

    def __init__(self, session_key: str | None) -> None:
        self.session_key = session_key or ""
        #: what the last full check saw: (the session's data as stored, user id, password hash)
        self.seen: tuple[str, int, str] | None = None

    def user_id(self) -> int | None:
        if not self.session_key:
            return None
        joined = self.joined()
        if joined is None:  # not a database store: the full check
            return session_user_id(self.session_key)
        sql, params = joined
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT sc.* FROM (SELECT 1) one{sql}", params)
            return self.judge(cursor.fetchone())

    def joined(self) -> tuple[str, list[Any]] | None:
        """The check as a ``LEFT JOIN LATERAL (…) sc ON TRUE`` giving three columns: the
        session's data (if it exists and has not expired) with the password and active flag
        of the user the last full check found (NULLs before one); None when the session
        store is not the database's, or there is no session."""
        sql = _joined_sql(settings.SESSION_ENGINE)
        if not self.session_key or sql is None:
            return None
        seen = self.seen[1] if self.seen is not None else None
        return sql, [seen, self.session_key, timezone.now()]

    def judge(self, row: Any) -> int | None:
        """The user id the session signs in, from the three columns `joined` gives."""
        if row is None or row[0] is None:
            self.seen = None
            return None  # no such session, or expired
        data, password, active = row
        if self.seen is not None and self.seen[0] == data and self.seen[2] == password and active:
            return self.seen[1]
        # Changed, or not seen yet: get_user's checks on the data just read.
        store = import_module(settings.SESSION_ENGINE).SessionStore
        user = get_user(
            SimpleNamespace(session=_SessionCopy(store(session_key=self.session_key).decode(data)))  # type: ignore[arg-type]  # duck-typed request, as above
        )
        if not user.is_authenticated:
            self.seen = None
            return None
        self.seen = (data, user.pk, user.password)
        return int(user.pk)


@cache
def _joined_sql(engine: str) -> str | None:
    """`SessionCheck.joined`'s SQL for the session `engine`, built once; None when that store
    is not the database's."""
    store = import_module(engine).SessionStore
    if not hasattr(store, "get_model_class"):
        return None
    user = get_user_model()
    table = store.get_model_class()._meta.db_table
    users, pk = user._meta.db_table, user._meta.pk.column
    password = user._meta.get_field("password").column
    fields = {f.name for f in user._meta.concrete_fields}
    active = f'u."{user._meta.get_field("is_active").column}"' if "is_active" in fields else "TRUE"
    return (
        f' LEFT JOIN LATERAL (SELECT s.session_data, u."{password}", COALESCE({active}, FALSE)'
        f' FROM "{table}" s LEFT JOIN "{users}" u ON u."{pk}" = %s'
        " WHERE s.session_key = %s AND s.expire_date > %s) sc ON TRUE"
    )


class _SessionCopy(dict[str, Any]):
    """A session's data for `get_user`, changed in memory only."""

    def flush(self) -> None:
        self.clear()

    def cycle_key(self) -> None:
        pass


def end_sessions(user_id: int, *, session_key: str | None = None) -> bool:
    """Tell the user's open sockets to re-check their sessions (and the one of
    `session_key` to close). After commit; a lost notice still leaves the per-command
    check. True if sent."""
    message: dict[str, Any] = {"type": SESSION_ENDED, "session_key": session_key}
    try:
        layer = get_channel_layer()
        if layer is None:
            return False
        async_to_sync(layer.group_send)(user_group(user_id), message)
    except Exception:  # the account change is made; the sockets' own checks still hold
        logger.warning(
            "could not tell user %s's sockets that a session ended", user_id, exc_info=True
        )
        return False
    return True


def _on_commit(user_id: int, session_key: str | None = None) -> None:
    transaction.on_commit(lambda: end_sessions(user_id, session_key=session_key))


def logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if user is not None and user.pk is not None:
        session = getattr(request, "session", None)
        _on_commit(user.pk, getattr(session, "session_key", None))


def before_user_save(sender: Any, instance: Any, update_fields: Any = None, **kwargs: Any) -> None:
    """Note whether this save changes what sessions depend on (password hash, active)."""
    instance._sessions_end = False
    if instance.pk is None or kwargs.get("raw"):
        return
    if update_fields is not None and not {"password", "is_active"} & set(update_fields):
        return  # e.g. last_login at each login
    before = sender._default_manager.filter(pk=instance.pk).values("password", "is_active").first()
    if before is not None:
        instance._sessions_end = before["password"] != instance.password or (
            before["is_active"] and not instance.is_active
        )


def after_user_save(sender: Any, instance: Any, created: bool = False, **kwargs: Any) -> None:
    if not created and getattr(instance, "_sessions_end", False):
        instance._sessions_end = False
        _on_commit(instance.pk)


def connect_receivers() -> None:
    """Called once from AccountsConfig.ready."""
    user_model = get_user_model()
    user_logged_out.connect(logged_out, dispatch_uid="accounts.sessions.logged_out")
    pre_save.connect(
        before_user_save, sender=user_model, dispatch_uid="accounts.sessions.before_save"
    )
    post_save.connect(
        after_user_save, sender=user_model, dispatch_uid="accounts.sessions.after_save"
    )
