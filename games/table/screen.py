"""What one table connection is shown: its viewer and its board frames.

`Screen` is the part of a table connection (games.table.consumers.TableConsumer) that makes
its board, in a database thread (the connection's ``call``, or its hub's hop,
games.table.hub), from the reads every connection of the table shares
(games.table.board_reads):

- `viewer`: who the connection is at this match (R24): the seats its user plays
  (games.permissions), the relay seat last revealed on this device, "draw and pass for me";
- `board_message`: the update frame of the parts that changed since what it was sent last
  (`sent`, games.board.parts), or the whole board (nothing sent yet, a new round, a sync);
- a spectator's frame is made once per version for every spectator holding the same board
  (`watched`; R24: a spectator's board shows no hand, so it is the same for all of them).

Asked for changes only (the hub, when a pause or a seat's dot makes it read the same version
again), an update of a board to its own version that changes nothing is not made: no frame.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation

from games.board import parts
from games.board.viewer import Viewer
from games.models import Match
from games.table import board, board_reads


class Screen:
    """One connection's board: who it is, what it was sent (set by its `start`)."""

    match_id: int
    user: Any
    language: str
    #: R24: the relay seat shown on this device
    revealed: int | None
    #: the user's "draw and pass for me" (read once let in, then kept here)
    autodraw: bool
    #: the version of the last board sent, and what it held part by part
    sent_version: int
    sent: parts.Sent
    #: it shows a seat of the user's (for `Hub.broadcast`'s audiences)
    seated = False

    def start(self, match_id: int, user: Any, language: str) -> None:
        """Who the connection is, as it opens: nothing sent yet."""
        self.match_id = match_id
        self.user = user
        self.language = language
        self.revealed = None
        self.autodraw = False  # read once let in (the consumer's `connect`)
        self.sent_version = -1
        self.sent = parts.Sent()

    def viewer(self, match: Match, reads: board_reads.BoardReads | None = None) -> Viewer:
        """Who this connection is at `match` (R24, games.board.viewer; `reads`: the version's
        reads of `match`, which keep what each person may do)."""
        user = self.user if getattr(self.user, "is_authenticated", False) else None
        controlled = board.powers_at(match, user, reads).mine if user is not None else ()
        return Viewer(
            user=user, controlled=controlled, revealed=self.revealed, autodraw=self.autodraw
        )

    def board_message(
        self, *, at_least: int | None = None, whole: bool = False, changes_only: bool = False
    ) -> dict[str, Any] | None:
        """An update frame carrying what changed since this connection's last board, or the
        whole board (`whole`, nothing sent yet, a new round); games/board/parts.py.
        `changes_only`: None rather than an update to the same version that changes nothing."""
        reads = board_reads.current(self.match_id, at_least=at_least)
        if reads is None or reads.match.state is None:
            return None  # still waiting for players: the first board comes when it starts
        viewer = self.viewer(reads.match, reads)
        self.seated = bool(viewer.controlled)
        if not viewer.controlled:
            return self.watched(reads, viewer, whole=whole, changes_only=changes_only)
        return self.made(reads, viewer, whole=whole, changes_only=changes_only)[0]

    def made(
        self,
        reads: board_reads.BoardReads,
        viewer: Viewer,
        *,
        whole: bool,
        changes_only: bool = False,
    ) -> tuple[dict[str, Any] | None, parts.Page, tuple[str, ...] | None]:
        """This connection's frame of `reads` (None: it has a newer board, or, `changes_only`,
        this one unchanged), the page it shows and the parts the frame carries (None: the
        whole board); `sent` moved on."""
        page = board.match_page(match=reads.match, viewer=viewer, reads=reads, kept=self.sent.kept)
        if not whole and not self.sent.whole():
            if page.version < self.sent.version:
                return None, page, ()  # overtaken: this connection has a newer board already
            base = self.sent.version
            frame = parts.update_frame(
                page,
                self.sent,
                board.events_since(reads, base),
                reads.shared.setdefault("edits", {}),
            )
            if frame is not None:
                if changes_only and page.version == base and not _changes(frame):
                    # the same version read again (a seat's dot that was already right on this
                    # board, e.g. the connection that told the table it came back)
                    return None, page, ()
                return frame, page, (*frame["parts"], *frame.get("edits", ()))
        self.sent = parts.Sent(kept=self.sent.kept)
        self.sent.took(page)
        return page.message(), page, None

    def watched(
        self,
        reads: board_reads.BoardReads,
        viewer: Viewer,
        *,
        whole: bool,
        changes_only: bool = False,
    ) -> dict[str, Any] | None:
        """A spectator's frame (a spectator costs its send): made once per version for
        every spectator in this language (and, signed in, this user: the creator may restart)
        that holds the same board and asks the same (`changes_only`), and given to the others as it is (R24: a spectator's board shows no hand, so it is the same for all of them)."""
        sent = self.sent
        held = None if whole or sent.whole() else (sent.version, sent.round, sent.trains)
        user = getattr(self.user, "pk", None)
        key = ("watch", translation.get_language(), user, held, changes_only)
        made = reads.shared.get(key)
        if made is None:
            made = reads.shared[key] = self.made(
                reads, viewer, whole=whole, changes_only=changes_only
            )
            return made[0]
        frame, page, names = made
        if frame is None:
            return None
        if names is None:
            self.sent = parts.Sent(kept=sent.kept)
            self.sent.took(page)
        else:
            sent.took(page, names)
        return frame


def _changes(frame: dict[str, Any]) -> bool:
    """Whether an update frame carries anything: a part, an edit, a board attribute, an event."""
    return bool(
        frame.get("parts") or frame.get("edits") or frame.get("board") or frame.get("events")
    )
