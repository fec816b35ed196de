"""Table talk's words (games/chat/phrases.py, games/chat/words.py): every phrase and reaction,
and every refusal, reads in Spanish and German; no rule id in a sentence; free text meets the
name rules (games/chat/text.py)."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games.chat import phrases, text, words

#: the same word in English and the language: a translation, not a leak
SAME = {("es", "No."), ("de", "Text")}
PARAMS = {"count": 5, "seconds": 10, "limit": 200, "code": 0x202E}


@pytest.mark.parametrize("lang", ["es", "de"])
def test_every_phrase_reaction_and_refusal_has_words_in_the_language(lang: str) -> None:
    english = {code: str(t) for code, t in phrases.PHRASES.items()}
    labels = {code: phrases.label(code) for code in phrases.REACTIONS}
    with translation.override(lang):
        for code, words_ in phrases.PHRASES.items():
            said = str(words_)
            assert said and (said != english[code] or (lang, said) in SAME), code
        for code in phrases.REACTIONS:
            assert (
                phrases.label(code) != labels[code]
                and phrases.words(code) == phrases.REACTIONS[code][0]
            ), code
        for code in words._SENTENCES:
            sentence = words.sentence(words.Refused(code, **PARAMS))
            with translation.override("en"):
                assert sentence != words.sentence(words.Refused(code, **PARAMS)), code
            assert not re.search(r"\bR\d+\b", sentence)
    assert 25 <= len(phrases.PHRASES) <= 40 and len(phrases.REACTIONS) >= 4


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("  hola  ", "hola"),
        ("ＧＧ", "GG"),
        ("x" * 200, "x" * 200),
        ("مرحبا hello", "مرحبا hello"),
        ("a\u00a0b", "a b"),  # NFKC: a no-break space is a space
    ],
)
def test_free_text_is_normalised(value: str, expected: str) -> None:
    assert text.clean(value) == expected


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("", words.EMPTY),
        (" \t ", words.EMPTY),
        ("x" * 201, words.TOO_LONG),
        ("a\u202eb", words.INVISIBLE),
        ("a\u2066b", words.INVISIBLE),
        ("a\u200db", words.INVISIBLE),
        ("a\x00b", words.INVISIBLE),
        ("a\u2028b", words.INVISIBLE),
        ("a\tb", words.INVISIBLE),
    ],
)
def test_free_text_refuses_what_a_name_refuses(value: str, code: str) -> None:
    with pytest.raises(words.Refused) as refused:
        text.clean(value)
    assert refused.value.code == code
