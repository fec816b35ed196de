"""What table talk costs the database: `games.chat.services.say` per message (permission
reads, the advisory lock, the flood count, the insert) and `history` of a room's last 100
lines (what a page's ``chat_join`` reads). Runs against the configured database (a dev one):

    DEBUG=true DATABASE_URL=postgres://… python manage.py migrate
    DEBUG=true DATABASE_URL=postgres://… python manage.py shell -c "exec(open('bench/chat_cost.py').read())"

It makes a match of two users and removes it afterwards; the flood limit is lifted for the run.
"""
import statistics
import time

from django.contrib.auth import get_user_model

from games import services
from games.chat import services as chat
from games.chat.models import Message
from games.services import SeatSpec

U = get_user_model()
ana, _ = U.objects.get_or_create(username="bench_chat_ana")
ben, _ = U.objects.get_or_create(username="bench_chat_ben")
match = services.match_create(creator=ana, seed=1, seats=[SeatSpec("me"), SeatSpec("human"), SeatSpec("computer", level="basic")])
services.seat_join(match_id=match.pk, user=ben, token=match.invite_token)
chat.FLOOD_COUNT = 10**9
runs = []
for _run in range(3):
    t = time.perf_counter()
    for i in range(100):
        chat.say(match_id=match.pk, user=ana if i % 2 else ben, room="players", code="good_move" if i % 3 else None, words=None if i % 3 else f"line {i}")
    runs.append((time.perf_counter() - t) * 1000 / 100)
hist = []
for _run in range(3):
    t = time.perf_counter()
    for _ in range(20):
        chat.history(match.pk, "players")
    hist.append((time.perf_counter() - t) * 1000 / 20)
print("say ms/message, 3 runs:", [round(x, 2) for x in runs], "median", round(statistics.median(runs), 2))
print("history(100 lines) ms, 3 runs:", [round(x, 2) for x in hist], "median", round(statistics.median(hist), 2))
Message.objects.filter(match=match).delete()
match.delete()
