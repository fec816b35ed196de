"""The table's commands, one module each ("a command is a module"), registered when this
package is imported (the `table` app's start-up imports it, in every process) into the one
registry of commands, games/commands/ (`Spec`, `Offer`, the fields' types).

Each module of this package defines ``command``, a `Spec`, or ``commands``, a list of them:
its name (the frame's ``type``), its fields (games.commands.fields; a field only it takes
declared in its own module), its handler and, when the board offers it in the table's menu or
in the match-end panel, ``offer``.

To add a command ``x``: ``games/table/commands/x.py`` with ``command = Spec("x", …)``; if the
board offers it, ``offer`` and ``games/jinja2/games/commands/x.html``; its service (a change
asked of the others at a shared table is a games.consent kind); what it asks (``says``), from
which ``manage.py protocol_table`` writes its row in docs/protocol.md; its words in its
module's ``WORDS`` and the catalogues.
"""

from __future__ import annotations

import importlib
import pkgutil

from games.commands import Spec, register


def _discover() -> list[Spec]:
    """Every command of this package's modules, by module name, then in each module's order."""
    found: list[Spec] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        found += getattr(module, "commands", None) or [module.command]
    return found


register(*_discover())
