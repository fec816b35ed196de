"""HTTP routes of the games app (included at the site root by tablesite/urls.py)."""

from django.urls import path

from games import learn, quick, views
from games.table import views as table_views

app_name = "games"

urlpatterns = [
    # Lobby and my matches (games/views.py)
    path("matches/", views.my_matches, name="my_matches"),
    path("lobby/", views.lobby, name="lobby"),
    path("lobby/new/", views.match_create, name="create"),
    # One click from the front page (games/quick.py) and learning the game (games/learn.py)
    path("play/computers/", quick.play_computers, name="play_computers"),
    path("play/friends/", quick.play_friends, name="play_friends"),
    path("how-to-play/", learn.how_to_play, name="how_to_play"),
    # A match: its summary and links, joining a free seat, watching
    path("m/<int:match_id>/about/", views.match_detail, name="detail"),
    path("m/<int:match_id>/about/seats/", views.match_seats, name="seats"),
    path("m/<int:match_id>/join/<str:token>/", views.join, name="join"),
    path("m/<int:match_id>/watch/<str:token>/", views.watch, name="watch"),
]

# The table and the rules (games/table_views.py)
urlpatterns += [
    path("m/<int:match_id>/", table_views.table, name="table"),
    path("m/<int:match_id>/log/", table_views.table_log, name="table_log"),
    path("rules/", table_views.rules, name="rules"),
    path("rules/panel/", table_views.rules_panel, name="rules_panel"),
]
