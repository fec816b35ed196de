"""Benchmarks: the engine on its own (engine.py) and the whole site under load (load.py).

The ``load_*`` modules are the load benchmark's parts: its servers and database
(load_server), its websocket players (load_clients), the psycopg floor
(load_floor) and the cost growth over one long match (load_growth).
"""
