"""HTTP routes of the games app (included at the site root by tablesite/urls.py)."""

app_name = "games"

urlpatterns: list = []
