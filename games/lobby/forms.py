"""The lobby's "Create a match" form (R2 seats, R4 seed, R25 computer levels, R31 length).

A form that needs no JavaScript: seat 1 is always the creator; seats 2 to 10 are
drawn as a row of seats, each a group of radio buttons (nobody, an invited person,
pass-and-play, a computer and its level) and a name. A seat left empty is skipped
and the seats that are filled are numbered in order, so a match has 1 + (filled
seats) seats, 2 to 10 (R2). The seed (R4) sits in an "advanced" fold; a chosen one
deals every hand its creator will play against, so it is refused beside an invited
seat or a listing in the lobby (games.services.matches says the same). New matches
are private unless the creator lists them in the lobby.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts import names
from games import length
from games.models import MAX_SEATS, Match
from games.words import FORM, seat_number, sentence

#: the rows of the form: seats 2..10 (seat 1 is the creator)
OTHER_SEATS = range(2, MAX_SEATS + 1)
#: the largest seed the database stores (Match.seed is a signed 64-bit integer)
MAX_SEED = 2**63 - 1

NONE, INVITED, LOCAL, BEGINNER, CASUAL, EXPERT = (
    "",
    "human",
    "local",
    "beginner",
    "casual",
    "expert",
)
#: the computer levels (engine.bots.LEVELS, weakest first), each with one line saying how it plays
LEVELS = [
    (
        BEGINNER,
        _("Computer (beginner)"),
        FORM["beginner"],
    ),
    (
        CASUAL,
        _("Computer (casual)"),
        FORM["casual"],
    ),
    (
        EXPERT,
        _("Computer (expert)"),
        FORM["expert"],
    ),
]
KIND_CHOICES = [
    (NONE, _("Empty")),
    (INVITED, _("A person (invited)")),
    (LOCAL, _("Pass-and-play on this device")),
    *((value, label) for value, label, _line in LEVELS),
]
#: what a new form offers: one casual computer opponent, the smallest complete match
DEFAULT_KINDS = {2: CASUAL}


class SeatChoice:
    """One filled row, before it becomes a services.SeatSpec."""

    __slots__ = ("kind", "name", "level")

    def __init__(self, kind: str, name: str = "", level: str = "") -> None:
        self.kind, self.name, self.level = kind, name, level

    def __repr__(self) -> str:
        return f"SeatChoice({self.kind!r}, {self.name!r}, {self.level!r})"


def kind_field(number: int) -> str:
    return f"seat_{number}_kind"


def name_field(number: int) -> str:
    return f"seat_{number}_name"


class MatchCreateForm(forms.Form):
    """Seats 2–10, the match's length (R31), an optional seed and whether the match is listed in the lobby."""

    seed = forms.IntegerField(
        label=_("Deal number (optional)"),
        required=False,
        min_value=0,
        max_value=MAX_SEED,
        help_text=FORM["seed_help"],
        error_messages={
            "invalid": FORM["seed_invalid"],
            "min_value": FORM["seed_negative"],
            "max_value": FORM["seed_too_large"],
        },
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "step": 1}),
    )
    length = forms.TypedChoiceField(
        label=_("Match length"),
        coerce=int,
        choices=(),  # in the active language: set in __init__ (games.length.choices)
        initial=length.STANDARD,
        required=False,  # a page loaded before the length existed sends none: the standard match
        help_text=FORM["length_help"],
        error_messages={"invalid_choice": FORM["length_invalid"]},
    )
    pace = forms.ChoiceField(
        label=_("Computers' pace"),
        choices=Match.Pace.choices,
        initial=Match.Pace.NORMAL,
        required=False,  # a page loaded before the pace existed sends none: the normal pace
        help_text=FORM["pace_help"],
    )
    away_limit = forms.ChoiceField(
        label=_("A computer may play for someone away"),
        choices=Match.AwayLimit.choices,
        initial=Match.AwayLimit.HOUR,
        required=False,  # a page loaded before the setting existed sends none: the default
        help_text=FORM["away_limit_help"],
    )
    listed = forms.BooleanField(
        label=_("List in the lobby"),
        required=False,
        initial=False,
        help_text=FORM["listed_help"],
    )

    def __init__(
        self,
        *args: Any,
        creator_name: str = "",
        creator_pk: int | None = None,
        guest: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.creator_name = creator_name
        self.fields["length"].choices = length.choices()  # type: ignore[attr-defined]
        #: the creator (their own name is checked through `creator_name`, not as another user's)
        self.creator_pk = creator_pk
        #: guests do not list tables in the lobby (accounts.guests)
        self.guest = guest
        if guest:
            del self.fields["listed"]
        for number in OTHER_SEATS:
            self.fields[kind_field(number)] = forms.ChoiceField(
                label=seat_number(number - 1),
                choices=KIND_CHOICES,
                required=False,
                initial=DEFAULT_KINDS.get(number, NONE),
                widget=forms.RadioSelect,
            )
            self.fields[name_field(number)] = forms.CharField(
                label=_("Name at seat %(number)s") % {"number": number},
                required=False,
                # the length is checked with the other rules for names (`clean`: one message)
                widget=forms.TextInput(
                    attrs={"autocomplete": "off", "size": 16, "maxlength": names.NAME_MAX}
                ),
            )

    # ------------------------------------------------------------ rendering

    def levels(self) -> list[tuple[str, Any, Any]]:
        """The computer levels with their one-line descriptions, for the lobby."""
        return LEVELS

    def seat_rows(self) -> list[dict[str, Any]]:
        """The rows for the template: number, the bound kind and name fields."""
        return [
            {"number": n, "kind": self[kind_field(n)], "name": self[name_field(n)]}
            for n in OTHER_SEATS
        ]

    def extra_rows_open(self) -> bool:
        """Whether the folded rows (seats 5–10) hold anything the user should see."""
        for n in OTHER_SEATS:
            if n < 5:
                continue
            if self[kind_field(n)].errors or self[name_field(n)].errors:
                return True
            if self.is_bound and (self.data.get(kind_field(n)) or self.data.get(name_field(n))):
                return True
        return False

    # ------------------------------------------------------------ validation

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.guest:
            cleaned["listed"] = False
        chosen: list[tuple[int, str, str]] = []  # (row number, kind, name)
        for n in OTHER_SEATS:
            kind = cleaned.get(kind_field(n), NONE)
            name = (cleaned.get(name_field(n)) or "").strip()
            if name:
                try:
                    name = names.validate_name(name)
                except ValidationError as e:
                    self.add_error(name_field(n), e)
                    continue
            if kind == NONE:
                if name:
                    self.add_error(kind_field(n), sentence("seat_name_without_kind"))
                continue
            if kind == LOCAL and not name:
                self.add_error(
                    name_field(n),
                    sentence("local_needs_name"),
                )
            if kind == INVITED and name:
                self.add_error(
                    name_field(n),
                    sentence("invited_no_name"),
                )
            chosen.append((n, kind, name))
        if not chosen and not self.errors:
            raise forms.ValidationError(
                sentence("too_few_seats"),
                code="too_few_seats",
            )

        # Seats are numbered in order once empty rows are skipped; computers without a
        # name are called after their seat number.
        # Two names that look alike (ignoring case, or a Cyrillic "а" for a Latin "a") are one.
        taken = set(names.lookalike_keys(self.creator_name)) if self.creator_name else set()
        seats: list[SeatChoice] = []
        for position, (n, kind, name) in enumerate(chosen, start=2):
            if kind in (BEGINNER, CASUAL, EXPERT):
                # An unnamed computer stays unnamed: the table calls it "Computer 2" in each
                # viewer's own language (Seat.display_name); the default still may not be taken.
                seats.append(SeatChoice("computer", name, kind))
                name = name or gettext("Computer %(number)s") % {"number": position}
            else:
                seats.append(SeatChoice(kind, name))
            if name:
                keys = names.lookalike_keys(name)
                if keys & taken:
                    self.add_error(
                        name_field(n),
                        sentence("seat_names_alike", name=name),
                    )
                elif kind == LOCAL and names.looks_like_a_user(name, exclude_pk=self.creator_pk):
                    # A pass-and-play name is nobody else's user name, nor looks like one.
                    self.add_error(
                        name_field(n),
                        sentence("name_lookalike"),
                    )
                taken |= keys
        self._check_seed(cleaned, [kind for _n, kind, _name in chosen])
        cleaned["seats"] = seats
        cleaned["length"] = cleaned.get("length") or length.STANDARD
        cleaned["pace"] = cleaned.get("pace") or Match.Pace.NORMAL
        cleaned["away_limit"] = cleaned.get("away_limit") or Match.AwayLimit.HOUR
        return cleaned

    def _check_seed(self, cleaned: dict[str, Any], kinds: list[str]) -> None:
        """A chosen deal number (R4) shows its creator every hand: only for a table where
        nobody else can sit, so neither beside an invited seat nor listed in the lobby."""
        if cleaned.get("seed") is None:
            return
        if INVITED in kinds:
            self.add_error(
                "seed",
                sentence("seed_beside_invited"),
            )
        elif cleaned.get("listed"):
            self.add_error(
                "seed",
                sentence("seed_listed"),
            )

    def seat_specs(self) -> list[Any]:
        """The seats for `services.match_create`: the creator first, then the filled rows."""
        from games.services import SeatSpec

        return [SeatSpec(kind="me")] + [
            SeatSpec(kind=s.kind, name=s.name, level=s.level) for s in self.cleaned_data["seats"]
        ]
