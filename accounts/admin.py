"""Guests and table preferences in the admin (read-mostly: the site and remove_guests manage them)."""

from typing import Any

from django.contrib import admin

from accounts.models import EmailAddress, Guest, Preferences


@admin.register(Guest)
class GuestAdmin(admin.ModelAdmin):
    list_display = ("user", "created_at", "last_seen")
    list_select_related = ("user",)
    search_fields = ("user__username",)
    readonly_fields = ("user", "created_at")


@admin.register(Preferences)
class PreferencesAdmin(admin.ModelAdmin):
    list_display = ("user", "tips_off")
    list_select_related = ("user",)
    search_fields = ("user__username",)


@admin.register(EmailAddress)
class EmailAddressAdmin(admin.ModelAdmin):
    """Accounts' e-mail addresses: confirmed only by their owners' links (accounts.emails)."""

    list_display = ("user", "address", "verified_at", "changed_at")
    list_select_related = ("user",)
    search_fields = ("user__username", "address")
    readonly_fields = ("user", "address", "changed_at", "verified_at", "sent_at")

    def has_add_permission(self, request: Any) -> bool:
        return False
