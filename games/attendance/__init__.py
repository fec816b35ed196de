"""Who is at a table: each signed-in connection's presence (presence.py) and, past the
table's away limit, a computer standing in for an away person's seat (standin.py). Their
rows are games/models/attendance.py's.
"""
