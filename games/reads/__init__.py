"""Reading matches; nothing here writes.

- selectors.py: a match's state, a seat's view, what a user may do, the lists, logs and
  replays, the pauses and requests;
- queries.py: what a list, the admin and the replay commands show of a match (public
  information only), the replay export and its check;
- seats.py: a match with its seats, shared by the selectors and the permissions (each
  imports it rather than the other) and by every wing that asks who may see a match.
"""
