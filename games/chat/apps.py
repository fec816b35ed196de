from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChatConfig(AppConfig):
    """games/chat as its own app: its models, migrations and admin live with the wing."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.chat"
    label = "chat"
    verbose_name = _("Table talk")
