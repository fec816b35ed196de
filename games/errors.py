"""The one error the game services raise.

Every refusal of a service is a `GameError` with a machine-readable `code` (the
consumers send it to the browser as `{"type": "error", "code", "message"}`) and a
user-facing `message` in the active language. For an illegal move the message comes
from `games.words` (the engine's reason code put into the player's words, seats as
players see them); `rule` keeps the rule id for code and tests, and `reason` the
engine's reason code. The browser gets the rule's anchor on the rules page
(`why_url`) for a small "why?" link, never the id in a sentence.
"""

from __future__ import annotations

from games.words import rule_url

#: the match does not exist (or the token does not open it)
NOT_FOUND = "not_found"
#: the user may not do this (a stranger, or another player's seat)
FORBIDDEN = "forbidden"
#: it is another seat's turn
NOT_YOUR_TURN = "not_your_turn"
#: the client acted on an old version of the match: it must refresh
STALE = "stale"
#: the rules do not allow the move (`rule` names the rule id)
ILLEGAL = "illegal"
#: a malformed request (bad action object, bad seat set-up, bad request id)
BAD_REQUEST = "bad_request"
#: the match is still waiting for players
NOT_STARTED = "not_started"
#: the seat is taken, or no free seat is left
SEAT_TAKEN = "seat_taken"
#: nothing this user may take back (R27)
NO_UNDO = "no_undo"
#: nothing to restore (R27)
NO_REDO = "no_redo"
#: another undo or restart request is open at this table (one at a time)
REQUEST_OPEN = "request_open"
#: the request answered is not the open one (answered, declined, expired or never there)
NO_REQUEST = "no_request"

CODES: tuple[str, ...] = (
    NOT_FOUND,
    FORBIDDEN,
    NOT_YOUR_TURN,
    STALE,
    ILLEGAL,
    BAD_REQUEST,
    NOT_STARTED,
    SEAT_TAKEN,
    NO_UNDO,
    NO_REDO,
    REQUEST_OPEN,
    NO_REQUEST,
)


class GameError(Exception):
    """A refused request: nothing was changed.

    `code` is one of `CODES`; `message` is for people (translated when raised);
    `rule` is the rule id of an illegal move (or None), `reason` its reason code.
    """

    def __init__(
        self, code: str, message: str, *, rule: str | None = None, reason: str | None = None
    ) -> None:
        if code not in CODES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = str(message)
        self.rule = rule
        self.reason = reason

    def to_json(self) -> dict[str, object]:
        """The error as the consumers send it (with the rule's anchor on the rules page when known)."""
        out: dict[str, object] = {"type": "error", "code": self.code, "message": self.message}
        if self.reason is not None:
            out["reason"] = self.reason
        if self.rule is not None:
            out["rule"] = self.rule
            out["why_url"] = rule_url(self.rule)
        return out

    def __repr__(self) -> str:
        return f"GameError({self.code!r}, {self.message!r}, rule={self.rule!r})"
