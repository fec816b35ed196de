"""The admin's match page with the players' replay viewer, the seed, the export and an import check.

The stock match admin (games/admin.py: the match read-only) is replaced here by a
subclass that adds the replay and export pages, so the root never imports this wing:
the replay is the viewer of `games.history.views`
(ended rounds only, every hand face up, the log with seats numbered from 1 as
players see them), and a live round's hands are shown to nobody, staff included
(R24). The export downloads the replay file (`../shared/spec/replay-format.md`)
under a name that says what it is; the import check replays an uploaded file and
reports the first action where it parts from the stored match
(`games.history.checks`). Rounds' logs read with 1-based seats too.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.http import content_disposition_header, urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from engine.deal import engine_value
from engine.replay import BadReplay
from games import permissions
from games.admin import LogEntryInline, MatchAdmin, RoundAdmin, RoundScores
from games.history import checks
from games.history.replays import NotReplayable, parse_position, round_replay
from games.history.views import position_url, viewer_context
from games.history.words import ADMIN_SEARCH, admin_says
from games.log.words import describe_entry
from games.models import LogEntry, Match, Round, Seat
from games.permissions import Action as Can
from games.reads import selectors
from games.reads.queries import replay_differences, replay_json
from games.words import seat_label


def export_filename(match: Match) -> str:
    """`mexican-train-match-12-seed-4242.json` (in the admin's language): what the file is,
    without opening it. The name every export link gives the file (its ``download``) and
    the name the export serves it under (`export_view`), so they cannot differ."""
    # Translators: a file's name after the game's "mexican-train-": lower case, hyphens, no spaces.
    words = pgettext("file name", "match-%(id)s-seed-%(seed)s") % {
        "id": match.pk,
        "seed": match.seed,
    }
    return f"mexican-train-{words}.json"


def _exportable_name(request: HttpRequest, match: Match) -> str:
    """The export's file name if this staff member may export `match` now, else ""."""
    return export_filename(match) if permissions.may(request.user, Can.EXPORT, match) else ""


class HasComputerFilter(admin.SimpleListFilter):
    title = gettext_lazy("computer players")
    parameter_name = "computers"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("yes", gettext_lazy("with computers")), ("no", gettext_lazy("people only"))]

    def queryset(self, request: HttpRequest, queryset: Any) -> Any:
        with_computer = Seat.objects.filter(kind=Seat.Kind.COMPUTER).values("match_id")
        if self.value() == "yes":
            return queryset.filter(pk__in=with_computer)
        if self.value() == "no":
            return queryset.exclude(pk__in=with_computer)
        return queryset


