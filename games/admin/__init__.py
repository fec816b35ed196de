"""The admin: every match stored for good, its log read-only.

Matches are made and changed only by the services (`games.services`), so the admin
changes nothing of a game: only whether a match is listed in the lobby. Rounds,
seats, the append-only log (R27, R28) and undo points are read-only. A match's
replay, its export and the import check are the history wing's
(games/history/admin.py, which registers a subclass of `MatchAdmin` in its place).
Every list is filtered, searched and sorted only as games.admin.lookups allows: never
by a seed, a state, a deal or a link token.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib import admin
from django.db.models import Prefetch, Q, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import permissions
from games.admin.lookups import AllowListedLookups
from games.models import (
    ChangeRequest,
    ClientRequest,
    LogEntry,
    Match,
    Pause,
    Presence,
    Round,
    Seat,
    StandIn,
    Table,
    UndoPoint,
)
from games.permissions import Action as Can
from games.words import SEARCH_HELP


class ReadOnlyMixin:
    """Shown, never added, changed or deleted here: the services write these."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _number_terms(search_term: str) -> list[int]:
    """The whole numbers in a search (match ids, seeds)."""
    return [int(t) for t in search_term.split() if t.isdigit() and len(t) < 20]


# ------------------------------------------------------------------ inlines


class SeatNumber:
    """A seat as players see it: numbered from 1 (the admin counted from 0)."""

    @admin.display(description=gettext_lazy("seat"), ordering="index")
    def seat_number(self, seat: Seat) -> int:
        return seat.index + 1


def by_seat(values: Any, names: list[str]) -> str:
    """`[32, 53, 0]` as "1. ana: 32 · 2. Computer 2: 53 · …" (seats from 1, names isolated)."""
    if not values:
        return "—"
    return format_html_join(
        " · ",
        "{}. <bdi>{}</bdi>: {}",
        ((i + 1, names[i] if i < len(names) else "", v) for i, v in enumerate(values)),
    )


def seat_names(match: Match) -> list[str]:
    """The seats' names as players see them at the table, in seat order (prefetched)."""
    return [s.display_name or _("free") for s in sorted(match.seats.all(), key=lambda s: s.index)]


#: the rows of a match's seats or rounds, to read: nothing to add, so no "Add another" row
READ_ONLY_INLINE = "admin/games/read_only_inline.html"


class SeatInline(SeatNumber, ReadOnlyMixin, admin.TabularInline):
    model = Seat
    template = READ_ONLY_INLINE
    fields = ("seat_number", "kind", "user", "name", "level", "standin")
    readonly_fields = fields
    extra = 0
    show_change_link = True


class RoundScores:
    """A round's points and totals by name with seats from 1, its match's seats read with it
    (the match's inline of rounds and the round's own page)."""

    def get_queryset(self, request: HttpRequest) -> QuerySet[Round]:
        return (
            super()  # type: ignore[misc]  # a mixin before a ModelAdmin or an inline
            .get_queryset(request)
            .select_related("match")
            .prefetch_related(
                Prefetch("match__seats", queryset=Seat.objects.select_related("user"))
            )
        )

    @admin.display(description=gettext_lazy("penalty points"))
    def points_shown(self, rnd: Round) -> str:
        return by_seat(rnd.points, seat_names(rnd.match))

    @admin.display(description=gettext_lazy("totals after"))
    def totals_shown(self, rnd: Round) -> str:
        return by_seat(rnd.totals, seat_names(rnd.match))


class RoundInline(RoundScores, ReadOnlyMixin, admin.TabularInline):
    """A match's rounds, their points and totals by name with seats from 1."""

    model = Round
    template = READ_ONLY_INLINE
    fields = (
        "number",
        "ended_by",
        "points_shown",
        "totals_shown",
        "restarts",
        "started_at",
        "ended_at",
    )
    readonly_fields = fields
    extra = 0
    show_change_link = True


class LogEntryInline(ReadOnlyMixin, admin.TabularInline):
    model = LogEntry
    fields = ("seq", "kind", "seat", "action", "user", "by_computer", "version", "created_at")
    readonly_fields = fields
    extra = 0


# ------------------------------------------------------------------ matches


