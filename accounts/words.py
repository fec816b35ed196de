"""The account pages' reason codes in words (the only place they become sentences)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from accounts.emails import Outcome


def email_outcome(outcome: Outcome, days: int) -> str:
    """What following an e-mail confirmation link did, for the person who followed it."""
    if outcome == Outcome.VERIFIED:
        return _("Thank you: your e-mail address is confirmed.")
    if outcome == Outcome.ALREADY:
        return _("This e-mail address is confirmed already.")
    if outcome == Outcome.EXPIRED:
        return _("This link is more than %(days)s days old. Send yourself a new one from your "
                 "e-mail settings.") % {"days": days}
    if outcome == Outcome.OTHER_ACCOUNT:
        return _("This link was made for another account. Sign in with the account that asked for it.")
    if outcome == Outcome.REPLACED:
        return _("This link is for an e-mail address your account no longer has. Use the link in the "
                 "newest e-mail, or send a new one.")
    if outcome == Outcome.TAKEN:
        return _("Another account has confirmed this e-mail address already. Use another address.")
    return _("This link is not valid. Copy the whole link from the e-mail, or send a new one.")
