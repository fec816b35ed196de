"""Drawing a board: an engine view presented as dataclasses, rendered as named parts and HTML.

The live table (games/table/) and the replay (games/history/boards.py) draw the same board
with these modules, so a replay looks exactly like the table did; neither wing is imported
here (tests/tablesite/test_imports.py).
"""
