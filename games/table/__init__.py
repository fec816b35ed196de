"""The live table: the wing of games/ that shows a match and takes its commands.

- `protocol` and `commands/`: the frames' checks, and the table's commands, one module each,
  registered in the root's registry of commands (games/commands/, which table talk's fill too).
- `consumers`: the table's websocket (thin: its lifecycle, and the dispatch of commands and
  of the wings' events to their extensions, games/commands/extensions.py).
- `connection`: what commands and the hub use of a connection (database calls, frames, acks);
  `screen`: a connection's own board (its viewer, its update frames); `access`: its way in
  (language, match, may it watch); `budget`: its frames per second.
- `board_reads`: what every connection of a table reads of a version, read once.
- `hub`: one per table per process: its connections, the reads it holds (derived from
  notices where it can), one database hop per version for its boards, its sends.
- `viewer`: who may see what (R24); `presenter`: a `SeatView` as the board's template context;
  `words`: the table's words; `board`: a match's board for one viewer, put together.
- `parts`: the board as named parts (shared ones rendered once per version), the update frames.
- `jinja_env`: the Jinja2 environment the board's templates render in.
- `views`: the table's HTTP pages (the first load of the board, the log).
- `routing`: the websocket URL routes, mounted by tablesite/asgi.py.

The domain (models, services, selectors, notify, worker) stays at the root of
games/ and never imports this wing: services announce "match M is at version V"
after commit, and the table turns that into boards.
"""
