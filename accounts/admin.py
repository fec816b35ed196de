"""Guests and table preferences in the admin (read-mostly: the site and remove_guests manage them),
and Django's user admin with the site's allow-listed lookups (games.admin.lookups: no
filtering by password hashes)."""

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from accounts.models import EmailAddress, Guest, Preferences
from games.admin.lookups import AllowListedLookups


@admin.register(Guest)
class GuestAdmin(AllowListedLookups, admin.ModelAdmin):
    list_display = ("user", "created_at", "last_seen")
    list_select_related = ("user",)
    search_fields = ("user__username",)
    readonly_fields = ("user", "created_at")


@admin.register(Preferences)
class PreferencesAdmin(AllowListedLookups, admin.ModelAdmin):
    list_display = ("user", "tips_off")
    list_select_related = ("user",)
    search_fields = ("user__username",)


@admin.register(EmailAddress)
class EmailAddressAdmin(AllowListedLookups, admin.ModelAdmin):
    """Accounts' e-mail addresses: confirmed only by their owners' links (accounts.emails)."""

    list_display = ("user", "address", "verified_at", "changed_at")
    list_select_related = ("user",)
    search_fields = ("user__username", "address")
    readonly_fields = ("user", "address", "changed_at", "verified_at", "sent_at", "failed_at")

    def has_add_permission(self, request: Any) -> bool:
        return False


User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)


@admin.register(User)
class SiteUserAdmin(AllowListedLookups, UserAdmin):
    """Django's user admin, filtered only by its list filters (not ``?password__startswith=…``)."""
