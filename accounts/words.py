"""What the account pages say (sign-up, sign-out, a guest keeping their account): the one
place accounts/views.py and accounts/guest_views.py take their sentences from, as the
games' pages take theirs from games/words/__init__.py."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.emails import Delivery, Outcome
from accounts.models import EmailAddress
from games.words import sentence as site_sentence

#: a message for django.contrib.messages: (level, words, extra tags)
Message = tuple[int, str, str]

#: the account pages' sentences by key, each once (translated when said)
SITE: dict[str, Callable[[], str]] = {
    "signups_throttled": lambda: _(
        "Too many accounts were made from your address in the last hour. Please try again later."
    ),
    "welcome": lambda: _("Welcome, %(username)s! Your account is ready."),
    "logged_out": lambda: _("You have logged out. See you at the table!"),
    "name_taken": lambda: _("That name is taken. Choose another one."),
    "guest_kept": lambda: _("Your account %(username)s is ready, with all your matches."),
    "unknown_tip": lambda: _("Unknown tip."),
    "email_keep_first": lambda: _(
        "Keep your account with a name and a password first; then add an e-mail address."
    ),
    "email_link_sent": lambda: _("We sent a link to %(address)s. Open it to confirm the address."),
    "email_link_resent": lambda: _("We sent a new link to %(address)s."),
    "email_link_wait": lambda: _(
        "A link went to this address less than a minute ago. Please wait a moment."
    ),
    "email_link_failed": lambda: _(
        "We could not send the link to %(address)s just now: our mail server did not answer. "
        "Your address is saved. Please send the link again in a moment."
    ),
    "email_retry_wait": lambda: _("Please wait a few seconds before sending the link again."),
    "email_removed": lambda: _("Your e-mail address is removed. No e-mail will be sent to you."),
}

#: the e-mail fields' help texts (lazy: the forms are made once, read in each request's language)
EMAIL_HELP = gettext_lazy("Leave it empty to remove your address.")
SIGNUP_EMAIL_HELP = gettext_lazy(
    "Only for the e-mails you ask for, such as when it is your turn. We send a link to confirm it."
)


# ---------------------------------------------------------------- names

#: Why a name is refused (accounts/names.py: at sign-up, keeping a guest's account, naming a
#: pass-and-play seat), by the `ValidationError`'s code. The look-alike refusal is the site's
#: one sentence for it (games.words "name_lookalike").
NAME_REFUSALS: dict[str, Callable[[], str]] = {
    "invisible": lambda: _(
        "A name cannot contain invisible or control characters (such as U+%(code)04X)."
    ),
    "blank": lambda: _("A name needs at least one visible letter, digit or sign."),
    "scripts": lambda: _("A name is written in one script (not %(scripts)s mixed)."),
    "unique": lambda: _("A user with that name already exists."),
}


def name_refusal(reason: str, /, **facts: object) -> str:
    """Why a name is refused, for the `ValidationError` code `reason`, `facts` put in."""
    if reason == "confusable":
        return site_sentence("name_lookalike")
    text = NAME_REFUSALS[reason]()
    return text % facts if facts else text


def name_too_long(most: int, length: int) -> str:
    """A name over the `most` characters a name may have (this one has `length`)."""
    return ngettext(
        "A name has at most %(max)d character (this one has %(length)d).",
        "A name has at most %(max)d characters (this one has %(length)d).",
        most,
    ) % {"max": most, "length": length}


def username_help(most: int) -> str:
    """The sign-up form's help under the user name (Django's own says 150 characters)."""
    return _("Required. %(max)d characters or fewer. Letters, digits and @/./+/-/_ only.") % {
        "max": most
    }


def sentence(key: str, **params: object) -> str:
    """The sentence for `key` (one of `SITE`) in the active language, `params` put in."""
    text = SITE[key]()
    return text % params if params else text


#: the extra tag of a message that offers to send the confirmation link again (base.html
#: shows a "Send again" button with it)
RESEND_TAG = "email-resend"


def link_message(delivery: Delivery, row: EmailAddress, *, again: bool = False) -> Message:
    """What to tell the person about asking for a confirmation link for `row`: (level,
    words, extra tags); a link that went is "a new link" when `again`."""
    if delivery == Delivery.FAILED:
        return messages.WARNING, sentence("email_link_failed", address=row.address), RESEND_TAG
    if delivery == Delivery.WAIT:
        key = "email_retry_wait" if row.link_failed else "email_link_wait"
        return messages.ERROR, sentence(key), ""
    key = "email_link_resent" if again else "email_link_sent"
    return messages.SUCCESS, sentence(key, address=row.address), ""


def email_outcome(outcome: Outcome, days: int) -> str:
    """What following an e-mail confirmation link did, for the person who followed it."""
    if outcome == Outcome.VERIFIED:
        return _("Thank you: your e-mail address is confirmed.")
    if outcome == Outcome.ALREADY:
        return _("This e-mail address is confirmed already.")
    if outcome == Outcome.EXPIRED:
        return _(
            "This link is more than %(days)s days old. Send yourself a new one from your "
            "e-mail settings."
        ) % {"days": days}
    if outcome == Outcome.OTHER_ACCOUNT:
        return _(
            "This link was made for another account. Sign in with the account that asked for it."
        )
    if outcome == Outcome.REPLACED:
        return _(
            "This link is for an e-mail address your account no longer has. Use the link in the "
            "newest e-mail, or send a new one."
        )
    if outcome == Outcome.TAKEN:
        return _("Another account has confirmed this e-mail address already. Use another address.")
    return _("This link is not valid. Copy the whole link from the e-mail, or send a new one.")