class SeatKindFilter(admin.SimpleListFilter):
    title = gettext_lazy("seats")
    parameter_name = "seat_kind"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [
            ("computer", gettext_lazy("with computer players")),
            ("local", gettext_lazy("with pass-and-play seats")),
            ("free", gettext_lazy("with a free seat")),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Match]) -> QuerySet[Match]:
        value = self.value()
        if value == "free":
            return queryset.filter(seats__kind=Seat.Kind.HUMAN, seats__user__isnull=True).distinct()
        if value in ("computer", "local"):
            return queryset.filter(seats__kind=value).distinct()
        return queryset


@admin.register(Match)
class MatchAdmin(AllowListedLookups, admin.ModelAdmin):
    list_display = (
        "id",
        "status",
        "players",
        "seat_names",
        "round_number",
        "length",
        "seed_shown",
        "listed",
        "creator",
        "updated_at",
    )
    list_display_links = ("id", "status")
    list_filter = ("status", "players", SeatKindFilter, "listed", "created_at")
    search_fields = ("created_by__username", "seats__user__username", "seats__name")
    search_help_text = SEARCH_HELP["match"]
    date_hierarchy = "created_at"
    list_select_related = ("created_by",)
    fields: ClassVar[tuple[str, ...]] = (
        "table",
        "number",
        "status",
        "listed",
        "players",
        "seed_shown",
        "seed_chosen",
        "pace",
        "hurry",
        "away_limit",
        "round_number",
        "length",
        "version",
        "created_by",
        "created_at",
        "updated_at",
        "finished_at",
        "share_links",
    )
    readonly_fields = tuple(f for f in fields if f != "listed")
    inlines = (SeatInline, RoundInline)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # A match whose creator chose the seed stays out of the lobby (services.match_create).
        if obj is not None and obj.seed_chosen:
            return (*self.readonly_fields, "listed")
        return self.readonly_fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Match]:
        return (
            super()
            .get_queryset(request)
            .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        )

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Match], search_term: str
    ) -> tuple[QuerySet[Match], bool]:
        found, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        numbers = _number_terms(search_term)
        if numbers:
            # by seed only once over: a live match's seed is its deals (permissions.seed_secret)
            found |= queryset.filter(
                Q(pk__in=numbers) | Q(seed__in=numbers, status=Match.Status.FINISHED)
            )
        return found, may_have_duplicates

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # matches are created in the lobby (services.match_create)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # every match is kept for good

    @admin.display(description=gettext_lazy("seats"))
    def seat_names(self, match: Match) -> str:
        # Each name isolated (<bdi>): a right-to-left name cannot reorder the list.
        return format_html_join(
            ", ",
            "<bdi>{}</bdi>",
            (
                (s.display_name or _("free"),)
                for s in sorted(match.seats.all(), key=lambda s: s.index)
            ),
        )

    @admin.display(description=gettext_lazy("seed"))  # not sortable: the order would tell the seed
    def seed_shown(self, match: Match) -> str:
        # Every deal of the match, so every live hand: hidden until the match is over.
        return (
            _("hidden until the match is over")
            if permissions.seed_secret(match)
            else str(match.seed)
        )

    @admin.display(description=gettext_lazy("created by"), ordering="created_by__username")
    def creator(self, match: Match) -> str:
        if match.created_by is None:  # a removed guest's match (accounts.guests.remove)
            return self.get_empty_value_display()
        return format_html("<bdi>{}</bdi>", match.created_by.get_username())

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = super().get_fields(request, obj)
        # The spectator link is a way to watch the table live: only for staff who may.
        if obj is None or not permissions.may(request.user, Can.WATCH, obj):
            fields = [f for f in fields if f != "share_links"]
        return fields

    @admin.display(description=gettext_lazy("links"))
    def share_links(self, match: Match) -> str:
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">{}</a>',
            reverse("games:join", args=[match.pk, match.invite_token]),
            _("Invitation link"),
            reverse("games:watch", args=[match.pk, match.watch_token]),
            _("Spectator link"),
        )


# ------------------------------------------------------------------ the rest, read-only


