"""What table talk costs the database: `games.chat.services.say` per message (permission
reads, the advisory lock, the flood count, the insert) and `history` of a room's last 100
lines (what a page's ``chat_join`` reads). Runs against the configured database (a dev one):

    DEBUG=true DATABASE_URL=postgres://… python manage.py migrate
    DEBUG=true DATABASE_URL=postgres://… python manage.py shell -c "from bench.chat_cost import main; main()"

It makes a match of two users and removes it afterwards; the flood limit is lifted for the run.
"""

from __future__ import annotations

import statistics
import time

from django.contrib.auth import get_user_model

from games import services
from games.chat import services as chat
from games.chat.models import Message
from games.services import SeatSpec
from tests import seeded


def _median_ms(fn: object, times: int) -> tuple[list[float], float]:
    runs = []
    for _run in range(3):
        start = time.perf_counter()
        for i in range(times):
            fn(i)  # type: ignore[operator]
        runs.append(round((time.perf_counter() - start) * 1000 / times, 2))
    return runs, statistics.median(runs)


def main() -> None:
    users = get_user_model()
    ana, _ = users.objects.get_or_create(username="bench_chat_ana")
    ben, _ = users.objects.get_or_create(username="bench_chat_ben")
    match = seeded.match_create(
        creator=ana,
        seed=1,
        seats=[SeatSpec("me"), SeatSpec("human"), SeatSpec("computer", level="casual")],
    )
    services.seat_join(match_id=match.pk, user=ben, token=match.invite_token)
    limit, chat.FLOOD_COUNT = chat.FLOOD_COUNT, 10**9
    try:

        def say(i: int) -> None:
            chat.say(
                match_id=match.pk,
                user=ana if i % 2 else ben,
                room="players",
                code="good_move" if i % 3 else None,
                words=None if i % 3 else f"line {i}",
            )

        runs, median = _median_ms(say, 100)
        print(f"say ms/message, 3 runs of 100: {runs}, median {median:.2f}")
        runs, median = _median_ms(lambda i: chat.history(match.pk, "players"), 20)
        print(f"history(100 lines) ms, 3 runs of 20: {runs}, median {median:.2f}")
    finally:
        chat.FLOOD_COUNT = limit
        Message.objects.filter(match=match).delete()
        match.delete()
