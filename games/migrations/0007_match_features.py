"""What the table's features keep on a match moves to one field, each under its own name:
Play again's answers, kept until now in their own field, become ``features["play_again"]``."""

from django.db import migrations, models


def to_features(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    for match in Match.objects.exclude(again=None).only("pk", "again").iterator():
        Match.objects.filter(pk=match.pk).update(features={"play_again": match.again})


def from_features(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    for match in Match.objects.exclude(features={}).only("pk", "features").iterator():
        again = (match.features or {}).get("play_again")
        if again is not None:
            Match.objects.filter(pk=match.pk).update(again=again)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_log_kinds_from_the_registry"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="features",
            field=models.JSONField(blank=True, default=dict, editable=False, verbose_name="features"),
        ),
        migrations.RunPython(to_features, from_features),
        migrations.RemoveField(model_name="match", name="again"),
    ]
