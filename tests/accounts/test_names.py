"""Names that cannot turn text around or pass for someone else's (fault 5).

Before: a name could hold U+202E (RIGHT-TO-LEFT OVERRIDE), which reversed the text
around it for every viewer, and "аlice" with a Cyrillic "а" was accepted next to
"alice". Now names are NFKC-normalised, hold no control, bidi or zero-width character,
use one script, and a user name that looks like an existing one is refused
(accounts/names.py); pages show names inside <bdi>.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts import names
from games import services
from games.errors import GameError
from games.models import Match
from tests.accounts.test_accounts import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def sign_ups_not_throttled(settings: Any) -> None:
    """These tests sign up many names from one address; the sign-up throttle
    (accounts.throttle, tested in tests/accounts) would refuse the sixth."""
    settings.ACCOUNT_THROTTLES = {"guest": (10_000, 3600), "signup": (10_000, 3600)}


def sign_up(username: str) -> Any:
    return Client().post(
        reverse("signup"), {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    )


def created(username: str) -> bool:
    return get_user_model().objects.filter(username=username).exists()


@pytest.mark.parametrize(
    "name",
    [
        "ev\u202eil",  # RIGHT-TO-LEFT OVERRIDE
        "ev\u2066il",  # LEFT-TO-RIGHT ISOLATE
        "al\u200bice",  # ZERO WIDTH SPACE
        "al\u200dice",  # ZERO WIDTH JOINER
        "\ufeffbob",  # BYTE ORDER MARK
        "b\u0007ob",  # BELL
    ],
)
def test_invisible_and_bidi_characters_are_refused(name: str) -> None:
    response = sign_up(name)
    assert response.status_code == 200 and not created(name)
    assert not get_user_model().objects.exists()


def test_a_name_looking_like_an_existing_one_is_refused() -> None:
    assert sign_up("alice").status_code == 302 and created("alice")
    for lookalike in (
        "аlice",  # Cyrillic а
        "ALICE",
        "Alice",  # case
        "ａｌｉｃｅ",  # full width: NFKC makes it "alice"
        "a1ice",
    ):  # 1 for l (TR39 confusables)
        response = sign_up(lookalike)
        assert response.status_code == 200, lookalike
        assert "alice" == get_user_model().objects.get().username
    # One script per name: a Latin name with one Greek letter is refused even when new.
    assert sign_up("Ωmega").status_code == 200 and not created("Ωmega")


def test_names_in_one_script_of_any_kind_are_welcome() -> None:
    for name in ("José", "Müller", "Москва", "東京", "user_12", "o.k-9"):
        assert sign_up(name).status_code == 302, name
        assert created(name)
    # A Cyrillic name that looks like an existing Latin one is refused.
    assert sign_up("cop").status_code == 302
    assert sign_up("сор").status_code == 200 and not created("сор")


def test_the_skeleton_catches_homoglyphs_and_case() -> None:
    assert names.skeleton("pаypal") == names.skeleton("paypal")  # TR39's skeleton keeps letter case
    assert (
        names.lookalike_keys("pаypal")
        & names.lookalike_keys("paypal")
        & names.lookalike_keys("PAYPAL")
    )
    assert not names.lookalike_keys("alice") & names.lookalike_keys("alicia")


def test_seat_names_follow_the_same_rules(django_user_model: Any) -> None:
    alice = django_user_model.objects.create_user("alice")
    with pytest.raises(GameError) as caught:
        services.match_create(
            creator=alice,
            seats=[services.SeatSpec("me"), services.SeatSpec("local", name="An\u202ea")],
        )
    assert caught.value.code == "bad_request"
    client = Client()
    client.force_login(alice)
    response = client.post(
        reverse("games:create"),
        {
            "seat_2_kind": "local",
            "seat_2_name": "Ana",
            "seat_3_kind": "local",
            "seat_3_name": "Аna",
        },
    )
    assert response.status_code == 200  # two seats that look the same are one name too
    match = services.match_create(
        creator=alice, seats=[services.SeatSpec("me"), services.SeatSpec("local", name="Ｂｅｎ")]
    )
    assert match.seats.get(index=1).name == "Ben"  # NFKC


def test_names_are_shown_isolated(django_user_model: Any) -> None:
    """A right-to-left name cannot reorder the words around it: names sit in <bdi>."""
    alice = django_user_model.objects.create_user("alice")
    match = services.match_create(
        creator=alice, seats=[services.SeatSpec("me"), services.SeatSpec("local", name="דנה")]
    )
    client = Client()
    client.force_login(alice)
    table = client.get(reverse("games:table", args=[match.pk])).content.decode()
    # In sentences and attributes the same isolation by FIRST STRONG ISOLATE ... POP DIRECTIONAL ISOLATE.
    # Every name on its own is <bdi class="pname" title="…"> (one rule: an ellipsis when it
    # does not fit, the whole name on hover and focus).
    isolated = re.findall(
        r'<bdi class="pname" title="\u2068דנה\u2069">\u2068דנה\u2069</bdi>', table
    )
    assert isolated
    assert table.count("\u2068דנה\u2069") > 2 * len(isolated)  # in sentences too
    mine = client.get(reverse("games:my_matches")).content.decode()
    assert re.search(r'<bdi class="pname" title="[^"]*דנה[^"]*">[^<]*דנה[^<]*</bdi>', mine)


# ------------------------------------------------------------------ lookalike names


@pytest.mark.parametrize(
    ("existing", "lookalike"),
    [
        ("alice3075", "aIice3075"),  # a capital I for an l: looked alike only before case folding
        ("lil3075", "ӏіӏ3075"),  # Cyrillic palochka and і: their capitals are l's
        ("mike3075", "rnike3075"),  # "rn" is the prototype of "m" (TR39)
        ("alice3075", "ᴀlice3075"),  # a small capital A
    ],
)
def test_look_alikes_are_compared_before_and_after_case_folding(
    existing: str, lookalike: str
) -> None:
    assert sign_up(existing).status_code == 302 and created(existing)
    response = sign_up(lookalike)
    assert response.status_code == 200 and not created(lookalike)
    assert "looks too much like another player" in response.content.decode()
    assert names.lookalike_keys(existing) & names.lookalike_keys(lookalike)


def test_different_names_still_differ() -> None:
    for a, b in [
        ("alice", "alicia"),
        ("José", "Jose"),
        ("Müller", "Muller"),
        ("bob", "rob"),
        ("ana", "ana2"),
    ]:
        assert not names.lookalike_keys(a) & names.lookalike_keys(b), (a, b)


@pytest.mark.parametrize(
    "name",
    [
        "\u3164",  # HANGUL FILLER (NFKC makes it U+1160)
        "\u3164\u3164\u3164\u3164",
        "\u1160\u1160",  # HANGUL JUNGSEONG FILLER
        "\u115f",  # HANGUL CHOSEONG FILLER
        "\uffa0",  # HALFWIDTH HANGUL FILLER
        "\u034f\u034f",  # COMBINING GRAPHEME JOINER (default-ignorable)
        "\ufe0f",  # VARIATION SELECTOR-16
        "\u0301\u0301",  # combining marks only
        "\u2800",  # BRAILLE PATTERN BLANK
        "bob\u3164",  # a filler after a name looks like the name
    ],
)
def test_names_blank_when_rendered_are_refused(name: str) -> None:
    response = sign_up(name)
    assert response.status_code == 200
    assert not get_user_model().objects.exists()
    with pytest.raises(Exception, match="invisible|visible"):
        names.validate_name(name)


@pytest.mark.parametrize("name", ["\u3164", "\u1160\u1160\u1160\u1160", "\u0301", "\u2800"])
def test_pass_and_play_names_blank_when_rendered_are_refused(
    django_user_model: Any, name: str
) -> None:
    alice = django_user_model.objects.create_user("alice")
    with pytest.raises(GameError) as caught:
        services.match_create(
            creator=alice, seats=[services.SeatSpec("me"), services.SeatSpec("local", name=name)]
        )
    assert caught.value.code == "bad_request"
    client = Client()
    client.force_login(alice)
    response = client.post(reverse("games:create"), {"seat_2_kind": "local", "seat_2_name": name})
    assert response.status_code == 200  # the form again, with the error
    assert not Match.objects.exists()


@pytest.mark.parametrize("seat_name", ["bob3075", "BOB3075", "b0b3075", "ЬоЬ3075"])
def test_a_pass_and_play_name_is_not_another_users_name_or_its_look_alike(
    django_user_model: Any, seat_name: str
) -> None:
    alice = django_user_model.objects.create_user("alice")
    django_user_model.objects.create_user("bob3075")
    with pytest.raises(GameError) as caught:
        services.match_create(
            creator=alice,
            seats=[services.SeatSpec("me"), services.SeatSpec("local", name=seat_name)],
        )
    assert caught.value.code == "bad_request"
    client = Client()
    client.force_login(alice)
    response = client.post(
        reverse("games:create"), {"seat_2_kind": "local", "seat_2_name": seat_name}
    )
    assert response.status_code == 200
    assert "looks too much like another player" in response.content.decode()
    assert not Match.objects.exists()
    # a name nobody has is fine, and so is a computer's
    services.match_create(
        creator=alice, seats=[services.SeatSpec("me"), services.SeatSpec("local", name="Carmen")]
    )


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "A name has at most 24 characters (this one has 25)."),
        ("es", "Un nombre tiene como máximo 24 caracteres (este tiene 25)."),
        ("de", "Ein Name hat höchstens 24 Zeichen (dieser hat 25)."),
    ],
)
def test_a_name_fits_where_names_are_shown_at_most_24_characters(lang: str, words: str) -> None:
    """A name must fit a seat, whose turn it is and a score table's row on a phone: a new
    account's name, a guest's kept name and a pass-and-play seat's name (`validate_name`)
    have at most `NAME_MAX` characters, and the sign-up form says so before it is sent."""
    client = Client(headers={"accept-language": lang})
    page = client.get(reverse("signup")).content.decode()
    assert f'maxlength="{names.NAME_MAX}"' in page
    too_long = "Wilhelmina" * 2 + "Wilhe"
    response = client.post(
        reverse("signup"), {"username": too_long, "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 200 and not created(too_long)
    assert words in response.content.decode()
    assert sign_up(too_long[:24]).status_code == 302 and created(too_long[:24])
