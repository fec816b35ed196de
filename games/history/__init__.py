"""Looking back at matches: the replay viewer, score charts, stats, ratings, player pages.

A wing of games/ (design.md): it imports the root of games/ and engine/, never the
other way round. `boards` is the only module here that touches the live table's
presenter (games.table.board), so moving that presenter changes one import.
"""
