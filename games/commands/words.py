"""What a command's field says when a frame's value for it is refused (`FIELD`), by the
field's name: the fields of games/commands/fields.py. A field only one wing's commands take
says its refusal in that wing's words (table talk's ``room``, ``say`` and ``text``:
games/chat/words.py). Lazy: the fields are made once, at start-up, and a refusal is read in
its connection's language."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

FIELD: dict[str, Promise] = {
    "request_id": gettext_lazy("A request id is 1 to 64 letters, digits or . _ : -"),
    "version": gettext_lazy("A version is a whole number."),
    "seat": gettext_lazy("A seat is a number from 0 to 9."),
    "ask": gettext_lazy("A request is a whole number."),
    "ref": gettext_lazy("A reference is a whole number."),
    "open": gettext_lazy("Open is true or false."),
    "on": gettext_lazy("On is true or false."),
    "pace": gettext_lazy("A pace is a short name."),
    "limit": gettext_lazy("A limit is a short name."),
    "action": gettext_lazy("An action is an object with the fields act, seat, tile and train."),
    "action_field": gettext_lazy("An action's %(field)s is not valid."),
    "action_act": gettext_lazy("An action needs its act (engine, play, draw, pass or end)."),
}
