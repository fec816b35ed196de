"""Table talk in the admin: reports with the lines around them; hide a message,
block its sender from chat, or dismiss the report. Everything is read-only but for those
actions (games.chat.services: they are logged as `Action`s and pushed to the open tables)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.admin.lookups import AllowListedLookups
from games.chat import phrases, services, words
from games.chat.models import Action, Block, Message, Report

#: how many lines of the room before and after a reported one the admin shows
AROUND = 5


def _words(message: Message) -> str:
    """A message as staff read it: free text as written, a phrase in the admin's language."""
    if message.kind == Message.Kind.TEXT:
        return message.text
    return f"{phrases.words(message.code)} [{message.code}]"


def around(message: Message, count: int = AROUND) -> list[Message]:
    """The lines of the message's room just before it, it, and just after it (hidden ones too)."""
    room = Message.objects.filter(match_id=message.match_id, room=message.room).select_related(
        "author"
    )
    before = list(room.filter(id__lt=message.pk).order_by("-id")[:count])
    after = list(room.filter(id__gt=message.pk).order_by("id")[:count])
    return [*reversed(before), message, *after]


class ReadOnly(AllowListedLookups, admin.ModelAdmin):
    """Table talk's admins: read-only, and filtered, searched and sorted only on what they
    name (games.admin.lookups: no path to a match's secrets, such as ``?match__seed__lte=``)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [f.name for f in self.model._meta.fields] + list(self.readonly_fields)


def _hide(request: HttpRequest, messages_: QuerySet[Message] | list[Message]) -> None:
    count = services.hide(messages_, by=request.user)
    messages.success(
        request,
        words.admin_done("hidden", count),
    )


def _block(request: HttpRequest, user_ids: list[int]) -> None:
    count = services.block([uid for uid in user_ids if uid is not None], by=request.user)
    messages.success(
        request,
        words.admin_done("blocked", count),
    )


@admin.register(Report)
class ReportAdmin(ReadOnly):
    list_display = ("created_at", "said", "sender", "room", "match_link", "reporter", "handled")
    list_filter = ("handled",)
    readonly_fields = ("lines_around",)
    fields = ("lines_around", "message", "reporter", "created_at", "handled")
    actions = ("hide_messages", "block_senders", "dismiss")
    list_select_related = ("message", "message__author", "reporter")

    @admin.display(description=gettext_lazy("message"))
    def said(self, report: Report) -> str:
        return format_html("<bdi>{}</bdi>", _words(report.message))

    @admin.display(description=gettext_lazy("author"))
    def sender(self, report: Report) -> str:
        return format_html("<bdi>{}</bdi>", report.message.name)

    @admin.display(description=gettext_lazy("room"))
    def room(self, report: Report) -> str:
        return report.message.get_room_display()

    @admin.display(description=gettext_lazy("match"))
    def match_link(self, report: Report) -> str:
        return str(report.message.match_id)

    @admin.display(description=gettext_lazy("The lines around it"))
    def lines_around(self, report: Report) -> str:
        rows = around(report.message)

        def line(m: Message) -> str:
            text = format_html(
                "<time>{}</time> <bdi><b>{}</b></bdi>: <bdi>{}</bdi>{}",
                m.created_at.strftime("%Y-%m-%d %H:%M:%S"),
                m.name,
                _words(m),
                format_html(" <em>({})</em>", _("hidden")) if m.hidden else "",
            )
            # The reported line stands out by its elements, not a style attribute (the
            # Content-Security-Policy allows no inline style).
            if m.pk == report.message_id:
                text = format_html("<mark><strong>{}</strong></mark>", text)
            return format_html("<li>{}</li>", text)

        return format_html(
            '<ol class="chat-around">{}</ol>',
            format_html_join("", "{}", ((line(m),) for m in rows)),
        )

    @admin.action(description=gettext_lazy("Hide the reported messages"), permissions=["change"])
    def hide_messages(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        _hide(request, [r.message for r in queryset.select_related("message")])

    @admin.action(description=gettext_lazy("Block their senders from chat"), permissions=["change"])
    def block_senders(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        _block(request, list(queryset.values_list("message__author_id", flat=True)))

    @admin.action(
        description=gettext_lazy("Dismiss the reports (nothing wrong)"), permissions=["change"]
    )
    def dismiss(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        count = queryset.update(handled=True)
        messages.success(
            request,
            words.admin_done("dismissed", count),
        )


@admin.register(Message)
class MessageAdmin(ReadOnly):
    list_display = ("created_at", "match_id", "room", "shown_name", "said", "kind", "hidden")
    list_filter = ("room", "kind", "hidden")
    search_fields = ("text", "name")
    actions = ("hide_messages", "block_authors")

    @admin.display(description=gettext_lazy("name"))
    def shown_name(self, message: Message) -> str:
        return format_html("<bdi>{}</bdi>", message.name)

    @admin.display(description=gettext_lazy("text"))
    def said(self, message: Message) -> str:
        return format_html("<bdi>{}</bdi>", _words(message))

    @admin.action(description=gettext_lazy("Hide these messages"), permissions=["change"])
    def hide_messages(self, request: HttpRequest, queryset: QuerySet[Message]) -> None:
        _hide(request, list(queryset))

    @admin.action(description=gettext_lazy("Block their authors from chat"), permissions=["change"])
    def block_authors(self, request: HttpRequest, queryset: QuerySet[Message]) -> None:
        _block(request, list(queryset.values_list("author_id", flat=True)))


@admin.register(Block)
class BlockAdmin(ReadOnly):
    list_display = ("user", "by", "created_at")
    actions = ("unblock",)

    @admin.action(description=gettext_lazy("Let them write in chats again"), permissions=["change"])
    def unblock(self, request: HttpRequest, queryset: QuerySet[Block]) -> None:
        count = services.unblock(list(queryset.values_list("user_id", flat=True)), by=request.user)
        messages.success(
            request,
            words.admin_done("unblocked", count),
        )


@admin.register(Action)
class ActionAdmin(ReadOnly):
    list_display = ("created_at", "kind", "actor", "target", "match", "message")
    list_filter = ("kind",)
