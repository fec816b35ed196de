"""HTTP routes of the games app's root (included at the site root by tablesite/urls.py, in
the ``games`` namespace with the table wing's routes, games/table/urls.py: the root never
imports a wing)."""

from django.urls import path

from games.lobby import learn, quick, views

app_name = "games"

urlpatterns = [
    # Lobby and my matches (games/lobby/views.py)
    path("matches/", views.my_matches, name="my_matches"),
    path("lobby/", views.lobby, name="lobby"),
    path("lobby/new/", views.match_create, name="create"),
    # One click from the front page (games/lobby/quick.py), learning the game (games/lobby/learn.py)
    path("play/computers/", quick.play_computers, name="play_computers"),
    path("play/friends/", quick.play_friends, name="play_friends"),
    path("how-to-play/", learn.how_to_play, name="how_to_play"),
    # A match: its summary and links, joining a free seat, watching
    path("m/<int:match_id>/about/", views.match_detail, name="detail"),
    path("m/<int:match_id>/about/seats/", views.match_seats, name="seats"),
    path("m/<int:match_id>/join/<str:token>/", views.join, name="join"),
    path("m/<int:match_id>/watch/<str:token>/", views.watch, name="watch"),
]
