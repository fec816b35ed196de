"""Issue 12: the computers' pace per match, "skip to my turn", and three computer levels.

The levels "basic" and "strong" are renamed "casual" and "expert" (the same players,
engine.bots); the new "beginner" is the weakest. Going back, a beginner becomes basic.
"""

from django.conf import settings
from django.db import migrations, models

RENAMED = {"basic": "casual", "strong": "expert"}
BACK = {"casual": "basic", "expert": "strong", "beginner": "basic"}


def rename_levels(apps, schema_editor):
    Seat = apps.get_model("games", "Seat")
    for old, new in RENAMED.items():
        Seat.objects.filter(kind="computer", level=old).update(level=new)


def rename_levels_back(apps, schema_editor):
    Seat = apps.get_model("games", "Seat")
    for new, old in BACK.items():
        Seat.objects.filter(kind="computer", level=new).update(level=old)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0002_result_and_log_constraints'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='match',
            name='hurry',
            field=models.BooleanField(default=False, verbose_name='computers hurry'),
        ),
        migrations.AddField(
            model_name='match',
            name='pace',
            field=models.CharField(choices=[('relaxed', 'Relaxed'), ('normal', 'Normal'), ('fast', 'Fast'), ('instant', 'Instant')], default='normal', max_length=10, verbose_name='computer pace'),
        ),
        migrations.AlterField(
            model_name='seat',
            name='level',
            field=models.CharField(blank=True, choices=[('beginner', 'Beginner'), ('casual', 'Casual'), ('expert', 'Expert')], max_length=10, verbose_name='level'),
        ),
        migrations.AddConstraint(
            model_name='match',
            constraint=models.CheckConstraint(condition=models.Q(('pace__in', ['relaxed', 'normal', 'fast', 'instant'])), name='match_pace_valid'),
        ),
        migrations.RunPython(rename_levels, rename_levels_back, elidable=False),
    ]
