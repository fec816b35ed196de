from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import cache_control

from games.lobby.quick import home_context

#: the icon browsers ask for at /favicon.ico (static/img/favicon.ico: the same tile as favicon.svg)
FAVICON = Path(settings.BASE_DIR) / "static" / "img" / "favicon.ico"


def home(request: HttpRequest) -> HttpResponse:
    # Right after sign-up the greeting is "Welcome", not "Welcome back" (accounts.views).
    new_account = (
        bool(request.session.pop("new_account", False)) if request.user.is_authenticated else False
    )
    return render(request, "home.html", {**home_context(), "new_account": new_account})


@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers and tools ask for whatever the page's <link rel="icon"> says."""
    return HttpResponse(FAVICON.read_bytes(), content_type="image/x-icon")
