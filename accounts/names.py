"""What a name may be: user names at sign-up, and the names of pass-and-play seats.

A name could hold bidi controls (U+202E turned the text around it
backwards for every viewer) and could look exactly like another player's (a Cyrillic
"а" for a Latin "a"). A name is now:

- NFKC-normalised (full-width and other compatibility forms become the plain letters);
- at most `NAME_MAX` characters: a name must fit the places that show it (a seat at the
  table, whose turn it is, a score table's row) on a phone as on a laptop;
- free of control, format (bidi controls, zero-width characters), private-use,
  unassigned and line or paragraph separator characters, and of any space but the
  plain one;
- written in one script (plus the digits and punctuation every script shares,
  Unicode's "Common" and "Inherited");
- visible: not blank when rendered (a name of Hangul fillers
  U+3164 passed as a name, NFKC turning it into U+1160s). No default-ignorable code
  point anywhere (`DEFAULT_IGNORABLE`: fillers, variation selectors, invisible
  operators…), and at least one character that is neither a mark nor a space;
- for a user name: unique ignoring case, and not confusable with an existing user's
  name; for a pass-and-play seat's name: not confusable with any other user's name
  (`looks_like_a_user`).

Confusable means sharing a key of `lookalike_keys`: Unicode TR39's
skeleton (`skeleton`: NFD, each character replaced by its prototype from
confusables.txt, as the `confusable-homoglyphs` package ships it, NFD again), taken
before and after case folding, of the name, its upper case and its case fold, repeated
until it settles. So "aIice" (capital I) is "alice", "rnike" is "mike" (whose
prototype is "rn"), "ӏіӏ" is "lil" (their capitals are "l"s), and "ᴀlice" is "alice"
(a small capital is its capital: `SMALL_CAPITALS`, from the characters' names; TR39
has no entry for them). The keys err on the side of refusing: "allce" is refused
beside "alice" too, since "ALICE" and "ALLCE" are one key once "I" is an "l".

Pages show names inside ``<bdi>`` so a right-to-left name cannot reorder the text
around it either.
"""

from __future__ import annotations

import sys
import unicodedata
from functools import cache
from typing import Any

from confusable_homoglyphs import categories, confusables
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.db.models.functions import Length

from accounts import words

#: the most characters a new name may have (a user's at sign-up, a pass-and-play seat's)
NAME_MAX = 24
#: Unicode general categories a name may not hold
FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: scripts every name may mix with its own: digits, punctuation, combining marks
SHARED_SCRIPTS = frozenset({"COMMON", "INHERITED"})
#: Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt; Python's
#: unicodedata has no such property): drawn as nothing, or as nothing at all in most fonts
DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
#: blank characters that are neither default-ignorable nor spaces (BRAILLE PATTERN BLANK)
BLANK = frozenset({"\u2800"})
#: how many rounds of skeleton and case folding a name's keys take at most to settle
SETTLE_ROUNDS = 6


def normalise(value: str) -> str:
    return unicodedata.normalize("NFKC", value)


def invisible_character(text: str) -> str | None:
    """The first character of `text` a name may not hold (control, bidi, zero-width, a space
    other than the plain one, default-ignorable such as the Hangul fillers…), or None. Table talk's free text meets the same rule."""
    for ch in text:
        category = unicodedata.category(ch)
        if (
            category in FORBIDDEN_CATEGORIES
            or (category == "Zs" and ch != " ")
            or default_ignorable(ch)
        ):
            return ch
    return None


def validate_name(value: str) -> str:
    """The name NFKC-normalised, or a `ValidationError` saying what is wrong with it."""
    name = normalise(value)
    if len(name) > NAME_MAX:
        raise ValidationError(
            words.name_too_long(NAME_MAX, len(name)),
            code="max_length",
        )
    ch = invisible_character(name)
    if ch is not None:
        raise ValidationError(
            words.name_refusal("invisible", code=ord(ch)),
            code="invisible",
        )
    if name and not any(visible(ch) for ch in name):
        raise ValidationError(words.name_refusal("blank"), code="blank")
    scripts = _scripts(name)
    if len(scripts) > 1:
        raise ValidationError(
            words.name_refusal("scripts", scripts=" + ".join(sorted(s.title() for s in scripts))),
            code="scripts",
        )
    return name


def _scripts(name: str) -> set[str]:
    return {categories.alias(ch) for ch in name if not ch.isspace()} - SHARED_SCRIPTS


def default_ignorable(ch: str) -> bool:
    code = ord(ch)
    return any(low <= code <= high for low, high in DEFAULT_IGNORABLE)


