"""Table talk: the chat of a match's table, as its own wing.

- ``models``: every message and every action (mute, chat off, report, hide, block) in PostgreSQL;
- ``phrases``: the table phrases and reactions, sent as codes, shown in the reader's language;
- ``text``: what free text may be (NFKC, no invisible characters, at most 200 characters);
- ``services``: the writes and reads (who may is games.permissions' answer, `chat_may`);
- ``live``: what the table's websocket does with chat (history on connect, each event per reader);
- ``push``: the one function that delivers chat events to a table's connections;
- ``words``: reason codes in words.

games/ (root) never imports this wing; the table's protocol and consumer do.
"""
