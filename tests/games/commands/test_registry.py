"""The commands' registry (games/commands/): each wing registers its own commands when its app
starts — every module of games/table/commands, table talk's games/chat/commands.py — the
table's protocol parses exactly what is registered, an offered command's template renders its
menu item and its dialog from the offer alone, and a wing's connection extension takes the
group events it names."""

from __future__ import annotations

import importlib
import json
import pkgutil
from pathlib import Path

import pytest
from django.template import engines

from games import commands
from games.commands import Offer, Spec, extensions
from games.table import commands as table_commands
from games.table import protocol


def test_every_module_registers_and_the_protocol_parses_what_is_registered() -> None:
    modules = [m.name for m in pkgutil.iter_modules(table_commands.__path__)]
    assert {"last_round", "undo", "restart", "act"} <= set(modules)
    for name in modules:  # each of the table's command modules, all its commands
        module = importlib.import_module(f"games.table.commands.{name}")
        for spec in getattr(module, "commands", None) or [module.command]:
            assert commands.COMMANDS[spec.name] is spec, name
    chat = importlib.import_module("games.chat.commands")  # the chat wing's, by its app
    assert chat.commands and all(commands.COMMANDS[s.name] is s for s in chat.commands)
    for name, spec in commands.COMMANDS.items():
        assert spec.name == name and callable(spec.handler)
        frame = {"type": name, **{field.name: field.example for field in spec.fields}}
        assert protocol.parse(json.dumps(frame)).type == name


def test_a_name_is_one_commands_and_one_extensions() -> None:
    """Registering the same command again changes nothing; another command of a registered
    name, or a second handler of an event a wing handles, is refused."""
    undo = commands.COMMANDS["undo"]
    before = dict(commands.COMMANDS)
    commands.register(undo)
    assert commands.COMMANDS == before
    with pytest.raises(ValueError, match="two commands named undo"):
        commands.register(Spec("undo", (), undo.handler))
    chat = extensions.EXTENSIONS["chat"]
    extensions.register(chat)
    with pytest.raises(ValueError, match="two handlers of the event chat.event"):
        extensions.register(extensions.Extension("echo", chat.opened, dict(chat.events)))
    assert "echo" not in extensions.EXTENSIONS and commands.COMMANDS == before


def test_table_talk_extends_each_connection_without_the_table_naming_it() -> None:
    """The chat's extension gives a starting connection its state (with the watch token it
    came with) and takes the ``chat.event``s of the match's group."""
    from games.chat import live

    class Connection:
        pass

    connection = Connection()
    extensions.opened(connection, "tok")
    assert vars(connection)["chat"] == live.Chat(token="tok")
    assert extensions.EVENTS["chat.event"] is live.deliver


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


def test_the_protocol_document_lists_every_command_as_the_registry_makes_it() -> None:
    """docs/protocol.md's table of client commands is the one the registry makes (each
    registered command once, with the fields it takes and what it asks, then each field's
    type): a command added, a field more or less, or its words changed without
    ``manage.py protocol_table`` fails here."""
    from games.management.commands.protocol_table import BEGIN, END

    text = (Path(__file__).resolve().parents[3] / "docs" / "protocol.md").read_text()
    table = text.split(BEGIN + "\n", 1)[1].split(END, 1)[0]
    assert table == commands.protocol_table()
    for name, spec in commands.COMMANDS.items():
        assert spec.says.strip(), f"{name} does not say what it asks"
        assert f"| `{name}` |" in table
    kinds: dict[str, set[str]] = {}
    for spec in commands.COMMANDS.values():
        for field in spec.fields:
            kinds.setdefault(field.name, set()).add(field.kind)
    assert {name: k for name, k in kinds.items() if len(k) > 1} == {}  # one type per name


def test_the_protocol_table_is_rewritten_between_its_markers_alone() -> None:
    from games.management.commands.protocol_table import BEGIN, END, rewrite

    doc = f"# Protocol\n\n{BEGIN}\n| old |\n{END}\n\nAfter.\n"
    assert rewrite(doc, "| new |\n") == f"# Protocol\n\n{BEGIN}\n| new |\n{END}\n\nAfter.\n"


#: the rules named for what their commands do rather than for one command: who may answer a
#: request (``accept``, ``decline``) and who may pause the computers (``panel``)
SHARED_RULES = {"answer": {"accept", "decline"}, "pause": {"panel"}}
#: the services the table's commands call that live in the root (so the worker, the admin or
#: another service reaches them too): their modules declare their commands' rules
ROOT_SERVICES = {"games.services.asking", "games.services.moves", "games.services.pauses"}


def test_a_features_rule_and_consent_kind_are_declared_by_its_own_module() -> None:
    """A feature's permission rule (games.permissions.RULES: named as the command it allows)
    and the change it asks of the others (games.consent.KINDS) are declared by the command's
    module, with their words and what accepting does, or where its service lives in the root,
    by that service's module: nothing about a feature is written elsewhere."""
    import importlib

    from games import consent, permissions

    assert permissions.RULES and consent.KINDS
    names = {spec.name for spec in commands.COMMANDS.values()}
    for name, rule in permissions.RULES.items():
        module = rule.allows.__module__
        assert module.startswith("games.table.commands.") or module in ROOT_SERVICES, name
        assert rule.refusal.__module__ == module, name
        assert rule in vars(importlib.import_module(module)).values(), name
        assert SHARED_RULES.get(name, {name}) <= names, name
    for name, kind in consent.KINDS.items():
        module = vars(importlib.import_module(f"games.table.commands.{name}"))
        assert kind in module.values()
        # its words are its module's own (its WORDS), each of them
        assert all(getattr(kind, key) is module["WORDS"][key] for key in consent.WORDS), name


def test_a_features_log_kind_has_its_line_and_label_in_its_own_module() -> None:
    """A log kind a command module registers (games.log.KINDS) has its line there, and its
    label among that module's words: no feature's log words live in games/log/."""
    import importlib

    from games import log

    features = [k for k in log.KINDS.values() if k.line.__module__.startswith("games.table.")]
    assert {k.name for k in features} >= {"undo", "redo", "restart", "last_round"}
    for kind in features:
        module = vars(importlib.import_module(kind.line.__module__))
        assert kind in module.values(), kind.name  # registered where its line is
        if "WORDS" in module:
            assert any(kind.label is words for words in module["WORDS"].values()), kind.name
