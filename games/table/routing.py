"""Websocket routes, mounted by tablesite/asgi.py behind origin and session checks."""

from django.urls import path

from games.table.consumers import TableConsumer

websocket_urlpatterns = [
    # The live table of a match (games/consumers.py); spectators add ?watch=<token>.
    path("ws/m/<int:match_id>/", TableConsumer.as_asgi()),
]
