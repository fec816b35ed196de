from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = _("Matches")

    def ready(self) -> None:
        """Wake this process's computer players on each committed change (games.signals:
        games.notify announces, the worker listens, so notify never imports the worker)."""
        from games import signals, worker

        signals.match_moved.connect(worker.on_match_moved, dispatch_uid="games-worker-poke")