class HistoryMatchAdmin(MatchAdmin):
    list_filter: ClassVar[tuple[Any, ...]] = (
        "status",
        "players",
        HasComputerFilter,
        *MatchAdmin.list_filter[2:],
        "finished_at",
    )
    search_help_text = ADMIN_SEARCH
    fields: ClassVar[tuple[str, ...]] = (*MatchAdmin.fields, "replay_links")
    readonly_fields = (*MatchAdmin.readonly_fields, "replay_links")

    def get_urls(self) -> list[Any]:
        info = self.opts.app_label, self.opts.model_name
        return [
            path(
                "<path:object_id>/replay/",
                self.admin_site.admin_view(self.replay_view),
                name=f"{info[0]}_{info[1]}_replay",
            ),
            path(
                "<path:object_id>/export/",
                self.admin_site.admin_view(self.export_view),
                name=f"{info[0]}_{info[1]}_export",
            ),
            *super().get_urls(),
        ]

    def _viewable(self, request: HttpRequest, object_id: str, *, export: bool = False) -> Match:
        """The match, if this staff member may look back at its ended rounds (games.permissions:
        look back) or, with `export`, export it (only once it is over: the file holds the seed)."""
        match = self.get_object(request, unquote(object_id))
        if match is None:
            raise Http404(admin_says("no_match", id=object_id))
        if not self.has_view_permission(request, match) or not permissions.may(
            request.user, Can.EXPORT if export else Can.LOOK_BACK, match
        ):
            raise PermissionDenied
        return match

    @admin.display(description=gettext_lazy("replay"))
    def replay_links(self, match: Match) -> str:
        if permissions.seed_secret(match):  # the export holds the seed: only once the match is over
            return format_html(
                '<a href="{}">{}</a>',
                reverse("admin:games_match_replay", args=[match.pk]),
                _("Replay and check"),
            )
        return format_html(
            '<a href="{}">{}</a> · <a href="{}" download="{}">{}</a>',
            reverse("admin:games_match_replay", args=[match.pk]),
            _("Replay and check"),
            reverse("admin:games_match_export", args=[match.pk]),
            export_filename(match),
            _("Export replay"),
        )

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Match | None = None,
    ) -> HttpResponse:
        # The match page's export link (templates/admin/games/match/change_form.html).
        context["export_name"] = _exportable_name(request, obj) if obj is not None else ""
        return super().render_change_form(
            request, context, add=add, change=change, form_url=form_url, obj=obj
        )

    def replay_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The players' viewer (?round=R&step=K), the seed, the export and the import check."""
        match = self._viewable(request, object_id)
        match = (
            Match.objects.prefetch_related("seats__user")
            .select_related("created_by")
            .get(pk=match.pk)
        )
        context: dict[str, Any] = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "original": match,
            "title": _("Replay of match %(id)s") % {"id": match.pk},
            # The seed (and the export, which holds it) is every deal: hidden while the match is live.
            "seed_shown": permissions.may(request.user, Can.SEE_SEED, match),
            "export_name": _exportable_name(request, match),
            # The export replayed must be the stored snapshot (what `manage.py replay_check` says).
            "differences": replay_differences(match),
        }
        if request.method == "POST":
            context["check"] = self._check(request, match)
        number, k = parse_position(request.GET.get("round"), request.GET.get("step"))
        try:
            context.update(viewer_context(round_replay(match, number), k))
        except NotReplayable:
            context["nothing"] = True
        return TemplateResponse(request, "admin/history/match_replay.html", context)

    def _check(self, request: HttpRequest, match: Match) -> dict[str, Any]:
        upload = request.FILES.get("replay")
        if upload is None:
            return {"error": admin_says("no_file")}
        if upload.size is not None and upload.size > checks.MAX_BYTES:
            return {"error": admin_says("file_too_large")}
        try:
            doc = checks.read_upload(upload.read(checks.MAX_BYTES + 1))
        except BadReplay as e:
            return {"error": _("That file is not a replay: %(reason)s") % {"reason": e}}
        doc, held = checks.from_bulk(doc, match.pk)  # "Export selected" writes several in a list
        if doc is None:
            return {
                "error": admin_says(
                    "other_matches", ids=", ".join(map(str, held)) or "—", id=match.pk
                )
            }
        result = checks.first_divergence(selectors.match_replay_doc(match), doc)
        out: dict[str, Any] = {"result": result, "name": upload.name}
        if (
            result.round is not None
            and result.step is not None
            and Round.objects.filter(match=match, number=result.round).exclude(ended_by="").exists()
        ):
            out["url"] = position_url(match.pk, result.round, result.step)
        return out

    def export_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        match = self._viewable(request, object_id, export=True)
        response = HttpResponse(
            replay_json(selectors.match_replay_doc(match)),
            content_type="application/json; charset=utf-8",
        )
        response["Content-Disposition"] = content_disposition_header(True, export_filename(match))  # type: ignore[assignment]  # never None for an attachment
        return response

    actions = ("export_selected", "check_selected")

    @admin.action(
        description=gettext_lazy("Check that the selected matches' replays reproduce them")
    )
    def check_selected(self, request: HttpRequest, queryset: Any) -> None:
        for match in queryset.order_by("pk")[:200]:
            differences = replay_differences(match)
            if differences is None:
                messages.info(request, admin_says("not_started", id=match.pk))
            elif differences:
                messages.error(
                    request,
                    admin_says("differs", id=match.pk, first=differences[0]),
                )
            else:
                messages.success(request, admin_says("reproduces", id=match.pk))

    @admin.action(description=gettext_lazy("Export the selected matches' replays (one JSON list)"))
    def export_selected(self, request: HttpRequest, queryset: Any) -> HttpResponse | None:
        """One JSON list of the chosen finished matches' replay files, each with its "match" id
        (the match page's "Check a replay file" takes the list and checks its own). Matches still
        being played are left out, with a message; with none left, no file at all."""
        chosen = list(queryset.order_by("pk")[:200])
        live = [m.pk for m in chosen if not permissions.may(request.user, Can.EXPORT, m)]
        if live and len(live) == len(chosen):
            messages.error(
                request,
                admin_says("nothing_exported", ids=", ".join(map(str, live))),
            )
            return None
        if live:
            messages.warning(
                request,
                admin_says("live_not_exported", ids=", ".join(map(str, live))),
            )
        docs = [
            {"match": m.pk, **selectors.match_replay_doc(m)} for m in chosen if m.pk not in live
        ]
        if queryset.count() > 200:
            messages.warning(request, admin_says("first_200"))
        response = HttpResponse(
            json.dumps(docs, indent=2, ensure_ascii=False) + "\n",
            content_type="application/json; charset=utf-8",
        )
        # Translators: a file's name after the game's "mexican-train-": lower case, hyphens, no spaces.
        words = pgettext("file name", "replays")
        response["Content-Disposition"] = content_disposition_header(  # type: ignore[assignment]  # never None for an attachment
            True, f"mexican-train-{words}.json"
        )
        return response


