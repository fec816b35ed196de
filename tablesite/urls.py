"""Site URLs. Game pages (matches, lobby, rules, table) come from games/urls.py."""

from django.contrib import admin
from django.urls import include, path

from tablesite import views

urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language (POST)
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
    path("", include("games.history.urls")),
]
