"""The Django project: settings from the environment, URL and ASGI routing."""
