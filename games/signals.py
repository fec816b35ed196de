"""What the domain announces to the wings, so that games/ never imports them (design.md).

- `match_finished(match)`: sent by the services inside the transaction that ends a
  match (R22), after its last round is stored; a receiver that raises rolls the action
  back with it. games.history counts the players' stats and ratings here.
- `worker_pass()`: sent by the computer worker on each of its passes (games/worker/computers.py),
  outside any transaction; receivers must be quick and must not raise (the worker logs
  and carries on). games.history sends the due turn e-mails here.
- `match_moved(match_id)`: sent by games.notify after a committed change, pause or
  resume, from any thread; receivers must be quick (notify logs what they raise). The
  computer worker of this process wakes here (games/apps.py connects
  `worker.on_match_moved`), so that notify never imports the worker, which imports the
  services, which import notify.
- `out_of_service(reason)`: sent by games.processes.servers when this process stops serving (a
  process of another channel layer runs on the database); from the beat's thread. The
  table closes its sockets here, so their pages reconnect to a server that serves.
"""

from __future__ import annotations

from django.dispatch import Signal

match_finished = Signal()
worker_pass = Signal()
match_moved = Signal()
out_of_service = Signal()
