from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChatConfig(AppConfig):
    """games/chat as its own app: its models, migrations and admin live with the wing. When the
    site starts (every process) it registers what it adds to the table's websocket: its
    commands (games.chat.commands, in games/commands/'s registry) and what each connection
    keeps for them (games.chat.live, an extension of games/commands/extensions.py)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.chat"
    label = "chat"
    verbose_name = _("Table talk")

    def ready(self) -> None:
        from games.chat import commands, live  # noqa: F401  (each registers itself)
