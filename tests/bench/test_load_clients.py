"""The load benchmark's clients read both kinds of frames the table sends: the whole board
(``{"type": "board", "version": …, "html": …}``) and an update carrying only the changed
parts (``{"type": "update", "v": …, "parts": {id: html}, "board": {attr: value}}``), which
they splice into the board they hold by element id, as the page does. No server here."""

from __future__ import annotations

from bench.load_clients import Document, choose, frame_version, replace_part

BOARD = (
    '<div class="board" data-version="7" data-phase="playing" data-seat="1" data-your-turn="false">'
    '<div id="status"><p>Ana plays</p></div>'
    '<section id="hand" class="hand" data-seat="1">'
    '<button data-tile="12-5" data-targets="">12-5</button><div><div></div></div></section>'
    '<div id="tools"><input id="box"></div>'
    "</div>"
)


def test_version_from_either_frame() -> None:
    assert frame_version({"type": "board", "version": 7}) == 7
    assert frame_version({"type": "update", "v": 8, "parts": {}}) == 8
    assert frame_version({"type": "update"}) == -1


def test_a_part_is_replaced_whole_with_its_nested_elements() -> None:
    new = '<section id="hand" class="hand" data-seat="1"><button data-tile="3-3" data-targets="0 m">3-3</button></section>'
    out = replace_part(BOARD, "hand", new)
    assert "12-5" not in out and "3-3" in out
    assert out.count("<section") == out.count("</section>") == 1
    assert out.endswith('<div id="tools"><input id="box"></div></div>')


def test_void_and_missing_parts() -> None:
    assert replace_part(BOARD, "box", '<input id="box" value="1">').count('value="1"') == 1
    assert replace_part(BOARD, "train-9", '<div id="train-9"></div>').endswith(
        '<div id="train-9"></div>'
    )


def test_an_update_makes_it_this_seats_turn() -> None:
    doc = Document()
    doc.apply({"type": "board", "version": 7, "html": BOARD, "your_turn": False})
    assert doc.version == 7 and not doc.your_turn
    doc.apply(
        {
            "type": "update",
            "v": 8,
            "events": [{"kind": "played"}],
            "parts": {
                "hand": '<section id="hand" class="hand" data-seat="1">'
                '<button data-tile="4-2" data-targets="m 1">4-2</button></section>'
            },
            "board": {"data-your-turn": "true", "data-version": "8"},
        }
    )
    assert doc.version == 8 and doc.your_turn
    assert 'data-version="8"' in doc.html and 'data-your-turn="true"' in doc.html
    assert choose(doc.html, 1) == {"act": "play", "seat": 1, "tile": "4-2", "train": "m"}
    # An update without board attributes keeps the turn the board element says.
    doc.apply({"type": "update", "v": 9, "parts": {"status": '<div id="status"><p>Bo</p></div>'}})
    assert doc.version == 9 and doc.your_turn and "<p>Bo</p>" in doc.html and "Ana" not in doc.html
