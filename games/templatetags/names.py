"""``{{ name|bdi }}``: a person's name isolated in ``<bdi>``, so a right-to-left name cannot
reorder the words around it (issue 13). Works inside ``{% blocktranslate with %}`` too."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


@register.filter
def bdi(value: object) -> SafeString:
    return format_html("<bdi>{}</bdi>", value)
