"""The kernel of a change of the table by a person seated at it (`seated_change`) and of one
of its settings (`setting_set`, a column of Match with choices): the features built on it
are in games/table/commands/ (pace, skip, away_limit, stand_in). And a player's own
"draw and pass for me" (`autodraw_set`, `autodraw_of`), kept on their account, not on the
match. No rule of play is decided here: these set how the table's computers (R25) and
absent players are run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, cast

from django.db import transaction
from django.db.models import Field

from games import permissions
from games.errors import BAD_REQUEST, ILLEGAL, NOT_FOUND, GameError
from games.models import Match, Seat
from games.services.store import Result, _commit, _lock, _seats, _seen
from games.words import sentence

#: the settings of a table its seated people change (`setting_set`)
TableSetting = Literal["pace", "away_limit"]


def seated_change(
    *,
    match_id: int,
    user: object,
    request_id: str,
    action: permissions.Rule,
    change: Callable[[Match, list[Seat]], None],
    seat: int | None = None,
) -> Result:
    """A change of the table made by a person at it (a setting, a computer standing in for a
    seat), in one transaction: the match locked, `action` allowed to `user` (for `seat`:
    games.permissions), a repeated request id answered with its result, then
    `change(match, seats)` — it refuses with a GameError, having written nothing, or writes
    its rows and sets what changed on `match` — and the match's next version committed. A
    "skip to my turn" (games.table.commands.skip, itself such a change) goes on through one."""
    with transaction.atomic():
        match = _lock(match_id)
        seats = _seats(match)
        permissions.require(user, action, match, seat=seat, seats=seats)
        seen = _seen(match, user, request_id)
        if seen is not None:
            return seen
        change(match, seats)
        return _commit(
            match, match.version + 1, user=user, request_id=request_id, hurry=match.hurry
        )


def setting_set(
    *,
    match_id: int,
    user: object,
    request_id: str,
    action: permissions.Rule,
    field: TableSetting,
    value: object,
    unknown: str,
    over: str,
    same: str,
) -> Result:
    """A person `action` allows (the feature's rule, games.permissions) sets one of the table's
    settings, `field` (a column of Match with choices: games.table.commands.pace), to `value`.
    Refused, changing nothing, in the caller's words: a value not among the field's
    choices (`unknown`: bad_request), a finished match (`over`: illegal), the table's
    setting already (`same`: bad_request). Everyone at the table sees it with the new version."""
    column = cast("Field[Any, Any]", Match._meta.get_field(field))  # a column, not a relation
    allowed = {choice for choice, _label in column.choices or ()}

    def change(match: Match, seats: list[Seat]) -> None:
        if not isinstance(value, str) or value not in allowed:
            raise GameError(BAD_REQUEST, unknown)
        if match.status == Match.Status.FINISHED:
            raise GameError(ILLEGAL, over)
        if value == getattr(match, field):
            raise GameError(BAD_REQUEST, same)
        setattr(match, field, value)
        columns: dict[str, str] = {field: value}
        Match.objects.filter(pk=match.pk).update(**columns)

    return seated_change(
        match_id=match_id, user=user, request_id=request_id, action=action, change=change
    )


def autodraw_set(*, match_id: int, user: object, on: bool) -> bool:
    """A player at the match turns "draw and pass for me when I have no play" on or off. It is
    kept on their account (accounts.models.Preferences, guests too), so every table and
    browser of theirs follows it; the match itself does not change (no new version)."""
    from accounts.models import Preferences

    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise GameError(NOT_FOUND, sentence("no_such_match"))
    permissions.require(user, permissions.Action.PREFER, match)
    Preferences.objects.update_or_create(user=user, defaults={"autodraw": bool(on)})
    return bool(on)


def autodraw_of(user: object) -> bool:
    """Whether `user` (None: nobody signed in) has "draw and pass for me" on."""
    from accounts.models import Preferences

    user_id = permissions.user_id(user)
    if user_id is None:
        return False
    return Preferences.objects.filter(user_id=user_id, autodraw=True).exists()
