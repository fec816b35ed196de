"""Languages: every page in English, Spanish and German, the switcher, and
complete, compiled catalogues."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.i18n_helpers import LOCALE_DIR, english_leaks, visible_text

PASSWORD = "tile-12-12-engine"

# English that Django itself puts on these pages (its own catalogues translate it).
DJANGO_ENGLISH = [
    "Username",
    "Password",
    "Password confirmation",
    "Old password",
    "New password",
    "Required. 150 characters or fewer.",
    "Enter the same password as before, for verification.",
]

# A few strings per language that must be on the home page.
EXPECTED_HOME = {
    "en": ["Welcome to the Mexican Train table", "Play now against computers", "Read the rules"],
    "es": [
        "Bienvenido a la mesa del Tren mexicano",
        "Jugar ahora contra el ordenador",
        "Lee las reglas",
        "tren público",
    ],
    "de": [
        "Willkommen am Spieltisch von Mexican Train",
        "Jetzt gegen den Computer spielen",
        "Regeln lesen",
        "öffentliche Bahn",
    ],
}


def client_in(lang: str) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    return client


def html_lang(html: str) -> str:
    match = re.search(r'<html lang="([^"]+)"', html)
    assert match, "no <html lang>"
    return match.group(1)


@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_home_page_speaks_the_language(lang: str, db: None) -> None:
    html = client_in(lang).get(reverse("home")).content.decode()
    assert html_lang(html) == lang
    text = visible_text(html)
    for phrase in EXPECTED_HOME[lang]:
        assert phrase in text


def test_accept_language_picks_the_language(db: None) -> None:
    html = (
        Client()
        .get(reverse("home"), HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9,en;q=0.5")
        .content.decode()
    )
    assert html_lang(html) == "de"


PAGES_ANONYMOUS = ["home", "signup", "login"]
PAGES_SIGNED_IN = ["home", "password_change", "password_change_done"]


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["es", "de"])
def test_no_english_on_spanish_and_german_pages(lang: str) -> None:
    anonymous = client_in(lang)
    pages = {name: anonymous.get(reverse(name)) for name in PAGES_ANONYMOUS}
    # A form with errors, too.
    pages["signup (errors)"] = anonymous.post(
        reverse("signup"), {"username": "", "password1": "a", "password2": "b"}
    )

    user = get_user_model().objects.create_user("ana", password=PASSWORD, is_staff=True)
    signed_in = client_in(lang)
    signed_in.force_login(user)
    for name in PAGES_SIGNED_IN:
        pages[f"{name} (signed in)"] = signed_in.get(reverse(name))

    for name, response in pages.items():
        assert response.status_code == 200, name
        html = response.content.decode()
        assert html_lang(html) == lang, name
        assert english_leaks(html, lang, DJANGO_ENGLISH) == [], f"English on the {lang} {name} page"


def test_the_leak_check_finds_english() -> None:
    html = (
        '<html lang="es"><body><a href="/">Sign up</a> <span lang="en">English</span></body></html>'
    )
    assert english_leaks(html, "es") == ["Sign up"]


@pytest.mark.django_db
def test_language_switcher_sets_the_language_and_returns() -> None:
    client = Client()
    home = client.get(reverse("home")).content.decode()
    assert f'action="{reverse("set_language")}"' in home
    for code in ("en", "es", "de"):
        assert f'name="language" value="{code}"' in home

    response = client.post(reverse("set_language"), {"language": "de", "next": "/accounts/login/"})
    assert response.status_code == 302 and response["Location"] == "/accounts/login/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    html = client.get(reverse("login")).content.decode()
    assert html_lang(html) == "de"
    pressed = dict(re.findall(r'name="language" value="(\w+)"[^>]*aria-pressed="(\w+)"', html))
    assert pressed == {"en": "false", "es": "false", "de": "true"}

    client.post(reverse("set_language"), {"language": "es", "next": "/"})
    assert html_lang(client.get("/").content.decode()) == "es"


# --- the catalogues themselves ----------------------------------------------

PO_FILES = sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.po"))


def test_catalogues_exist_for_every_language() -> None:
    langs = {p.parts[-3] for p in PO_FILES}
    assert langs == {code for code, _ in settings.LANGUAGES} - {"en"}


def _placeholders(text: str) -> list[str]:
    return sorted(re.findall(r"%\(\w+\)[sd]|%[sd]|\{\w*\}", text))


@pytest.mark.parametrize("po_path", PO_FILES, ids=lambda p: "/".join(p.parts[-3:]))
def test_catalogue_is_complete_and_compiled(po_path: Path) -> None:
    po = polib.pofile(str(po_path))
    live = [e for e in po if not e.obsolete]
    assert [e.msgid for e in live if not e.translated()] == [], "untranslated or fuzzy entries"
    for entry in live:
        translations = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        for text in translations:
            assert _placeholders(text) == _placeholders(entry.msgid), entry.msgid

    mo_path = po_path.with_suffix(".mo")
    assert mo_path.exists(), f"{mo_path} missing: run bash .ci/i18n and commit the .mo"
    compiled = {(e.msgctxt, e.msgid): e.msgstr for e in polib.mofile(str(mo_path)) if e.msgid}
    source = {(e.msgctxt, e.msgid): e.msgstr for e in live if not e.msgid_plural}
    stale = {k for k, v in source.items() if compiled.get(k) != v}
    assert not stale, f"{mo_path} is out of date with its .po: run bash .ci/i18n"


def _nplurals(po: polib.POFile) -> int:
    found = re.search(r"nplurals\s*=\s*(\d+)\s*;", po.metadata.get("Plural-Forms", ""))
    assert found, "the catalogue's header has no Plural-Forms"
    return int(found.group(1))


@pytest.mark.parametrize("po_path", PO_FILES, ids=lambda p: "/".join(p.parts[-3:]))
def test_every_plural_message_has_the_forms_its_language_counts(po_path: Path) -> None:
    """As many forms as the header's Plural-Forms says (Spanish: 3, as Django's own catalogue:
    one, many for millions, other); a message with fewer shows English for the missing one
    (Spanish once did for "From 5 matches": its index 2). Compiled as in the .po."""
    po = polib.pofile(str(po_path))
    forms = _nplurals(po)
    plural = {
        (e.msgctxt, e.msgid): e.msgstr_plural for e in po if e.msgid_plural and not e.obsolete
    }
    wrong = {
        msgid: sorted(strs)
        for (_ctx, msgid), strs in plural.items()
        if sorted(strs) != list(range(forms))
    }
    assert not wrong, f"{po_path}: plural messages without {forms} forms: {wrong}"
    mo = polib.mofile(str(po_path.with_suffix(".mo")))
    assert _nplurals(mo) == forms
    compiled = {(e.msgctxt, e.msgid): e.msgstr_plural for e in mo if e.msgid_plural}
    assert compiled == plural, (
        f"{po_path.with_suffix('.mo')} is out of date with its .po: run bash .ci/i18n"
    )


#: German "Zug" is both a train and a move; the game's German says "Bahn" for a train
#: (../shared/spec/glossary.md: Bahn, eigene Bahn, öffentliche Bahn) and keeps "Zug" for a
#: move or a turn ("am Zug", "Erstzug"). The game's name stays "Mexican Train".
TRAIN = re.compile(r"\btrains?\b")


def test_german_says_bahn_for_a_train_and_zug_only_for_a_move() -> None:
    po = polib.pofile(str(LOCALE_DIR / "de" / "LC_MESSAGES" / "django.po"))
    wrong = []
    for entry in (e for e in po if not e.obsolete):
        texts = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        for text in texts:
            if re.search(r"Mexikanische[nrs]? Zug|Eisenbahn", text):
                wrong.append((entry.msgid, text))
            # A sentence about a train names it a Bahn; only a first turn's train is its chain (Kette).
            if (
                TRAIN.search(entry.msgid)
                and "field" not in entry.msgid
                and not re.search(r"Bahn|Kette", text)
            ):
                wrong.append((entry.msgid, text))
    assert wrong == []
