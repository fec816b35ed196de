"""Drawing a board: an engine view presented as dataclasses, rendered as named parts and HTML.

- presenter/: a `SeatView` turned into the template context (`present`; no database, no clock);
- viewer.py: whose view a connection sees (`Viewer`: the relay cover, R24);
- words.py: the board's words (whose turn, why a tile fits nowhere, hints, log lines);
- parts.py: the board as named parts, and the update frames carrying only what changed;
- jinja_env.py: the Jinja2 environment of the board's templates (games/jinja2/games/);
- draw.py: a presented board's parts and HTML, and the seats a match's board is presented with.

The live table (games/table/board.py) and the replay (games/history/boards.py) draw the same
board with these modules, so a replay looks exactly like the table did. A package of games'
root: it imports no wing (tests/tablesite/test_imports.py).
"""
