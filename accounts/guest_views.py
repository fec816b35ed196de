"""A guest keeps its matches by choosing a name and a password; table preferences (tips).

Thin views over `accounts.guests` and `accounts.models.Preferences`."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import BaseUserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from accounts import guests, names
from accounts.http import AuthenticatedHttpRequest
from accounts.models import Preferences
from accounts.words import sentence


class KeepForm(BaseUserCreationForm):
    """The guest's new name and password (the same User, so every match stays theirs)."""

    class Meta(BaseUserCreationForm.Meta):  # type: ignore[name-defined]  # Django's, not in django-stubs
        model = User
        fields = ("username",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        names.limit_username_field(self.fields["username"])

    def clean_username(self) -> str:
        username = self.cleaned_data.get("username") or ""
        if User.objects.filter(username__iexact=username).exclude(pk=self.instance.pk).exists():
            raise ValidationError(sentence("name_taken"), code="unique")
        # The site's rules for names (accounts/names.py), as at sign-up: one script, no
        # control or invisible characters, not confusable with another player's name.
        return (
            names.validate_new_username(username, exclude_pk=self.instance.pk)
            if username
            else username
        )


@login_required
@require_http_methods(["GET", "POST"])
def keep(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Turn the signed-in guest into a full account."""
    if not guests.is_guest(request.user):
        return redirect("home")
    # A copy of the user: a refused name must not show as the signed-in name on the page
    # (a ModelForm writes the submitted values into its instance while it validates).
    form = KeepForm(
        request.POST or None,
        instance=User.objects.get(pk=request.user.pk),
        initial={"username": request.user.get_username()},
    )
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            user = form.save()
            guests.convert(user)
        update_session_auth_hash(request, user)
        messages.success(request, sentence("guest_kept", username=user.get_username()))
        return redirect("games:my_matches")
    return render(request, "accounts/keep.html", {"form": form})


@login_required
@require_POST
def tips(request: HttpRequest) -> HttpResponse:
    """Dismiss one tip (`tip=<id>`) or all of them for good (`off=1`)."""
    from games.lobby.learn import TIP_IDS

    tip, off = request.POST.get("tip", ""), request.POST.get("off", "") == "1"
    if not off and tip not in TIP_IDS:
        return HttpResponseBadRequest(sentence("unknown_tip"))
    with transaction.atomic():
        prefs, _created = Preferences.objects.select_for_update().get_or_create(user=request.user)
        changed: list[Any] = []
        if off and not prefs.tips_off:
            prefs.tips_off = True
            changed.append("tips_off")
        if tip in TIP_IDS and tip not in prefs.tips_seen:
            prefs.tips_seen = [*prefs.tips_seen, tip]
            changed.append("tips_seen")
        if changed:
            prefs.save(update_fields=changed)
    return HttpResponse(status=204)
