"""Websocket routes, mounted by tablesite/asgi.py behind origin and session checks."""

websocket_urlpatterns: list = []
