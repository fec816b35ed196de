"""Model instances from rows read in SQL written out (`from_row`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from django.db import connection, models, router

M = TypeVar("M", bound=models.Model)


def from_row(model: type[M], fields: Sequence[Any], row: Sequence[Any]) -> M:
    """The instance a query loading `fields` (in the model's field order) gives for `row`,
    for the statements written out in SQL on every action (games.services, games.table.board_reads).

    Each value is converted as the ORM converts it (a JSONField's text is decoded); the
    fields not read are deferred, loaded if asked for."""
    values = [
        f.from_db_value(value, None, connection) if hasattr(f, "from_db_value") else value
        for f, value in zip(fields, row, strict=True)
    ]
    return model.from_db(router.db_for_read(model), [f.attname for f in fields], values)
