"""The site's running processes on this database, each with the channel layer it speaks."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Server(models.Model):
    """A running process of the site on this database (a server, or ``manage.py
    run_computers``) and the channel layer it speaks (games.processes.servers): processes whose
    layers differ would not hear each other's notices, so one that differs from those
    running refuses to start.

    A row counts while its process holds the PostgreSQL advisory lock
    (`games.processes.servers.LOCK_SPACE`, the row's id) on a connection of its own, so a killed
    process stops counting as soon as PostgreSQL sees its connection close; a row left by
    one is deleted by the next process to start."""

    class Kind(models.TextChoices):
        SERVER = "server", _("server")
        COMPUTERS = "computers", _("computer players")

    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    #: the machine's host name and the process id, as an operator finds the process
    host = models.CharField(_("host"), max_length=255)
    pid = models.IntegerField(_("process id"))
    #: `tablesite.env.layer_identity`'s key: "memory", or "redis:" and a hash of where (no secret)
    layer = models.CharField(_("channel layer"), max_length=64)
    #: the same in words, e.g. "Redis redis://10.0.0.5:6379/0" (never a user name or password)
    layer_label = models.CharField(_("channel layer in words"), max_length=300)
    started_at = models.DateTimeField(_("started"), default=timezone.now)

    class Meta:
        verbose_name = _("running server")
        verbose_name_plural = _("running servers")

    def __str__(self) -> str:
        return f"{self.kind} {self.host}:{self.pid} ({self.layer_label})"
