"""Plain words (games/words/__init__.py): the engine refuses with a reason code, the site says it.

No rule id reaches a sentence a player reads (catalogues, pages, refusals); every
refusal code has words in Spanish and German; a refusal arrives in the player's
language with seats named as players see them (by name, or numbered from 1).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from engine.rules import apply, legal_actions
from engine.state import MEXICAN, REFUSAL_CODES, Action, IllegalAction
from games import services, words
from games.errors import GameError
from games.models import Match

from .conftest import rid, state_of

RULE_ID = re.compile(r"\bR\d+\b")
LOCALE = Path(__file__).resolve().parents[2] / "locale"

#: facts for each code's sentence (seats 0-based, as the engine gives them)
PARAMS: dict[str, dict[str, object]] = {
    "not_your_turn": {"seat": 1},
    "must_play": {"tile": "6-4"},
    "not_in_hand": {"tile": "6-4"},
    "first_turn_own_train": {"end": 12},
    "cannot_start": {"number": 12},
    "no_match": {"tile": "6-4", "train": 1, "end": 9},
    "open_double_first": {"tile": "5-5", "train": MEXICAN},
    "train_not_open": {"train": 1, "end": 9},
    "fits_nowhere": {"a": 3, "b": 8},
}


def _catalogue_strings(lang: str) -> list[str]:
    """Every msgid and msgstr line of a catalogue (comments and references left out)."""
    text = (LOCALE / lang / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.startswith(("msgid", "msgstr", '"'))]


@pytest.mark.parametrize("lang", ["es", "de"])
def test_no_catalogue_string_cites_a_rule_id(lang: str) -> None:
    cited = [line for line in _catalogue_strings(lang) if RULE_ID.search(line)]
    assert cited == []


@pytest.mark.parametrize("lang", ["es", "de"])
def test_every_refusal_code_has_its_own_words_in_spanish_and_german(lang: str) -> None:
    generic = {}
    for code in words.CODES:
        with translation.override("en"):
            english = words.refusal(code, PARAMS.get(code), names=["Ana", "Ben"], me=0)
            generic["en"] = words.refusal("no such code")
        with translation.override(lang):
            said = words.refusal(code, PARAMS.get(code), names=["Ana", "Ben"], me=0)
            generic[lang] = words.refusal("no such code")
        assert english != generic["en"], code  # a sentence of its own, not the fallback
        assert said != english and said != generic[lang], (code, said)
        assert not RULE_ID.search(said) and "%(" not in said, (code, said)


def test_the_engine_refuses_only_with_known_codes() -> None:
    assert set(REFUSAL_CODES) <= set(words.CODES)
    with pytest.raises(ValueError):
        IllegalAction("R7", "made up", "made_up")


def test_seats_are_named_or_numbered_from_one() -> None:
    with translation.override("en"):
        assert (
            words.refusal("not_your_turn", {"seat": 1}, names=["Ana", "Ben"])
            == "Wait for your turn: it is Ben's turn."
        )
        assert (
            words.refusal("not_your_turn", {"seat": 0})
            == "Wait for your turn: it is player 1's turn."
        )
        assert (
            words.refusal(
                "no_match", {"tile": "6-4", "train": 0, "end": 9}, names=["Ana", "Ben"], me=0
            )
            == "6-4 does not match the end of your train (9)."
        )
        assert (
            words.refusal(
                "open_double_first", {"tile": "5-5", "train": 1}, names=["Ana", "Ben"], me=0
            )
            == "The open double 5-5 on Ben's train must be satisfied first."
        )
        assert words.rule_url("R13") == "/rules/#R13" and words.rule_url(None) == ""


@pytest.mark.django_db
@pytest.mark.parametrize(
    "lang, expected",
    [
        ("en", "Wait for your turn: it is Computer 2's turn."),
        ("es", "Espera tu turno: le toca a Ordenador 2."),
        ("de", "Warte, bis du am Zug bist: Computer 2 ist dran."),
    ],
)
def test_a_refusal_arrives_in_the_players_language_naming_the_seat(
    lang: str, expected: str, make_match: Callable[..., Match], alice: Any
) -> None:
    match = make_match("me", "computer")
    state = state_of(match)
    assert state.turn == 1 or state.turn == 0
    if state.turn == 0:  # let alice place the engine, so that the computer is to act
        services.action_submit(
            match_id=match.pk,
            user=alice,
            seat=0,
            action={"act": "engine"},
            expected_version=match.version,
            request_id=rid(),
        )
        state = state_of(match)
        while state.turn == 0:
            action = legal_actions(state)[0]
            services.action_submit(
                match_id=match.pk,
                user=alice,
                seat=0,
                action=action.to_json(),
                expected_version=match.version,
                request_id=rid(),
            )
            state = state_of(match)
    assert state.turn == 1
    with translation.override(lang), pytest.raises(GameError) as info:
        services.action_submit(
            match_id=match.pk,
            user=alice,
            seat=0,
            action={"act": "draw"},
            expected_version=match.version,
            request_id=rid(),
        )
    assert info.value.code == "not_your_turn" and info.value.rule == "R7"
    assert info.value.message == expected


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_an_illegal_move_is_refused_in_words_with_the_rule_kept_for_the_link(
    lang: str, make_match: Callable[..., Match], alice: Any
) -> None:
    match = make_match("me", "local:Ben")
    state = state_of(match)
    holder = state.turn
    # Placing the engine is the only legal action: a draw now is refused (R7), nothing changes.
    assert legal_actions(state) == [Action("engine", holder)]
    with pytest.raises(IllegalAction) as engine_says:
        apply(state, Action("draw", holder))
    with translation.override(lang), pytest.raises(GameError) as info:
        services.action_submit(
            match_id=match.pk,
            user=alice,
            seat=holder,
            action={"act": "draw"},
            expected_version=match.version,
            request_id=rid(),
        )
    e = info.value
    assert (e.code, e.rule, e.reason) == ("illegal", engine_says.value.rule, engine_says.value.code)
    with translation.override(lang):
        assert e.message == words.refusal(engine_says.value.code, engine_says.value.params)
    assert not RULE_ID.search(e.message)
    assert e.to_json()["why_url"] == f"/rules/#{e.rule}"
    assert state_of(match) == state


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_no_page_a_player_reads_cites_a_rule_id(
    lang: str, make_match: Callable[..., Match], alice: Any
) -> None:
    match = make_match("me", "computer")
    client = Client(headers={"accept-language": lang})
    client.force_login(alice)
    for name in ("home", "games:lobby", "games:my_matches"):
        html = client.get(reverse(name)).content.decode()
        assert not RULE_ID.search(_visible(html)), name
    table = client.get(reverse("games:table", args=[match.pk])).content.decode()
    assert not RULE_ID.search(_visible(table))
    # the rules drawer's text, fetched when it opens: rule ids only as its anchors
    assert not RULE_ID.search(_visible(client.get(reverse("games:rules_panel")).content.decode()))


def _visible(html: str) -> str:
    """The text and attribute values a person can read or hear, without scripts, styles and ids."""
    html = re.sub(r"<(script|style)\b.*?</\1>", "", html, flags=re.S)
    html = re.sub(
        r'\s(id|for|href|class|aria-labelledby|aria-controls|aria-describedby|data-[\w-]+)="[^"]*"',
        "",
        html,
    )
    return html
