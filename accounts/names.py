"""What a name may be: user names at sign-up, and the names of pass-and-play seats.

Issue 13, fault 5: a name could hold bidi controls (U+202E turned the text around it
backwards for every viewer) and could look exactly like another player's (a Cyrillic
"а" for a Latin "a"). A name is now:

- NFKC-normalised (full-width and other compatibility forms become the plain letters);
- free of control, format (bidi controls, zero-width characters), private-use,
  unassigned and line or paragraph separator characters, and of any space but the
  plain one;
- written in one script (plus the digits and punctuation every script shares,
  Unicode's "Common" and "Inherited");
- for a user name: unique ignoring case, and not confusable with an existing user's
  name (Unicode TR39's confusables, from the `confusable-homoglyphs` package: each
  character is replaced by one representative of the characters it can be mistaken
  for, and two names with the same "skeleton" are refused).

Pages show names inside ``<bdi>`` so a right-to-left name cannot reorder the text
around it either.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs import categories, confusables
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models.functions import Length
from django.utils.translation import gettext as _

#: Unicode general categories a name may not hold
FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: scripts every name may mix with its own: digits, punctuation, combining marks
SHARED_SCRIPTS = frozenset({"COMMON", "INHERITED"})


def normalise(value: str) -> str:
    return unicodedata.normalize("NFKC", value)


def invisible_character(text: str) -> str | None:
    """The first character of `text` a name may not hold (control, bidi, zero-width, a space
    other than the plain one…), or None. Table talk's free text meets the same rule."""
    for ch in text:
        category = unicodedata.category(ch)
        if category in FORBIDDEN_CATEGORIES or (category == "Zs" and ch != " "):
            return ch
    return None


def validate_name(value: str) -> str:
    """The name NFKC-normalised, or a `ValidationError` saying what is wrong with it."""
    name = normalise(value)
    ch = invisible_character(name)
    if ch is not None:
        raise ValidationError(
            _("A name cannot contain invisible or control characters (such as U+%(code)04X).")
            % {"code": ord(ch)}, code="invisible")
    scripts = _scripts(name)
    if len(scripts) > 1:
        raise ValidationError(_("A name is written in one script (not %(scripts)s mixed).")
                              % {"scripts": " + ".join(sorted(s.title() for s in scripts))}, code="scripts")
    return name


def _scripts(name: str) -> set[str]:
    return {categories.alias(ch) for ch in name if not ch.isspace()} - SHARED_SCRIPTS


@cache
def _representative(ch: str) -> str:
    """One character for all those `ch` can be mistaken for (the smallest code point among them)."""
    looks = [h["c"] for h in confusables.confusables_data.get(ch, ()) if len(h["c"]) == 1]
    return min([ch, *looks])


def skeleton(name: str) -> str:
    """What a name looks like: two names with the same skeleton can be mistaken for each other."""
    return "".join(_representative(ch) for ch in normalise(name).casefold())


def validate_new_username(value: str, *, exclude_pk: object = None) -> str:
    """A name for a new user (`validate_name`), unique ignoring case and not confusable with
    an existing user's name; returns it normalised."""
    name = validate_name(value)
    users = get_user_model()
    field = users.USERNAME_FIELD
    others = users.objects.exclude(pk=exclude_pk) if exclude_pk is not None else users.objects.all()
    if others.filter(**{f"{field}__iexact": name}).exists():
        raise ValidationError(_("A user with that name already exists."), code="unique")
    # A skeleton keeps the length of the casefolded name: only names about that long can match.
    mine = skeleton(name)
    near = (others.annotate(name_length=Length(field))
            .filter(name_length__gte=len(name) - 1, name_length__lte=len(name) + 1)
            .values_list(field, flat=True))
    for existing in near:
        if skeleton(existing) == mine:
            raise ValidationError(_("This name looks too much like another player's name. Choose another."),
                                  code="confusable")
    return name
