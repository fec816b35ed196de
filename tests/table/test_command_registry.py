"""A command is a module: every module of games/table/commands registers its
commands, the protocol parses exactly those, and an offered command's template renders its
menu item and its dialog from the offer alone."""

from __future__ import annotations

import json
import pkgutil
from pathlib import Path

from django.template import engines

from games.table import commands, protocol
from games.table.commands import Offer


def test_every_module_registers_and_the_protocol_parses_what_is_registered() -> None:
    names = {m.name for m in pkgutil.iter_modules([str(Path(commands.__file__).parent)])}
    assert {"last_round", "undo", "restart", "act"} <= names
    assert set(protocol.FIELDS) == set(commands.COMMANDS)
    for name, spec in commands.COMMANDS.items():
        assert spec.name == name and callable(spec.handler)
        frame = {"type": name, **{field: _sample(field) for field in spec.fields}}
        assert protocol.parse(json.dumps(frame)).type == name


def _sample(field: str) -> object:
    return {
        "seat": 0,
        "action": {"act": "draw"},
        "version": 1,
        "request_id": "r-1",
        "open": True,
        "pace": "fast",
        "ask": 1,
        "on": True,
        "limit": "1h",
        "room": "players",
        "say": "good_move",
        "text": "Hello",
        "ref": 1,
        "become": "casual",
    }[field]


def test_an_offer_renders_its_menu_item_and_its_dialog_from_its_own_words() -> None:
    offer = Offer(
        "last_round",
        "games/commands/last_round.html",
        (("label", "L"), ("title", "T"), ("text", "X"), ("confirm", "C"), ("cancel", "N")),
    )
    template = engines["jinja2"].get_template(offer.template)
    menu = template.render({"o": offer, "slot": "menu"})
    after = template.render({"o": offer, "slot": "after"})
    assert 'data-dialog="last-round-dialog"' in menu and ">L<" in menu and "<dialog" not in menu
    assert (
        'data-cmd="last_round"' in after
        and ">T<" in after
        and ">C<" in after
        and "data-close" in after
    )
