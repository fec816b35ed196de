from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.quick import home_context


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", home_context())
