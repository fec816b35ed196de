"""Routes of the history wing (included at the site root by tablesite/urls.py)."""

from django.urls import path

from games.history import views

app_name = "history"

urlpatterns = [
    path("m/<int:match_id>/replay/", views.replay, name="replay"),
    path("m/<int:match_id>/replay/step/", views.replay_step, name="replay_step"),
]
