from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HistoryConfig(AppConfig):
    """games/history as its own app: its models (stats, ratings, e-mail settings), migrations
    and template tags live with the wing, and games/ never imports it."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.history"
    label = "history"
    verbose_name = _("History and stats")
