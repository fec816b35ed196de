"""Guests and table preferences in the admin (read-mostly: the site and remove_guests manage them)."""

from django.contrib import admin

from accounts.models import Guest, Preferences


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
