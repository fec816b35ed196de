"""Site URLs. Game pages (matches, lobby) come from games/urls.py, the table and the rules
from games/table/urls.py, both in the ``games`` namespace; looking back from
games/history/urls.py."""

from django.contrib import admin
from django.urls import include, path

from games import urls as games_urls
from games.table import urls as table_urls
from tablesite import views

urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language (POST)
    path("admin/", admin.site.urls),
    path("", include(([*games_urls.urlpatterns, *table_urls.urlpatterns], games_urls.app_name))),
    path("", include("games.history.urls")),
]
