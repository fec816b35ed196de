"""Making an account from the sign-up form: the account and its e-mail address in one
transaction, the confirmation link sent once both are stored (accounts.emails).

A mail server that is down fails neither: the account is made and the person signed in
either way; the page tells them the link could not be sent (`Delivery.FAILED`) and offers
to send it again. Nothing is half made: the name is taken only with the whole account."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.forms import UserCreationForm
from django.db import transaction
from django.http import HttpRequest

from accounts import emails

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def create_account(
    form: UserCreationForm[User], *, language: str | None, request: HttpRequest
) -> tuple[User, emails.Delivery | None]:
    """Save the valid sign-up `form` (its optional ``email`` too), then, once both are
    committed, send the confirmation link: the new user, and the link's delivery (None
    without an address)."""
    # durable: the outermost transaction, so it has committed when the block ends
    with transaction.atomic(durable=True):
        user = form.save()
        address = form.cleaned_data.get("email")
        row = emails.set_address(user, address) if address else None
    if row is None:
        return user, None
    return user, emails.send_confirmation(row, language=language, request=request)
