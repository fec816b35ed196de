"""What table talk stores: every message, and every action taken about it.

- `Message`: one line said at a match's table, in one of its two rooms (the players'
  room, the spectators' room): a phrase or reaction by its code (each reader sees it in
  their own language), or free text as written (NFKC, checked by games.chat.text);
- `Mute`: a person one account does not want to read (kept on the account, every table);
- `TableChat`: a match's chat turned off by its creator (no row: on);
- `Report`: a message reported to staff; `Block`: an account staff barred from chat;
- `Action`: the log of every action (mute, unmute, chat off/on, report, hide, block),
  who took it and when.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Room(models.TextChoices):
    PLAYERS = "players", _("Players")
    SPECTATORS = "spectators", _("Spectators")


class Message(models.Model):
    class Kind(models.TextChoices):
        PHRASE = "phrase", _("Phrase")
        REACTION = "reaction", _("Reaction")
        TEXT = "text", _("Text")

    match = models.ForeignKey(
        "games.Match",
        on_delete=models.CASCADE,
        related_name="chat_messages",
        verbose_name=_("match"),
    )
    room = models.CharField(_("room"), max_length=10, choices=Room.choices)
    #: empty once the account was removed (a guest unused for 30 days); `name` stays
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="chat_messages",
        verbose_name=_("author"),
    )
    #: the author's name as it was when they spoke
    name = models.CharField(_("name"), max_length=150)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    #: a phrase's or reaction's code (games.chat.phrases); empty for free text
    code = models.CharField(_("code"), max_length=32, blank=True)
    #: free text as said (at most games.chat.text.MAX_TEXT characters); empty for a phrase
    text = models.CharField(_("text"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("time"), auto_now_add=True)
    #: hidden by staff (after a report): no longer shown to anyone
    hidden = models.BooleanField(_("hidden"), default=False)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        indexes = [
            models.Index(fields=["match", "room", "id"]),
            models.Index(fields=["author", "created_at"]),  # the flood limit's count
        ]

    def __str__(self) -> str:
        return f"{self.name}: {self.text or self.code}"


class Mute(models.Model):
    """`user` does not read `muted` (at any table) until they unmute them."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_mutes",
        verbose_name=_("user"),
    )
    muted = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("muted"),
    )
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("mute")
        verbose_name_plural = _("mutes")
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="chat_mute_once")]

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.muted_id}"


class TableChat(models.Model):
    """A match's chat as its creator set it (no row: on)."""

    match = models.OneToOneField(
        "games.Match",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="chat",
        verbose_name=_("match"),
    )
    on = models.BooleanField(_("chat on"), default=True)

    class Meta:
        verbose_name = _("table chat")
        verbose_name_plural = _("table chats")

    def __str__(self) -> str:
        return f"{self.match_id}: {'on' if self.on else 'off'}"


class Report(models.Model):
    """A message a reader reported to staff (the admin shows it with the lines around it)."""

    message = models.ForeignKey(
        Message, on_delete=models.CASCADE, related_name="reports", verbose_name=_("message")
    )
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("reported by"),
    )
    created_at = models.DateTimeField(_("time"), auto_now_add=True)
    #: set when staff hid the message or blocked its sender, or dismissed the report
    handled = models.BooleanField(_("handled"), default=False)

    class Meta:
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once")
        ]

    def __str__(self) -> str:
        return f"#{self.message_id}"


class Block(models.Model):
    """An account staff barred from chat (it reads, it does not post)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="chat_block",
        verbose_name=_("user"),
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("blocked by"),
    )
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("chat block")
        verbose_name_plural = _("chat blocks")

    def __str__(self) -> str:
        return str(self.user_id)


class Action(models.Model):
    """Every action about chat, as it was taken (the messages are their own record)."""

    class Kind(models.TextChoices):
        MUTE = "mute", _("Mute")
        UNMUTE = "unmute", _("Unmute")
        CHAT_OFF = "chat_off", _("Chat turned off")
        CHAT_ON = "chat_on", _("Chat turned on")
        REPORT = "report", _("Report")
        HIDE = "hide", _("Hide")
        BLOCK = "block", _("Block")
        UNBLOCK = "unblock", _("Unblock")

    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    match = models.ForeignKey(
        "games.Match",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("match"),
    )
    message = models.ForeignKey(
        Message,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("message"),
    )
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("about"),
    )
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("chat action")
        verbose_name_plural = _("chat actions")

    def __str__(self) -> str:
        return f"{self.kind} by {self.actor_id}"
