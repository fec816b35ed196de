"""The account's e-mail page (add, change, remove, send the link again) and the confirmation
link's page. Thin views over `accounts.emails`; the words are accounts/words.py's."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language, gettext_lazy
from django.views.decorators.http import require_http_methods

from accounts import emails, guests, words
from accounts.http import AuthenticatedHttpRequest


class EmailForm(forms.Form):
    email = forms.EmailField(
        label=gettext_lazy("E-mail address"),
        required=False,
        max_length=254,
        help_text=words.EMAIL_HELP,
    )


@login_required
@require_http_methods(["GET", "POST"])
def email(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Add, change or remove the account's address; a new one gets a confirmation link."""
    if guests.is_guest(request.user):
        messages.info(request, words.sentence("email_keep_first"))
        return redirect("guest_keep")
    row = emails.row_of(request.user)
    form = EmailForm(
        request.POST if request.POST.get("action") == "save" else None,
        initial={"email": row.address if row else ""},
    )
    if request.method == "POST" and request.POST.get("action") == "resend":
        if row is not None and not row.verified:
            delivery = emails.send_confirmation(row, language=get_language(), request=request)
            level, text, tags = words.link_message(delivery, row, again=True)
            messages.add_message(request, level, text, extra_tags=tags)
        return redirect("email")
    if request.method == "POST" and form.is_valid():
        new, sent = emails.save_address(
            request.user, form.cleaned_data["email"], language=get_language(), request=request
        )
        if new is None:
            messages.success(request, words.sentence("email_removed"))
        elif sent is not None:
            level, text, tags = words.link_message(sent, new)
            messages.add_message(request, level, text, extra_tags=tags)
        return redirect("email")
    return render(
        request, "accounts/email.html", {"form": form, "row": row, "days": emails.confirm_days()}
    )


@login_required
@require_http_methods(["GET", "POST"])
def confirm(request: AuthenticatedHttpRequest, token: str) -> HttpResponse:
    """The link in the e-mail: a page with one button (a GET changes nothing, so mail
    scanners that follow links confirm nothing)."""
    if request.method == "POST":
        outcome = emails.confirm(request.user, token)
        text = words.email_outcome(outcome, emails.confirm_days())
        if outcome in (emails.Outcome.VERIFIED, emails.Outcome.ALREADY):
            messages.success(request, text)
            return redirect("email")
        return render(request, "accounts/email_confirm.html", {"refusal": text}, status=400)
    refusal, row = emails.check(request.user, token)
    return render(
        request,
        "accounts/email_confirm.html",
        {
            "refusal": words.email_outcome(refusal, emails.confirm_days()) if refusal else "",
            "row": row,
            "already": refusal == emails.Outcome.ALREADY,
        },
        status=200 if row is not None else 400,
    )
