"""The turn e-mail setting (opt-in, minutes away) and the unsubscribe link of every such e-mail."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from accounts import emails
from accounts.http import AuthenticatedHttpRequest
from games.history import words
from games.history.models import TurnMail

MINUTES = [
    (15, gettext_lazy("15 minutes")),
    (30, gettext_lazy("30 minutes")),
    (60, gettext_lazy("1 hour")),
    (180, gettext_lazy("3 hours")),
    (720, gettext_lazy("12 hours")),
    (1440, gettext_lazy("1 day")),
]


class TurnMailForm(forms.ModelForm):
    after_minutes = forms.TypedChoiceField(
        choices=MINUTES, coerce=int, label=gettext_lazy("after I have been away for")
    )

    class Meta:
        model = TurnMail
        fields = ("enabled", "after_minutes")


@login_required
@require_http_methods(["GET", "POST"])
def turn_mail(request: AuthenticatedHttpRequest) -> HttpResponse:
    setting, _created = TurnMail.objects.get_or_create(user=request.user)
    form = TurnMailForm(request.POST or None, instance=setting)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, words.saved())
        return redirect("history:turn_mail")
    row = emails.row_of(request.user)
    return render(
        request,
        "history/turn_mail.html",
        {
            "form": form,
            "address": row.address if row else "",
            "verified": emails.verified_address(request.user),
        },
    )


@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """The link in each turn e-mail: a page with one button (a GET changes nothing, so mail
    scanners following links do not unsubscribe anyone)."""
    setting = get_object_or_404(TurnMail, token=token)
    done = False
    if request.method == "POST":
        TurnMail.objects.filter(pk=setting.pk).update(enabled=False)
        done = True
    return render(
        request, "history/unsubscribe.html", {"done": done, "enabled": setting.enabled and not done}
    )
