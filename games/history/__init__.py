"""Looking back at matches: the replay viewer, score charts, stats, ratings, player pages.

A wing of games/ (design.md): it imports the root of games/ and engine/, never the
other way round, nor the live table: `boards` draws a replay step with the board the
table draws with too, games' root package games/board/.
"""
