"""Render the table page for several engine states to static HTML files, for looking at.

    PYTHONPATH=. DEBUG=true DATABASE_URL=postgres://unused@127.0.0.1:1/x \\
        .venv/bin/python -m tests.games.table.snapshots OUT_DIR [LANG]

Writes OUT_DIR/<state>.html (static files linked from the repository), so headless
Chromium can screenshot them:
``chromium --headless --no-sandbox --screenshot=x.png --window-size=1280,900 file://OUT_DIR/start.html``.
No database is used: the presenter gets the engine's views directly.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

REPO = Path(__file__).resolve().parents[3]


def pages() -> dict[str, tuple[Any, Any, Any]]:
    """name -> (view, seats, viewer, flags) for each interesting state."""
    from engine.rules import apply
    from engine.state import Action
    from engine.views import view
    from games.board.presenter import Flags
    from games.board.viewer import Viewer
    from tests.games.board import states as S

    out: dict[str, Any] = {}
    st = S.start(4)
    out["start"] = (
        view(st, st.holder),
        S.seats(4, {1: "computer", 3: "computer"}),
        None,
        Flags(version=1),
    )
    st = S.first_turn_chain(4)
    out["first_turn"] = (
        view(st, st.turn),
        S.seats(4),
        None,
        Flags(version=5, undo=True, restart=True),
    )
    st = S.mid_game(4, plays_after_first=14)
    out["mid_4"] = (
        view(st, st.turn),
        S.seats(4, {2: "computer"}),
        None,
        Flags(version=30, undo=True, redo=True, restart=True, last_event="Ben drew a tile"),
    )
    st = S.mid_game(10, seed=3, plays_after_first=30)
    out["mid_10"] = (
        view(st, st.turn),
        S.seats(10, {i: "computer" for i in range(1, 10)}),
        None,
        Flags(version=80, restart=True, history=((3, 0, 12, 40, 7, 9, 22, 13, 5, 30),)),
    )
    st = S.with_draw(4)
    out["draw"] = (view(st, st.turn), S.seats(4), None, Flags(version=40))
    drawn = apply(st, Action("draw", st.turn))
    out["drawn"] = (view(drawn, drawn.turn), S.seats(4), None, Flags(version=41))
    st = S.with_open_double(4)
    other = (st.turn + 1) % 4
    out["open_double_waiting"] = (view(st, other), S.seats(4), None, Flags(version=50, paused=True))
    out["open_double"] = (view(st, st.turn), S.seats(4), None, Flags(version=50))
    st = S.mid_game(5, seed=9, plays_after_first=10)
    out["spectator"] = (view(st, None), S.seats(5, {1: "computer"}), Viewer(), Flags(version=60))
    relay_viewer = Viewer(controlled=(0, 1, 2), revealed=None)
    st = S.play_until(S.start(3, seed=5), lambda s: s.phase == "play" and s.turn == 1)
    out["relay"] = (
        view(st, None),
        S.seats(3, {0: "local", 1: "local", 2: "local"}),
        relay_viewer,
        Flags(version=33),
    )
    history, st = S.history_of(4, seed=7, rounds=3)
    out["round_over"] = (
        view(st, 0),
        S.seats(4, {1: "computer"}),
        None,
        Flags(version=200, next_round=True, history=tuple(history)),
    )
    history, st = S.history_of(3, seed=11)
    out["match_over"] = (
        view(st, 0),
        S.seats(3, {2: "computer"}),
        None,
        Flags(version=900, offers=S.again_offer(3, {2: "computer"}), history=tuple(history)),
    )
    return out


def render_page(v: Any, seats: Any, viewer: Any, flags: Any) -> str:
    from django.contrib.auth.models import AnonymousUser
    from django.template.loader import render_to_string
    from django.test import RequestFactory

    from games.board.draw import board_html
    from games.board.presenter import present
    from games.table.words import script_words

    b = present(v, seats, viewer=viewer, flags=flags)
    request = RequestFactory().get("/m/1/")
    request.user = AnonymousUser()
    html = render_to_string(
        "games/table.html",
        {
            "b": b,
            "board_html": board_html(b),
            "match": SimpleNamespace(pk=1),
            "ws_path": "/ws/m/1/",
            "watch_token": "",
            "strings": script_words(),
        },
        request=request,
    )
    return html.replace('"/static/', f'"file://{REPO}/static/')


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tablesite.settings")
    os.environ.setdefault("DEBUG", "true")
    os.environ.setdefault("DATABASE_URL", "postgres://unused@127.0.0.1:1/unused")
    import django

    django.setup()
    from django.utils import translation

    out = Path(argv[1] if len(argv) > 1 else "/tmp/board-shots")
    lang = argv[2] if len(argv) > 2 else "en"
    out.mkdir(parents=True, exist_ok=True)
    with translation.override(lang):
        for name, (v, seats, viewer, flags) in pages().items():
            (out / f"{name}.html").write_text(render_page(v, seats, viewer, flags))
            print(out / f"{name}.html")


if __name__ == "__main__":
    main(sys.argv)