def visible(ch: str) -> bool:
    """Whether the character draws something by itself (not a mark, space or blank)."""
    return not (
        unicodedata.category(ch)[0] in "MZC" or default_ignorable(ch) or ch in BLANK or ch.isspace()
    )


def _bare(text: str) -> str:
    # confusable-homoglyphs keeps right-to-left characters between LEFT-TO-RIGHT MARKs
    return text.replace("\u200e", "").replace("\u200f", "")


@cache
def prototypes() -> dict[str, str]:
    """confusables.txt's mapping, character -> its prototype (one or more characters).

    `confusable-homoglyphs` stores each line ``source ; prototype`` both ways (each side
    lists the other), in the file's order. A source has one prototype and is never one
    itself, so a character listing one partner that lists several is a source; of two
    characters listing only each other, the source is the one stored first."""
    data = confusables.confusables_data
    order = {ch: i for i, ch in enumerate(data)}
    found: dict[str, str] = {}
    for ch, partners in data.items():
        if len(partners) != 1:
            continue
        partner = partners[0]["c"]
        if len(data.get(partner, ())) > 1 or order.get(partner, sys.maxsize) > order[ch]:
            found[_bare(ch)] = _bare(partner)
    found.update(SMALL_CAPITALS)
    return found


def _small_capitals() -> dict[str, str]:
    """ "LATIN LETTER SMALL CAPITAL A" (ᴀ) -> "A", and so on for every script that has them."""
    found = {}
    for code in range(0x80, 0x20000):
        name = unicodedata.name(chr(code), "")
        if "LETTER SMALL CAPITAL " in name:
            try:
                found[chr(code)] = unicodedata.lookup(
                    name.replace("LETTER SMALL CAPITAL ", "CAPITAL LETTER ")
                )
            except KeyError:
                continue
    return found


#: small capitals drawn as their capitals (TR39 lists ᴀ with no Latin letter)
SMALL_CAPITALS: dict[str, str] = _small_capitals()


def skeleton(name: str) -> str:
    """Unicode TR39's skeleton of the (NFKC-normalised) name: what it looks like, letter case kept."""
    table = prototypes()
    text = unicodedata.normalize("NFD", normalise(name))
    return unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in text))


def _settled(text: str) -> str:
    """Skeleton, then case fold, again until nothing changes."""
    for _round in range(SETTLE_ROUNDS):
        after = skeleton(text).casefold()
        if after == text:
            break
        text = after
    return text


def lookalike_keys(name: str) -> frozenset[str]:
    """Two names that share a key can be mistaken for each other (see the module's docstring)."""
    name = normalise(name)
    return frozenset(_settled(variant) for variant in {name, name.upper(), name.casefold()})


def _lookalike_among(name: str, others: QuerySet[Any]) -> bool:
    """Whether a user of `others` has this name ignoring case, or a name that looks like it."""
    field = get_user_model().USERNAME_FIELD
    if others.filter(**{f"{field}__iexact": name}).exists():
        return True
    mine = lookalike_keys(name)
    # A prototype is at most a few characters ("rn" for "m"): only names of a comparable length can match.
    near = (
        others.annotate(name_length=Length(field))
        .filter(name_length__gte=len(name) // 3, name_length__lte=3 * len(name) + 3)
        .values_list(field, flat=True)
    )
    return any(mine & lookalike_keys(existing) for existing in near.iterator())


def looks_like_a_user(name: str, *, exclude_pk: int | None = None) -> bool:
    """Whether a (pass-and-play) name is a user's name but the one excluded, or looks like one."""
    users = get_user_model().objects.all()
    return _lookalike_among(
        normalise(name), users.exclude(pk=exclude_pk) if exclude_pk is not None else users
    )


def limit_username_field(field: Any) -> None:
    """A form's user name field says and enforces `NAME_MAX` (Django's model allows 150)."""
    field.max_length = NAME_MAX
    field.widget.attrs["maxlength"] = str(NAME_MAX)
    field.help_text = words.username_help(NAME_MAX)


def validate_new_username(value: str, *, exclude_pk: int | None = None) -> str:
    """A name for a new user (`validate_name`), unique ignoring case and not confusable with
    an existing user's name; returns it normalised."""
    name = validate_name(value)
    users = get_user_model()
    field = users.USERNAME_FIELD
    others = users.objects.exclude(pk=exclude_pk) if exclude_pk is not None else users.objects.all()
    if others.filter(**{f"{field}__iexact": name}).exists():
        raise ValidationError(words.name_refusal("unique"), code="unique")
    if _lookalike_among(name, others):
        raise ValidationError(
            words.name_refusal("confusable"),
            code="confusable",
        )
    return name
