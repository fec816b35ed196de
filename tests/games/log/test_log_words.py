"""games.log.words: the log in words. A draw never names the tile (R15, R24)."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.log.words import describe, describe_entry

NAMES = ["Ana", "Ben", "Computer 3"]


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def test_plays_name_the_tile_and_the_train():
    assert (
        describe({"seat": 0, "act": "play", "tile": "3-5", "train": 0}, NAMES)
        == "Ana played 5-3 on their own train"
    )
    assert (
        describe({"seat": 0, "act": "play", "tile": "3-5", "train": 1}, NAMES)
        == "Ana played 5-3 on Ben's train"
    )
    assert (
        describe({"seat": 2, "act": "play", "tile": "6-4", "train": "mexican"}, NAMES)
        == "Computer 3 played 6-4 on the Mexican train"
    )


def test_the_viewer_reads_their_own_lines_in_the_second_person():
    assert (
        describe({"seat": 1, "act": "play", "tile": "3-5", "train": 1}, NAMES, 1)
        == "You played 5-3 on your own train"
    )
    assert describe({"seat": 1, "act": "draw"}, NAMES, 1) == "You drew a tile"
    assert describe({"seat": 1, "act": "draw"}, NAMES, None) == "Ben drew a tile"
    assert (
        describe({"seat": 2, "act": "play", "tile": "11-2", "train": 0}, NAMES, 0)
        == "Computer 3 played 11-2 on your train"
    )


def test_r15_r24_a_draw_never_shows_the_tile_in_any_language():
    entry = {"seat": 1, "act": "draw", "tile": "12-12"}  # even if a tile were stored
    for lang in ("en", "es", "de"):
        with translation.override(lang):
            for viewer in (None, 0, 1):
                line = describe(entry, NAMES, viewer)
                assert "12" not in line


def test_other_actions():
    assert describe({"seat": 0, "act": "engine"}, NAMES, engine=12) == "Ana placed the engine 12-12"
    assert describe({"seat": 0, "act": "pass"}, NAMES) == "Ana passed; their train is open"
    assert describe({"seat": 2, "act": "end"}, NAMES) == "Computer 3 ended their first turn"
    assert describe({"act": "next_round"}, NAMES) == "The next round started"


def test_undo_counts_with_plural_forms():
    assert (
        describe_entry("undo", {"count": 1}, NAMES, actor="ana") == "ana took back 1 action (undo)"
    )
    assert (
        describe_entry("undo", {"count": 3}, NAMES, actor="ana") == "ana took back 3 actions (undo)"
    )
    with translation.override("de"):
        assert "3 Aktionen" in describe_entry("undo", {"count": 3}, NAMES, actor="ana")
        assert "1 Aktion " in describe_entry("undo", {"count": 1}, NAMES, actor="ana")
    assert "redo" in describe_entry("redo", None, NAMES, actor="ana")
    assert "restarted" in describe_entry("restart", None, NAMES, actor="ana")


def test_the_viewers_own_undo_redo_restart_and_last_round_read_in_the_second_person():
    """Who asked is the viewer (their seat bears that name): the line says "You", as their own
    moves do; anyone else's keeps the name, and a spectator reads names."""
    mine = {"undo": "You took back 2 actions (undo)", "redo": "You restored what was taken "
            "back (redo)", "restart": "You restarted the round with the same deal",
            "last_round": "You made this round the match's last"}  # fmt: skip
    for kind, line in mine.items():
        action = {"count": 2} if kind == "undo" else None
        assert describe_entry(kind, action, NAMES, 0, actor="Ana") == line
        assert describe_entry(kind, action, NAMES, 1, actor="Ana").startswith("Ana ")
        assert describe_entry(kind, action, NAMES, None, actor="Ana").startswith("Ana ")
    with translation.override("es"):
        assert describe_entry("undo", {"count": 1}, NAMES, 0, actor="Ana") == (
            "Deshiciste 1 acción"
        )
    with translation.override("de"):
        assert describe_entry("restart", None, NAMES, 0, actor="Ana") == (
            "Du hast die Runde mit derselben Verteilung neu gestartet"
        )


def test_translated_lines():
    play = {"seat": 0, "act": "play", "tile": "3-5", "train": "mexican"}
    with translation.override("es"):
        assert describe(play, NAMES) == "Ana jugó 5-3 en el tren público"
    with translation.override("de"):
        assert describe(play, NAMES) == "Ana legte 5-3 an die öffentliche Bahn"
