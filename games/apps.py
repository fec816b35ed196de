from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = _("Matches")

    def ready(self) -> None:
        """Wake this process's computer players on each committed change (games.signals:
        games.notify announces, the worker listens, so notify never imports the worker);
        the admin's allow-listed lookups on every list (games.admin.lookups)."""
        from django.contrib import admin

        from games import signals, worker
        from games.admin.lookups import allow_list_every_admin

        signals.match_moved.connect(worker.on_match_moved, dispatch_uid="games-worker-poke")
        # Every admin list refuses lookups it does not offer (the admins of all apps are
        # registered by now: django.contrib.admin comes first in INSTALLED_APPS).
        allow_list_every_admin(admin.site)
