"""``{{ name|bdi }}``: a person's name isolated in ``<bdi>``, so a right-to-left name cannot
reorder the words around it. Works inside ``{% blocktranslate with %}`` too.

``{{ name|person }}``: the same, as the one way a name stands on its own in a layout:
``<bdi class="pname" title="…">`` — one line, cut with an ellipsis where its room ends
(site.css ``.pname``), the whole name in its title (hover) and in the text screen readers
read. The board's Jinja2 parts write the same element."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


@register.filter
def bdi(value: object) -> SafeString:
    return format_html("<bdi>{}</bdi>", value)


@register.filter
def person(value: object) -> SafeString:
    return format_html('<bdi class="pname" title="{}">{}</bdi>', value, value)
