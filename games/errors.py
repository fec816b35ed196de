"""The one error the game services raise, and words for the engine's rule ids.

Every refusal of a service is a `GameError` with a machine-readable `code` (the
consumers send it to the browser as `{"type": "error", "code", "message"}`) and a
user-facing `message` in the active language. For an illegal move the message is
the engine's own plain-English reason, citing the rule id (for example "Seat 2's
train is not open to you (it has no marker) (R13)"); `rule` carries that id so the
page can show the translated short explanation from `RULE_EXPLANATIONS` instead.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

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
    NOT_FOUND, FORBIDDEN, NOT_YOUR_TURN, STALE, ILLEGAL, BAD_REQUEST, NOT_STARTED, SEAT_TAKEN, NO_UNDO, NO_REDO,
    REQUEST_OPEN, NO_REQUEST,
)


class GameError(Exception):
    """A refused request: nothing was changed.

    `code` is one of `CODES`; `message` is for people (translated when raised);
    `rule` is the rule id of an illegal move (or None).
    """

    def __init__(self, code: str, message: str, *, rule: str | None = None) -> None:
        if code not in CODES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = str(message)
        self.rule = rule

    def to_json(self) -> dict[str, object]:
        """The error as the consumers send it (the rule's short words included when known)."""
        out: dict[str, object] = {"type": "error", "code": self.code, "message": self.message}
        if self.rule is not None:
            out["rule"] = self.rule
            explanation = rule_explanation(self.rule)
            if explanation is not None:
                out["explanation"] = explanation
        return out

    def __repr__(self) -> str:
        return f"GameError({self.code!r}, {self.message!r}, rule={self.rule!r})"


#: Short words for why a move is not allowed, by the rule id the engine names.
#: The engine's own messages are English and more specific; these translate.
RULE_EXPLANATIONS: dict[str, Promise] = {
    "R4": _("The next round needs the match seed to deal from (R4)"),
    "R7": _("It is not your turn, or the engine double must be placed first (R7)"),
    "R8": _("On your first turn you play only on your own train, matching its end (R8)"),
    "R9": _("On your first turn play at least one tile, then end the turn yourself (R9)"),
    "R10": _("Nobody draws during first turns; if you cannot start your train, pass (R10)"),
    "R13": _("This train is not open to you, or the tile does not match its end (R13)"),
    "R14": _("You must play when you can (R14)"),
    "R15": _("Draw once when you cannot play; after drawing only the drawn tile may be played (R15)"),
    "R17": _("After a double you must play again (R17)"),
    "R19": _("The oldest open double must be satisfied first (R19)"),
    "R20": _("The round is over; only the next round can start (R20)"),
    "R22": _("The match is over after round 13 (R22)"),
    "R24": _("That tile is not in your hand (R24)"),
}


def rule_explanation(rule: str | None) -> str | None:
    """The translated short explanation for a rule id (in the active language), or None."""
    if rule is None:
        return None
    words = RULE_EXPLANATIONS.get(rule)
    return str(words) if words is not None else None
