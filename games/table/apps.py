from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TableConfig(AppConfig):
    """games/table as an app of its own: when the site starts (every process: the servers, the
    computers' worker, a management command) its command modules are imported, so that its
    commands (games.commands) and the changes they ask of the others (games.consent) are
    registered before anyone reads them."""

    name = "games.table"
    label = "table"
    verbose_name = _("Table")

    def ready(self) -> None:
        from games.table import commands  # noqa: F401  (each command module registers itself)
