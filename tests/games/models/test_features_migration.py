"""What the table's features keep on a match moved to one field (games/migrations/0007): a
match's Play again answers, kept until then in their own field, are found under the
feature's name, and migrating back puts them where they were."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0006_log_kinds_from_the_registry")]
AFTER = [("games", "0007_match_features")]
ANSWERS = {"yes": [3], "no": [4], "seats": {"1": "open"}, "next": None}


def migrate(to: list[tuple[str, str]]) -> Any:
    """The project's models as they were at `to`, once migrated there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(to)
    return executor.loader.project_state(to).apps


def test_play_agains_answers_move_under_the_features_name_and_back(make_match: Any) -> None:
    answered, quiet = make_match("me", "computer"), make_match("me", "computer")
    try:
        old = migrate(BEFORE)
        old.get_model("games", "Match").objects.filter(pk=answered.pk).update(again=ANSWERS)
        new = migrate(AFTER).get_model("games", "Match")
        assert new.objects.get(pk=answered.pk).features == {"play_again": ANSWERS}
        assert new.objects.get(pk=quiet.pk).features == {}
        back = migrate(BEFORE).get_model("games", "Match")
        assert back.objects.get(pk=answered.pk).again == ANSWERS
        assert back.objects.get(pk=quiet.pk).again is None
    finally:
        migrate(AFTER)