class NumberedLogInline(LogEntryInline):
    """A round's log with seats numbered as players see them (from 1) and in words (no raw
    stored action: templates/admin/history/round_log_inline.html)."""

    template = "admin/history/round_log_inline.html"
    fields = ("seq", "kind", "seat_number", "words", "user", "by_computer", "version", "created_at")
    readonly_fields = fields

    @admin.display(description=gettext_lazy("seat"))
    def seat_number(self, entry: LogEntry) -> str:
        return str(entry.seat + 1) if entry.seat is not None else "—"

    @admin.display(description=gettext_lazy("what happened"))
    def words(self, entry: LogEntry) -> str:
        names = self._names.get(entry.round_id)
        if names is None:
            names = self._names[entry.round_id] = self._seat_names(entry)
        actor = entry.user.get_username() if entry.user is not None else ""
        engine = None
        if entry.kind == "action":
            length = self._lengths.get(entry.round_id)
            if length is None:  # R31: the match's length sets the round's engine double
                length = self._lengths[entry.round_id] = Match.objects.values_list(
                    "length", flat=True
                ).get(pk=entry.round.match_id)
            engine = engine_value(entry.round.number, length)
        return describe_entry(entry.kind, entry.action, names, None, actor=actor, engine=engine)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._names: dict[int, list[str]] = {}
        self._lengths: dict[int, int] = {}

    @staticmethod
    def _seat_names(entry: LogEntry) -> list[str]:
        seats = (
            Seat.objects.filter(match_id=entry.round.match_id)
            .select_related("user")
            .order_by("index")
        )
        return [seat_label(s.display_name, s.index) for s in seats]


class HistoryRoundAdmin(RoundScores, RoundAdmin):
    """A round in words: its match, who scored what by name with seats from 1, and a link to
    its replay (once the round has ended, R24); the log below in words too."""

    inlines = (NumberedLogInline,)
    list_display = (
        "match",
        "number",
        "ended_by",
        "restarts",
        "totals_shown",
        "started_at",
        "ended_at",
    )
    fields = (
        "match",
        "number",
        "ended_by",
        "points_shown",
        "totals_shown",
        "restarts",
        "started_at",
        "ended_at",
        "replay_link",
    )
    readonly_fields = fields

    @admin.display(description=gettext_lazy("replay"))
    def replay_link(self, rnd: Round) -> str:
        if not rnd.ended_by:
            return admin_says("round_in_play")
        url = (
            reverse("admin:games_match_replay", args=[rnd.match_id])
            + "?"
            + urlencode({"round": rnd.number})
        )
        return format_html(
            '<a href="{}">{}</a>', url, _("Replay round %(number)s") % {"number": rnd.number}
        )


admin.site.unregister(Match)
admin.site.register(Match, HistoryMatchAdmin)
admin.site.unregister(Round)
admin.site.register(Round, HistoryRoundAdmin)
