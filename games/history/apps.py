from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HistoryConfig(AppConfig):
    """games/history as its own app: its models (stats, ratings, e-mail settings), migrations
    and template tags live with the wing, and games/ never imports it."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.history"
    label = "history"
    verbose_name = _("History and stats")

    def ready(self) -> None:
        """Listen to the domain's announcements (games.signals): a finished match is
        counted in the transaction that ends it; each computer-worker pass sends the due
        turn e-mails and has the expert look back at the rounds that ended."""
        from games import signals
        from games.history import mail, reviews, stats

        signals.match_finished.connect(stats.on_match_finished, dispatch_uid="history-stats")
        signals.worker_pass.connect(mail.on_worker_pass, dispatch_uid="history-turn-mail")
        signals.worker_pass.connect(reviews.on_worker_pass, dispatch_uid="history-reviews")
