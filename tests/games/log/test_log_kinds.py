"""The kinds of log entry as a registry (games.log.KINDS): each is declared by the feature
that writes it, with its label and its line; ``LogEntry.kind``'s choices are read from it and
no constraint lists the kinds, so a new kind needs no migration; an entry of a kind nobody
registered is refused when it is written."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.management import call_command

from games import log
from games.log.words import describe_entry
from games.models import LogEntry, Match
from games.services.store import _append

pytestmark = pytest.mark.django_db

#: where each kind is declared: the module of the feature that writes its entries
DECLARED_BY = {
    "action": "games.services.moves",
    "undo": "games.table.commands.undo",
    "redo": "games.table.commands.redo",
    "restart": "games.table.commands.restart",
    "consent": "games.services.asking",
    "last_round": "games.table.commands.last_round",
}


def test_each_kind_is_declared_by_its_feature_and_is_what_the_model_offers() -> None:
    assert set(log.KINDS) == set(DECLARED_BY)
    for name, module in DECLARED_BY.items():
        assert importlib.import_module(module).LOG is log.KINDS[name], name
    field = LogEntry._meta.get_field("kind")
    assert [c for c, _label in field.choices] == list(log.KINDS)
    assert not any(
        "kind__in" in str(getattr(c, "condition", "")) and "consent" in str(c.condition)
        for c in LogEntry._meta.constraints
    )  # no constraint lists the kinds


@pytest.fixture
def note() -> Iterator[log.Kind]:
    """A kind of entry no feature declares, registered for one test only."""
    added = log.register(log.Kind("test_note", "Note", lambda line: f"{line.who} left a note"))
    try:
        yield added
    finally:
        del log.KINDS[added.name]


def test_a_new_kind_needs_no_migration_and_is_written_folded_and_said(
    note: log.Kind, make_match: Callable[..., Match], alice: Any
) -> None:
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)  # SystemExit if not
    match = make_match("me", "computer:casual")
    rnd = match.rounds.get()
    played = LogEntry.objects.filter(round=rnd).count()
    rnd.last_seq = played
    _append(rnd, kind=note.name, version=match.version + 1, user=alice)
    LogEntry.objects.create(round=rnd, seq=played + 2, kind=note.name, version=match.version + 2)
    entries = LogEntry.objects.filter(round=rnd).order_by("seq")
    assert [e.kind for e in entries][-2:] == [note.name, note.name]
    assert len(log.fold(entries).effective) == played  # the actions stay as they are
    assert describe_entry(note.name, None, [], actor="ana") == "ana left a note"
    assert ("test_note", "Note") in LogEntry._meta.get_field("kind").choices


def test_an_unknown_kind_is_refused_in_words_and_nothing_is_written(
    make_match: Callable[..., Match],
) -> None:
    match = make_match("me", "computer:casual")
    rnd = match.rounds.get()
    before = LogEntry.objects.count()
    with pytest.raises(log.UnknownKind, match="no log entry kind is named 'shuffle'"):
        LogEntry(round=rnd, seq=99, kind="shuffle", version=1).save()
    with pytest.raises(log.UnknownKind, match="the registered ones: action, consent"):
        _append(rnd, kind="shuffle", version=match.version + 1)
    assert LogEntry.objects.count() == before
    with pytest.raises(log.BadLog):
        log.fold([LogEntry(kind="shuffle")])


def test_two_kinds_of_one_name_are_refused() -> None:
    with pytest.raises(ValueError, match="two log entry kinds named undo"):
        log.register(log.Kind("undo", "Undo", lambda line: ""))
    with pytest.raises(ValueError, match="1 to 16 characters"):
        log.register(log.Kind("x" * 17, "X", lambda line: ""))
