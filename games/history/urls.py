"""Routes of the history wing (included at the site root by tablesite/urls.py)."""

from django.urls import path

from games.history import mail_views, players, views

app_name = "history"

urlpatterns = [
    path("m/<int:match_id>/replay/", views.replay, name="replay"),
    path("m/<int:match_id>/replay/step/", views.replay_step, name="replay_step"),
    path("m/<int:match_id>/replay/review/", views.replay_review, name="replay_review"),
    path("account/turn-mail/", mail_views.turn_mail, name="turn_mail"),
    path("mail/unsubscribe/<str:token>/", mail_views.unsubscribe, name="unsubscribe"),
    path("players/", players.players, name="leaderboard"),
    path("players/<str:username>/", players.player, name="player"),
]
