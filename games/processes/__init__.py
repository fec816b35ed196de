"""The site's running processes: which servers run on the database and whether they speak
one channel layer (servers.py), and the spans and CPU by part each process records for the
load benchmark (trace.py). Their rows are games/models/processes.py's.
"""
