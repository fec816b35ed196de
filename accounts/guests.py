"""Guest accounts: play at once, without choosing a name or a password.

A guest is a real `User` with a generated, readable name and a `Guest` row, kept
logged in by its session. It may turn into a full account (a name and a password of
its choosing) and keeps its matches, since they point at the same user. Guests do
not list tables in the lobby and do not watch private tables (`may_watch_by_link`).

`remove_unused` (run by `manage.py remove_guests`) removes the guests nobody used for
30 days. Their seats stay, with the guest's name marked as a former guest (a player's
seat with no user but a name, `Seat.display_name`); in a match still waiting for
players the seat becomes free again. Every round, log line and score stays.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model, login
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.http import HttpRequest
from django.utils import timezone

from accounts.models import Guest

#: a guest nobody used for this long is removed
UNUSED_AFTER = timedelta(days=30)

ADJECTIVES = (
    "Brave",
    "Calm",
    "Clever",
    "Eager",
    "Gentle",
    "Happy",
    "Jolly",
    "Kind",
    "Lucky",
    "Merry",
    "Nimble",
    "Polite",
    "Quick",
    "Quiet",
    "Sunny",
    "Swift",
    "Witty",
    "Bold",
    "Bright",
    "Cosy",
)
ANIMALS = (
    "Otter",
    "Badger",
    "Falcon",
    "Fox",
    "Heron",
    "Lynx",
    "Marten",
    "Owl",
    "Panda",
    "Puffin",
    "Robin",
    "Seal",
    "Tapir",
    "Wren",
    "Yak",
    "Zebra",
    "Koala",
    "Llama",
    "Bison",
    "Gecko",
)


def new_name() -> str:
    """A free user name such as "CleverOtter417": readable, and valid for Django's user names."""
    users = get_user_model()
    while True:
        name = (
            f"{secrets.choice(ADJECTIVES)}{secrets.choice(ANIMALS)}{secrets.randbelow(900) + 100}"
        )
        if not users.objects.filter(username__iexact=name).exists():
            return name


def is_guest(user: Any) -> bool:
    """Whether `user` is a signed-in guest (one query, then remembered on the user object)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return hasattr(user, "guest")


def create(request: HttpRequest) -> Any:
    """A new guest, logged in on this request's session."""
    users = get_user_model()
    with transaction.atomic():
        user = users(username=new_name())
        user.set_unusable_password()
        user.save()
        Guest.objects.create(user=user, last_seen=timezone.now())
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return user


def touch(user: Any) -> None:
    """Note that the guest was seen now."""
    Guest.objects.filter(user_id=user.pk).update(last_seen=timezone.now())


def may_watch_by_link(match: Any, user: Any) -> bool:
    """A spectator link works for everyone on a listed match, and on a private one for
    everyone but guests."""
    return bool(match.listed) or not is_guest(user)


def convert(user: Any) -> None:
    """The guest `user` (renamed and given a password already) becomes a full account."""
    Guest.objects.filter(user_id=user.pk).delete()


def unused(now: Any = None) -> Any:
    """The guests nobody used for `UNUSED_AFTER`: not seen, not logged in and no action logged since."""
    from games.models import LogEntry

    since = (now or timezone.now()) - UNUSED_AFTER
    recent_action = LogEntry.objects.filter(user_id=OuterRef("user_id"), created_at__gte=since)
    return (
        Guest.objects.filter(last_seen__lt=since)
        .exclude(Q(user__last_login__gte=since))
        .exclude(Exists(recent_action))
    )


def remove(guest: Guest) -> None:
    """Remove one guest; their seats keep the name as a former guest's (see the module docstring)."""
    from games.models import Match, Seat, Table

    user = guest.user
    with transaction.atomic():
        for seat in (
            Seat.objects.filter(user=user).select_related("match").select_for_update(of=("self",))
        ):
            name = seat.name if seat.kind == Seat.Kind.LOCAL else user.get_username()
            seat.kind, seat.user = Seat.Kind.HUMAN, None
            seat.name = "" if seat.match.status == Match.Status.WAITING else name
            seat.save(update_fields=["kind", "user", "name"])
        Match.objects.filter(created_by=user).update(created_by=None)
        Table.objects.filter(created_by=user).update(created_by=None)
        user.delete()


def remove_unused(now: Any = None) -> int:
    """Remove every unused guest; how many were removed."""
    count = 0
    for guest in unused(now).select_related("user"):
        remove(guest)
        count += 1
    return count
