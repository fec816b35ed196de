"""A board read is one snapshot (fault 6: 1 frame in 1,427 showed a mixed version label).

The board's reads (games.table.board_reads) are several statements: the match row, its
seats, its rounds, the round's log. A change committed by another connection between
two of them must not show up in the later ones: the board of version v carries v's last
line and v's Undo, never v + 1's.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection

from games import services
from games.board.viewer import Viewer
from games.table import board, board_reads
from tests.games.conftest import Driver

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_change_between_two_reads_of_a_board_is_not_seen(
    make_match: Any, alice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = make_match("me", "computer")
    driver = Driver(match, {0: alice}, rng_seed=11)
    driver.until(lambda s: s.phase == "play" and s.turn == 0)

    def write() -> None:  # another server's connection plays and commits
        try:
            driver.step()  # alice's action
            services.computer_step(match_id=match.pk)  # and the computer's answer
        finally:
            connection.close()

    real = board_reads._rows
    done: list[bool] = []

    def interleaved(name: str, params: list[Any]) -> list[tuple[Any, ...]]:
        rows = real(name, params)
        if name == "seats" and not done:  # after the match row, before the rounds and the log
            done.append(True)
            worker = threading.Thread(target=write)
            worker.start()
            worker.join()
        return rows

    monkeypatch.setattr(board_reads, "_rows", interleaved)
    board_reads.forget()
    reads = board_reads.current(match.pk, at_least=None)
    assert done and reads is not None
    version = reads.version
    assert reads.last is not None and reads.last.version <= version, (
        f"a board labelled version {version} shows the log line of version {reads.last.version}"
    )
    assert all(line.version <= version for line in reads.folded.effective)
    message = board.board_message(
        match=reads.match, viewer=Viewer(user=alice, controlled=(0,)), reads=reads
    )
    assert message["version"] == version
    driver.match.refresh_from_db()
    assert driver.match.version > version  # the write did happen, after the snapshot
