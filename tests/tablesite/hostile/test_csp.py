"""A Content-Security-Policy without inline script or style: a second wall behind the escaping.

Every page carries the header; its script-src and style-src allow only the site's own
files, and no page holds an inline script, an inline event handler, a <style> element or
a style attribute (they would stop working under the policy, so a test that renders the
pages finds them first; the browser tests fail on any violation the browser reports).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse

from games import services
from games.chat import services as chat
from games.models import Match
from games.services import SeatSpec
from tests.games.history.fabricate import finished_match

pytestmark = pytest.mark.django_db

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)
HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)
STYLE_ELEMENT = re.compile(r"<style\b", re.I)
STYLE_ATTRIBUTE = re.compile(r"<[a-z][^>]*\sstyle\s*=[^>]*>", re.I)


def inline_style(html: str) -> list[str]:
    """The page's <style> elements and style attributes (the policy refuses both)."""
    return STYLE_ELEMENT.findall(html) + STYLE_ATTRIBUTE.findall(html)


def policy(response: Any) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


def test_pages_carry_a_policy_without_inline_script_and_hold_none(django_user_model: Any) -> None:
    root = django_user_model.objects.create_superuser("root", password=None)
    match = services.match_create(
        creator=root, seats=[SeatSpec("me"), SeatSpec("computer", level="casual")]
    )
    client = Client()
    client.force_login(root)
    pages = [
        reverse("home"),
        reverse("games:lobby"),
        reverse("games:my_matches"),
        reverse("games:rules"),
        reverse("games:table", args=[match.pk]),
        reverse("games:detail", args=[match.pk]),
        reverse("games:create"),
        reverse("admin:games_match_replay", args=[match.pk]),
        reverse("admin:games_match_change", args=[match.pk]),
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        directives = policy(response)
        assert directives["script-src"] == ["'self'"], url
        assert (
            "'unsafe-inline'" not in directives["script-src"]
            and "'unsafe-eval'" not in directives["script-src"]
        )
        assert directives["object-src"] == ["'none'"] and directives["frame-ancestors"] == [
            "'none'"
        ]
        html = response.content.decode()
        assert not INLINE_SCRIPT.findall(html), (url, INLINE_SCRIPT.findall(html))
        assert not HANDLER.findall(html), (url, HANDLER.findall(html)[:3])
    anonymous = Client().get(reverse("login"))
    assert policy(anonymous)["script-src"] == ["'self'"]


def test_pages_carry_a_policy_without_inline_style_and_hold_none(django_user_model: Any) -> None:
    """Every kind of page, in the states that draw the most (a live table, a match's end, a
    replay, a player's record, a reported chat line, every admin list), in each language."""
    root = django_user_model.objects.create_superuser("root", password=None)
    ana = django_user_model.objects.create_user("ana", password=None)
    live = services.match_create(
        creator=root,
        seats=[
            SeatSpec("me"),
            SeatSpec("local", name="Guest 2"),
            SeatSpec("computer", level="casual"),
        ],
    )
    open_seat = services.match_create(creator=ana, seats=[SeatSpec("me"), SeatSpec("human")])
    duo = services.match_create(creator=ana, seats=[SeatSpec("me"), SeatSpec("human")])
    services.seat_join(match_id=duo.pk, user=root, token=duo.invite_token)
    said = chat.say(match_id=duo.pk, user=ana, room="players", words="a line")
    chat.report(match_id=duo.pk, user=root, message_id=said.pk)
    done = finished_match([root, ana, "casual"], seed=5)
    assert done.status == Match.Status.FINISHED
    client = Client()
    client.force_login(root)
    pages = [
        reverse("home"),
        reverse("games:lobby"),
        reverse("games:my_matches"),
        reverse("games:rules"),
        reverse("games:how_to_play"),
        reverse("games:create"),
        reverse("games:table", args=[live.pk]),
        reverse("games:detail", args=[live.pk]),
        reverse("games:join", args=[open_seat.pk, open_seat.invite_token]),
        reverse("games:table", args=[done.pk]),
        reverse("games:detail", args=[done.pk]),
        reverse("history:replay", args=[done.pk]),
        reverse("history:leaderboard"),
        reverse("history:player", args=["root"]),
        reverse("history:player", args=["ana"]),
        reverse("history:turn_mail"),
        reverse("email"),
        reverse("password_change"),
        reverse("admin:index"),
        reverse("admin:games_match_replay", args=[done.pk]),
    ]
    for model, _model_admin in admin.site._registry.items():
        name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        pages.append(reverse(f"{name}_changelist"))
        first = model._default_manager.order_by("pk").first()
        if first is not None:
            pages.append(reverse(f"{name}_change", args=[first.pk]))
    assert reverse("admin:chat_report_changelist") in pages
    for lang in ("en", "es", "de"):
        for url in pages:
            response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
            assert response.status_code == 200, (url, response.status_code)
            directives = policy(response)
            assert directives["style-src"] == ["'self'"], url
            html = response.content.decode()
            assert not inline_style(html), (url, inline_style(html)[:3])
    anonymous = Client()
    for url in (reverse("home"), reverse("login"), reverse("signup"), "/no-such-page/"):
        response = anonymous.get(url)
        assert policy(response)["style-src"] == ["'self'"], url
        assert not inline_style(response.content.decode()), url
    # A form sent without its CSRF token: the site's page, not Django's (which has a <style>).
    for lang, words in (("en", "Form expired"), ("es", "Formulario caducado")):
        refused = Client(enforce_csrf_checks=True).post(
            reverse("login"), {"username": "root"}, HTTP_ACCEPT_LANGUAGE=lang
        )
        html = refused.content.decode()
        assert refused.status_code == 403 and words in html and not inline_style(html), html


def test_the_board_in_every_state_holds_no_inline_style() -> None:
    """The table's board as the websocket sends it (whole, and its shared parts with the
    scores dialog) for a start, a first turn, ten seats, a draw, an open double, a
    spectator, a relay cover, a round's and a match's end: no style attribute, which the
    policy would refuse when the page swaps it in."""
    from games.board.draw import board_html
    from games.board.jinja_env import fixed_language
    from games.board.parts import shared_parts
    from games.board.presenter import present, present_public
    from tests.games.table.snapshots import pages as states

    for name, (v, seats, viewer, flags) in states().items():
        html = str(board_html(present(v, seats, viewer=viewer, flags=flags)))
        assert not inline_style(html), (name, inline_style(html)[:3])
        with fixed_language():
            shared = shared_parts(present_public(v, seats, flags))
        assert "scores-dialog" in shared
        for part, text in shared.items():
            assert not inline_style(str(text)), (name, part, inline_style(str(text))[:3])


def test_the_stylesheets_hold_a_rule_for_every_value_the_pages_give_by_class_or_attribute() -> None:
    """What a page once set in a style attribute reaches the stylesheets as a class or a data-*
    attribute, each value with its rule: the seats' colours (in presenter order), the hand's
    columns on a phone for any hand the set allows, the score table's seats, the pips."""
    from pathlib import Path

    from django.conf import settings

    from engine.deal import MAX_PLAYERS, MIN_PLAYERS
    from engine.tiles import FULL_SET, HIGHEST
    from games.board.presenter import SEAT_COLOURS, phone_columns

    css = Path(settings.BASE_DIR, "static", "css")
    board_css = (css / "board.css").read_text()
    scores_css = (css / "scores.css").read_text()
    tints = dict(re.findall(r"\.tint-(\d+) \{ --seat: (#[0-9a-f]{6}); \}", board_css))
    assert [tints[str(i)] for i in range(len(SEAT_COLOURS))] == list(SEAT_COLOURS)
    assert len(tints) == len(SEAT_COLOURS)
    for count in range(len(FULL_SET) + 1):
        n = phone_columns(count)
        assert f'.hand__tiles[data-cols="{n}"] {{ --hand-cols: {n}; }}' in board_css, count
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        assert f'.stable[data-seats="{n}"] {{ --seats: {n}; }}' in scores_css, n
    for n in range(1, HIGHEST + 1):
        assert f".pips-{n} {{ fill: var(--pip-{n}, var(--pip)); }}" in board_css, n
