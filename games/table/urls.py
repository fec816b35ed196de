"""HTTP routes of the live table and the rules (games/table/views.py), in the ``games``
namespace beside games/urls.py's (tablesite/urls.py puts the two together)."""

from django.urls import path

from games.table import views as table_views

urlpatterns = [
    path("m/<int:match_id>/", table_views.table, name="table"),
    path("m/<int:match_id>/log/", table_views.table_log, name="table_log"),
    path("rules/", table_views.rules, name="rules"),
    path("rules/panel/", table_views.rules_panel, name="rules_panel"),
]
