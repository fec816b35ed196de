"""Account pages. Django's auth views do the work; these add sign-up, friendly
messages and the site's templates."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import redirect
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language, gettext_lazy
from django.views.generic import CreateView

from accounts import emails, guests, names, signup, throttle
from accounts import words as account_words
from accounts.models import Attempt
from accounts.words import sentence


def _safe_next(request: HttpRequest) -> str | None:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


class SignUpForm(UserCreationForm):
    """Django's sign-up form, with the site's rules for names (accounts/names.py) and an
    optional e-mail address (confirmed by a link, accounts/emails.py)."""

    email = forms.EmailField(
        label=gettext_lazy("E-mail address (optional)"),
        required=False,
        max_length=254,
        help_text=account_words.SIGNUP_EMAIL_HELP,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        names.limit_username_field(self.fields["username"])

    def clean_username(self) -> str:
        username = super().clean_username()
        return names.validate_new_username(username) if username else username


class SignUpView(CreateView):
    """Create an account and sign in with it straight away."""

    form_class = SignUpForm
    template_name = "accounts/signup.html"

    def dispatch(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponseBase:
        if guests.is_guest(request.user):
            return redirect("guest_keep")  # a guest keeps its matches: same account, new name
        if request.user.is_authenticated:
            return redirect("home")
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form: SignUpForm) -> HttpResponse:
        if not throttle.allow(Attempt.Kind.SIGNUP, self.request):
            form.add_error(None, sentence("signups_throttled"))
            response = self.form_invalid(form)
            response.status_code = 429
            return response
        # The account is made even when the mail server is down (accounts.signup): the
        # person is signed in and told the link could not be sent, with a button to resend.
        user, delivery = signup.create_account(form, language=get_language(), request=self.request)
        login(self.request, user, backend="django.contrib.auth.backends.ModelBackend")
        # The home page greets a new account with "Welcome", not "Welcome back" (once).
        self.request.session["new_account"] = True
        messages.success(
            self.request,
            sentence("welcome", username=user.get_username()),
        )
        row = emails.row_of(user)
        if delivery is not None and row is not None:
            level, text, tags = account_words.link_message(delivery, row)
            messages.add_message(self.request, level, text, extra_tags=tags)
        return HttpResponseRedirect(_safe_next(self.request) or reverse("home"))

    def get_context_data(self, **kwargs: object) -> dict[str, object]:
        context = super().get_context_data(**kwargs)
        context["next"] = _safe_next(self.request) or ""
        return context


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    redirect_authenticated_user = True


class LogoutView(auth_views.LogoutView):
    """POST only (Django 5): a link could be triggered by a third-party page."""

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        messages.info(request, sentence("logged_out"))
        return response


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("password_change_done")


class PasswordChangeDoneView(auth_views.PasswordChangeDoneView):
    template_name = "accounts/password_change_done.html"
