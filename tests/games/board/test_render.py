"""The board (games/jinja2/games/board.html) rendered for real positions, in English, Spanish and German.

What the page holds is checked in the HTML itself: the data attributes the client
uses, buttons only when legal, and — by collecting every tile drawn in the page —
that no hand reaches anyone but its owner before the round ends (R24).
"""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from engine.rules import apply, legal_actions
from engine.state import Action
from engine.views import view
from games.board.draw import board_html
from games.board.presenter import Flags, present
from games.board.viewer import Viewer
from tests.i18n_helpers import english_leaks, visible_text

from . import states as S


def spoken(tile):
    return f"{max(tile)}-{min(tile)}"


def render(v, seats, viewer=None, flags=None, lang="en"):
    with translation.override(lang):
        return board_html(present(v, seats, viewer=viewer, flags=flags))


def drawn_tiles(html):
    """Every tile drawn in the page, as a normalised pair (from the tile tag's data-pips)."""
    return [
        tuple(sorted(map(int, m.split("-")))) for m in re.findall(r'data-pips="(\d+-\d+)"', html)
    ]


def hand_attrs(html):
    return re.findall(r'data-tile="([^"]+)" data-targets="([^"]*)"', html)


def public_tiles(st):
    """Tiles anyone may see drawn: the trains and the engine."""
    out = {(st.engine, st.engine)}
    for train in st.trains:
        out.update(tuple(sorted(t)) for t in train.tiles)
    return out


STATES = {
    "start": lambda: S.start(4),
    "first": lambda: S.first_turn_chain(4),
    "mid4": lambda: S.mid_game(4),
    "mid10": lambda: S.mid_game(10, seed=3, plays_after_first=30),
    "draw": lambda: S.with_draw(4),
    "double": lambda: S.with_open_double(4),
}


@pytest.mark.parametrize("name", STATES)
def test_r24_the_page_draws_only_public_tiles_and_the_viewers_own_hand(name):
    st = STATES[name]()
    seats = S.seats(st.players)
    for seat in range(st.players):
        html = render(view(st, seat), seats)
        allowed = public_tiles(st) | set(st.hands[seat])
        assert set(drawn_tiles(html)) <= allowed
        assert sorted(t for t, _ in hand_attrs(html)) == sorted(spoken(t) for t in st.hands[seat])
    spectator = render(view(st, None), seats, viewer=Viewer())
    assert set(drawn_tiles(spectator)) <= public_tiles(st)
    assert "data-tile=" not in spectator and "Watching" in spectator


def test_r24_the_relay_cover_page_holds_no_hand_at_all():
    st = S.play_until(S.start(3, seed=5), lambda s: s.phase == "play" and s.turn == 1)
    seats = S.seats(3, {0: "local", 1: "local", 2: "local"})
    html = render(view(st, None), seats, viewer=Viewer(controlled=(0, 1, 2), revealed=0))
    assert 'data-reveal="1"' in html and "Pass the device to Ben" in html
    assert "data-tile=" not in html
    assert set(drawn_tiles(html)) <= public_tiles(st)


@pytest.mark.parametrize("name", ["first", "mid4", "mid10", "draw", "double"])
def test_r23_data_targets_equal_the_legal_plays(name):
    st = STATES[name]()
    html = render(view(st, st.turn), S.seats(st.players))
    legal = legal_actions(st)
    for tile, targets in hand_attrs(html):
        expected = sorted(str(a.train) for a in legal if a.act == "play" and spoken(a.tile) == tile)
        assert sorted(targets.split()) == expected
    trains = re.findall(r'data-train="([^"]+)"', html)
    assert trains == [str(i) for i in range(st.players)] + ["mexican"]
    acts = set(re.findall(r' data-act="(\w+)"', html))
    assert acts == {a.act for a in legal if a.act != "play"}


def test_r7_r9_r15_action_buttons_only_when_legal():
    st = S.start(4)
    assert 'data-act="engine"' in render(view(st, st.holder), S.seats(4))
    assert 'data-act="engine"' not in render(view(st, (st.holder + 1) % 4), S.seats(4))
    st = S.with_draw(4)
    html = render(view(st, st.turn), S.seats(4))
    # The only legal action is to draw: one click draws, no dialog first.
    assert (
        'data-act="draw"' in html and 'id="draw-dialog"' not in html and 'data-only="draw"' in html
    )
    assert 'data-act="pass"' not in html and 'data-act="end"' not in html
    st = S.first_turn_chain(4)
    html = render(view(st, st.turn), S.seats(4))
    assert 'data-act="end"' in html and 'id="end-dialog"' in html and 'data-only=""' in html
    waiting = render(view(st, (st.turn + 1) % 4), S.seats(4))
    # While others play the tools stay where they are, disabled (a click never lands on another control).
    assert " data-act=" not in waiting and buttons(waiting, "hint") == ["disabled"]


