# Joins the migrations that five branches of work added side by side on 0002
# (pace, former guests, pause heartbeats, consent requests, the seed's help text); no operations.
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_bots_pace"),
        ("games", "0003_guest_former_guests"),
        ("games", "0003_trusta_pause_heartbeat"),
        ("games", "0003_trustb_requests"),
        ("games", "0003_words_seed_help"),
    ]

    operations = []
