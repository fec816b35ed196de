"""What the admin's list pages may be filtered, searched and sorted by: an allow-list.

Django's admin lets anyone who may view a list filter it by any lookup on the model's
own fields from the address bar: staff with only ``games.view_match`` rebuilt a live
hand from ``?state__hands__1__icontains=…`` in ~91 requests and a live match's seed
(every deal of the match, R3/R4) from ``?id=<id>&seed__lte=N`` in ~63, and the same
through rounds (``start__hands__…``) and undo points (``state__…``). The change page
said "hidden until the match is over", which was not true.

`AllowListedLookups` (mixed into every admin of the games, history and accounts apps)
turns that around:

- a filter (``?path__lookup=value``) is accepted only on a field path the admin names:
  its ``list_filter``, ``date_hierarchy``, the primary key and `filter_paths`; anything
  else (a secret in `SECRETS`, any JSON field, any path not listed) is refused (400);
- search runs only over ``search_fields`` that touch no secret;
- a column sorts (``?o=N``) only when what it sorts by touches no secret and no JSON
  field (`get_sortable_by`), and the list page honours that for ``o=`` too
  (`AllowListedChangeList`: Django's own checks it only when drawing the headers).

A finished match's seed is still found by searching for it (games.admin.MatchAdmin),
and its replay export holds it (games.history.admin); neither asks these lookups.

Every list refuses what it does not take with 400, never a server error:

- `allow_list_every_admin` (called once every admin is registered, games.apps) gives
  the mixin to the admins of other apps too (Django's groups, axes' logs);
- a filter on an allowed path whose value the database refuses (``?id__regex=(``, an
  invalid pattern) is answered 400 like a refused lookup (`get_changelist_instance`).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.exceptions import DisallowedModelAdminLookup
from django.contrib.admin.views.main import ChangeList
from django.core.exceptions import FieldDoesNotExist
from django.db import DataError, models, transaction
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpRequest

#: (model label, field): what is hidden from staff too until the match is over, and
#: never queried through the admin's lists: the seed and each state or deal (every
#: hand), and the match's links (a seat's invitation, a live watch)
SECRETS: frozenset[tuple[str, str]] = frozenset(
    {
        ("games.match", "seed"),
        ("games.match", "state"),
        ("games.match", "invite_token"),
        ("games.match", "watch_token"),
        ("games.round", "start"),
        ("games.undopoint", "state"),
        ("auth.user", "password"),
    }
)


def is_secret(field: Any) -> bool:
    model = getattr(field, "model", None)
    return model is not None and (model._meta.label_lower, field.name) in SECRETS


def resolve(model: type[models.Model], lookup: str) -> tuple[list[Any], list[str]]:
    """The fields a lookup path walks through (relations followed), and what is left
    after the last field (lookups, transforms, JSON keys)."""
    fields: list[Any] = []
    parts = lookup.split(LOOKUP_SEP)
    for i, part in enumerate(parts):
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            return fields, parts[i:]
        fields.append(field)
        path_infos = getattr(field, "path_infos", None)
        if not path_infos:
            return fields, parts[i + 1 :]
        model = path_infos[-1].to_opts.model
    return fields, []


def path_name(fields: list[Any]) -> str:
    """The fields' path as list filters name it: ``round__match`` (a related key's
    primary key is the relation itself: ``match__id`` is ``match``)."""
    names = [f.name for f in fields]
    if len(fields) > 1 and fields[-1].primary_key and fields[-2].is_relation:
        names.pop()
    return LOOKUP_SEP.join(names)


def touches_secret(fields: list[Any]) -> bool:
    return any(is_secret(f) for f in fields)


class AllowListedChangeList(ChangeList):
    """Sorts (``?o=``) only by the columns the admin says are sortable."""

    def get_ordering_field(self, field_name: Any) -> Any:
        if self.sortable_by is not None and field_name not in self.sortable_by:
            return None
        return super().get_ordering_field(field_name)


class AllowListedLookups:
    """A ModelAdmin mixin: filters, search and sorting only on what the admin names (see
    the module's docstring)."""

    #: field paths the list may be filtered by besides the list filters' and the date hierarchy's
    filter_paths: tuple[str, ...] = ()

    # -------------------------------------------------------------- filters

    def allowed_paths(self, request: HttpRequest | None) -> set[str]:
        admin_ = self._admin()
        paths = {admin_.model._meta.pk.name, *self.filter_paths}
        if admin_.date_hierarchy:
            paths.add(admin_.date_hierarchy)
        for item in admin_.get_list_filter(request) if request is not None else admin_.list_filter:
            if isinstance(item, (list, tuple)):
                paths.add(item[0])
            elif isinstance(item, str):
                paths.add(item)
        return paths

    def simple_filter_names(self, request: HttpRequest | None) -> set[str]:
        admin_ = self._admin()
        names: set[str] = set()
        for item in admin_.get_list_filter(request) if request is not None else admin_.list_filter:
            if isinstance(item, type) and issubclass(item, admin.SimpleListFilter):
                names.add(str(getattr(item, "parameter_name", "")))
        return names

    def lookup_allowed(self, lookup: str, value: Any, request: HttpRequest | None = None) -> bool:
        if lookup in self.simple_filter_names(request):
            return True
        fields, _rest = resolve(self._admin().model, lookup)
        if not fields or touches_secret(fields) or isinstance(fields[-1], models.JSONField):
            return False
        return path_name(fields) in self.allowed_paths(request)

    # -------------------------------------------------------------- search and sorting

    def get_search_fields(self, request: HttpRequest) -> Any:
        model = self._admin().model
        return [
            f
            for f in super().get_search_fields(request)  # type: ignore[misc]
            if not touches_secret(resolve(model, f.lstrip("^=@"))[0])
        ]

    def get_sortable_by(self, request: HttpRequest) -> Any:
        columns = super().get_sortable_by(request)  # type: ignore[misc]
        return [c for c in columns if isinstance(c, str) and self._sorts_safely(c)]

    def _sorts_safely(self, column: str) -> bool:
        admin_ = self._admin()
        try:
            fields = [admin_.model._meta.get_field(column)]
        except FieldDoesNotExist:
            attr = getattr(admin_, column, None) or getattr(admin_.model, column, None)
            order = getattr(getattr(attr, "fget", attr), "admin_order_field", None)
            if order is None:
                return True  # not sortable at all
            if not isinstance(order, str):
                return False  # an expression: not sorted by (nothing here needs one)
            fields, rest = resolve(admin_.model, order.lstrip("-"))
            if rest or not fields:
                return False
        return not touches_secret(fields) and not isinstance(fields[-1], models.JSONField)

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return AllowListedChangeList

    def get_changelist_instance(self, request: HttpRequest) -> ChangeList:
        """The list for these parameters (it counts its rows as it is made); 400 when the
        database refuses a filter's value (Django turns only its own checks into
        answers). In a savepoint, so the failed query leaves the transaction usable."""
        try:
            with transaction.atomic(using=self._admin().model.objects.db):
                return super().get_changelist_instance(request)  # type: ignore[misc]
        except DataError as e:
            raise DisallowedModelAdminLookup(
                f"The database refused these filters ({type(e).__name__})"
            ) from e

    def _admin(self) -> Any:
        return self  # the ModelAdmin this is mixed into


def allow_list_every_admin(site: admin.AdminSite) -> None:
    """Give `AllowListedLookups` to every admin of `site` that does not have it (those of
    other apps: Django's groups, axes' logs), so no list can be filtered by a lookup its
    admin does not offer, nor answer such a filter with a server error."""
    for model, model_admin in list(site._registry.items()):
        if isinstance(model_admin, AllowListedLookups):
            continue
        cls = type(model_admin)
        allow_listed = type(f"AllowListed{cls.__name__}", (AllowListedLookups, cls), {})
        site.unregister(model)
        site.register(model, allow_listed)