def test_r27_r28_commands_only_when_allowed():
    st = S.mid_game(4)
    plain = render(view(st, 0), S.seats(4))
    # Undo and Redo stand in the bar, disabled, so the bar does not shift when they come.
    assert (
        buttons(plain, "undo") == buttons(plain, "redo") == ["disabled"]
        and 'data-cmd="restart"' not in plain
    )
    offered = render(
        view(st, 0),
        S.seats(4),
        flags=Flags(
            undo=True, redo=True, restart=True, undo_text="Undo your 6-4 and 3 computer moves"
        ),
    )
    assert (
        buttons(offered, "undo") == buttons(offered, "redo") == ["enabled"]
        and 'data-cmd="restart"' in offered
    )
    # What Undo takes back is its label, not only its tooltip.
    undo = re.search(r'<button[^>]*data-cmd="undo".*?</button>', offered, re.S).group(0)
    assert "Undo your 6-4 and 3 computer moves" in visible_text(undo)
    spectator = render(view(st, None), S.seats(4), viewer=Viewer())
    assert 'data-cmd="undo"' not in spectator and 'data-cmd="hint"' not in spectator


def buttons(html: str, cmd: str) -> list[str]:
    """Each button of `html` sending `cmd`: "disabled" or "enabled"."""
    return [
        "disabled" if re.search(r"\sdisabled[\s>]", tag) else "enabled"
        for tag in re.findall(rf'<button[^>]*data-cmd="{cmd}"[^>]*>', html)
    ]


def test_board_carries_version_turn_and_title():
    st = S.mid_game(4)
    html = render(view(st, st.turn), S.seats(4), flags=Flags(match_id=9, version=42))
    assert 'data-version="42"' in html and 'data-match="9"' in html
    assert f'data-turn="{st.turn}"' in html and 'data-your-turn="true"' in html
    assert 'data-title="Your turn' in html and "hand--turn" in html


def test_r21_round_end_shows_every_hand_penalties_and_next_round():
    history, st = S.history_of(4, seed=7, rounds=2)
    html = render(view(st, 0), S.seats(4), flags=Flags(next_round=True, history=tuple(history)))
    assert set(drawn_tiles(html)) >= {t for h in st.hands for t in h}
    assert 'data-cmd="next_round"' in html and "data-tile=" not in html
    assert "lowest this round" in html
    text = visible_text(html)
    for seat, pts in enumerate(st.round_points):
        assert f"{S.NAMES[seat]}" in text and f"+{pts}" in text.replace("+ ", "+")


def test_r22_match_end_shows_winners_totals_and_the_features_offered_there():
    history, st = S.history_of(3, seed=11)
    flags = Flags(offers=S.again_offer(3), history=tuple(history))
    html = render(view(st, 0), S.seats(3), flags=flags)
    assert 'data-cmd="play_again"' in html  # an end offer renders in the panel (slot "end")
    # once another match follows at the table and no offer shows the way, the panel's own link
    made = Flags(history=tuple(history), next_match_url="/m/9/")
    assert 'href="/m/9/"' in render(view(st, 0), S.seats(3), flags=made)
    assert "The match is over" in html
    assert html.count("<tr>") >= 13 + 2  # the scoreboard of all 13 rounds (twice: panel and dialog)


EXPECTED = {
    "es": ["Tren público", "Pozo", "Ronda", "Pista", "Registro", "Reglas"],
    "de": ["Öffentliche Bahn", "Vorrat", "Runde", "Hinweis", "Verlauf", "Regeln"],
}


def all_pages(lang):
    """The board in every situation, rendered in `lang`."""
    out = []
    for name in STATES:
        st = STATES[name]()
        out.append(
            render(
                view(st, st.turn),
                S.seats(st.players),
                lang=lang,
                flags=Flags(undo=True, redo=True, restart=True, paused=True),
            )
        )
        out.append(render(view(st, None), S.seats(st.players), viewer=Viewer(), lang=lang))
    st = S.with_draw(4)
    drawn = apply(st, Action("draw", st.turn))
    out.append(render(view(drawn, drawn.turn), S.seats(4), lang=lang))
    st = S.play_until(S.start(3, seed=5), lambda s: s.phase == "play" and s.turn == 1)
    out.append(
        render(
            view(st, None),
            S.seats(3, {0: "local", 1: "local", 2: "local"}),
            viewer=Viewer(controlled=(0, 1, 2), revealed=0),
            lang=lang,
        )
    )
    history, st = S.history_of(4, seed=7, rounds=2)
    out.append(
        render(
            view(st, 0), S.seats(4), flags=Flags(next_round=True, history=tuple(history)), lang=lang
        )
    )
    history, st = S.history_of(3, seed=11)
    with translation.override(lang):
        again = S.again_offer(3)
    out.append(
        render(
            view(st, 0), S.seats(3), flags=Flags(offers=again, history=tuple(history)), lang=lang
        )
    )
    return out


@pytest.mark.parametrize("lang", ["es", "de"])
def test_the_board_speaks_spanish_and_german_without_english(lang):
    pages = all_pages(lang)
    leaks = set()
    for html in pages:
        leaks.update(english_leaks(f'<html lang="{lang}"><body>{html}</body></html>', lang))
    assert not leaks
    text = " ".join(visible_text(p) for p in pages)
    for word in EXPECTED[lang]:
        assert word in text


def test_english_board_renders_every_situation():
    for html in all_pages("en"):
        assert html.strip().startswith('<div class="board')