@admin.register(Table)
class TableAdmin(AllowListedLookups, ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "created_by", "created_at")
    search_fields = ("created_by__username",)
    list_select_related = ("created_by",)


@admin.register(Seat)
class SeatAdmin(SeatNumber, AllowListedLookups, ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("match", "seat_number", "kind", "user", "name", "level")
    exclude = ("index",)  # shown from 1 (seat_number), as players see it
    readonly_fields = ("seat_number",)
    list_filter = ("kind", "level")
    search_fields = ("name", "user__username")
    search_help_text = SEARCH_HELP["seat"]
    list_select_related = ("user",)

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Seat], search_term: str
    ) -> tuple[QuerySet[Seat], bool]:
        found, dup = super().get_search_results(request, queryset, search_term)
        numbers = _number_terms(search_term)
        return (found | queryset.filter(match_id__in=numbers) if numbers else found), dup


@admin.register(Round)
class RoundAdmin(AllowListedLookups, ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("match", "number", "ended_by", "restarts", "totals", "started_at", "ended_at")
    list_filter = ("ended_by", "number")
    search_help_text = SEARCH_HELP["round"]
    search_fields = ("match__seats__user__username",)
    exclude = ("start",)  # the deal: every hand; shown in the match's replay instead
    inlines = (LogEntryInline,)

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Round], search_term: str
    ) -> tuple[QuerySet[Round], bool]:
        found, dup = super().get_search_results(request, queryset, search_term)
        numbers = _number_terms(search_term)
        return (found | queryset.filter(match_id__in=numbers) if numbers else found), dup


@admin.register(LogEntry)
class LogEntryAdmin(AllowListedLookups, ReadOnlyMixin, admin.ModelAdmin):
    list_display = (
        "round",
        "seq",
        "kind",
        "seat",
        "action",
        "user",
        "by_computer",
        "version",
        "created_at",
    )
    list_filter = ("kind", "by_computer")
    search_fields = ("user__username",)
    search_help_text = SEARCH_HELP["log_entry"]
    list_select_related = ("round", "user")

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[LogEntry], search_term: str
    ) -> tuple[QuerySet[LogEntry], bool]:
        found, dup = super().get_search_results(request, queryset, search_term)
        numbers = _number_terms(search_term)
        return (found | queryset.filter(round__match_id__in=numbers) if numbers else found), dup


@admin.register(UndoPoint)
class UndoPointAdmin(AllowListedLookups, ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "round", "entry")
    exclude = ("state",)  # every hand before a human action
    list_select_related = ("round", "entry")


@admin.register(ClientRequest)
class ClientRequestAdmin(AllowListedLookups, ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("match", "request_id", "user", "version", "created_at")
    search_fields = ("request_id", "user__username")
    list_select_related = ("user",)


@admin.register(ChangeRequest)
class ChangeRequestAdmin(AllowListedLookups, ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("match", "change", "asked_by", "status", "created_at", "closed_at")
    list_filter = ("change", "status")
    list_select_related = ("asked_by",)


@admin.register(Pause)
class PauseAdmin(AllowListedLookups, ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("match", "user", "channel", "created_at")
    list_select_related = ("user",)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # A pause left behind by a lost connection may be cleared (computers then resume, R26).
        return permissions.may_clear_pauses(request.user)


@admin.register(StandIn)
class StandInAdmin(AllowListedLookups, ReadOnlyMixin, admin.ModelAdmin):
    """Who let a computer play whose seat, when, and when its owner took it back
    (games.attendance.standin)."""

    list_display = (
        "match",
        "seat",
        "level",
        "handed_by",
        "round_number",
        "started_at",
        "ended_at",
        "ended_by",
    )
    list_filter = ("level", "started_at")
    list_select_related = ("handed_by", "ended_by")
    search_fields = ("handed_by__username", "ended_by__username")


@admin.register(Presence)
class PresenceAdmin(AllowListedLookups, ReadOnlyMixin, admin.ModelAdmin):
    """Table connections of signed-in users (games.attendance.presence): open ones are renewed by their server."""

    list_display = ("match", "user", "opened_at", "alive_at", "closed")
    list_filter = ("closed",)
    list_select_related = ("user",)
    search_fields = ("user__username",)
