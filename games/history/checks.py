"""The admin's import check: replay an uploaded replay file (`../shared/spec/replay-format.md`)
against a stored match and report the first action where the two part ways. A bulk
export of several matches (a list) is checked for the one match it is uploaded to.

The file is run through the engine (`engine.replay`) action by action beside the
match's own export (`selectors.match_replay_doc`); the report names the first index
where the file's action differs from the stored one, is illegal (the engine's reason,
naming the rule), or where one of the two runs out — with the round and its step, so
the viewer can open that position.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from engine.deal import ROUNDS
from engine.replay import BadReplay, parse_action, parse_start
from engine.rules import apply
from engine.state import IllegalAction

#: an uploaded replay file larger than this is refused (a whole 10-player match is ~200 kB)
MAX_BYTES = 2_000_000


@dataclass(frozen=True)
class Check:
    #: None: the file reproduces the stored match action for action
    index: int | None
    #: "bad_file", "start", "differs", "illegal", "file_shorter", "file_longer", or "" when equal
    kind: str
    message: str = ""
    #: where in the match (round number, step in that round) the divergence is
    round: int | None = None
    step: int | None = None
    file_action: Any = None
    stored_action: Any = None

    @property
    def same(self) -> bool:
        return self.kind == ""


def read_upload(data: bytes) -> Any:
    """The JSON of an uploaded file; `BadReplay` when it is too big or not JSON."""
    if len(data) > MAX_BYTES:
        raise BadReplay(f"the file is larger than {MAX_BYTES // 1_000_000} MB")
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BadReplay(f"not a JSON file: {e}") from None


def from_bulk(uploaded: Any, match_id: int) -> tuple[Any, list[int]]:
    """The replay of match `match_id` out of an admin's bulk export (a JSON list of replay
    documents, each with its `"match"` id): (that document, []), or (None, the ids the list
    holds) when it has none of this match. Anything but a list comes back as it is."""
    if not isinstance(uploaded, list):
        return uploaded, []
    held = [d.get("match") for d in uploaded if isinstance(d, dict)]
    for doc in uploaded:
        if isinstance(doc, dict) and doc.get("match") == match_id:
            return doc, []
    return None, [m for m in held if isinstance(m, int)]


def first_divergence(stored: dict[str, Any], uploaded: Any) -> Check:
    """Compare `uploaded` (any JSON value) with the match's own replay document `stored`."""
    try:
        state = parse_start(uploaded)
    except BadReplay as e:
        return Check(None, "bad_file", str(e))
    # Round, length and totals default as the format says (1, 13 rounds, zeros: as a standard
    # match starts); a file without the seed would be dealt from another one, so the seed must
    # be there and the same. A file of another length deals other doubles (R31): "rounds".
    defaults = {"round": 1, "rounds": ROUNDS, "totals": [0] * state.players}
    for key in ("players", "seed", "round", "rounds", "totals", "deal"):
        if uploaded.get(key, defaults.get(key)) != stored.get(key, defaults.get(key)):
            return Check(0, "start", key, round=1, step=0)
    raw_actions = uploaded.get("actions", [])
    if not isinstance(raw_actions, list):
        return Check(None, "bad_file", "actions must be a list")
    mine = stored["actions"]
    number, in_round = state.round, 0
    for k, raw in enumerate(raw_actions):
        if k >= len(mine):
            return Check(k, "file_longer", round=number, step=in_round, file_action=raw)
        try:
            action = parse_action(raw)
        except BadReplay as e:
            return Check(k, "bad_file", str(e), round=number, step=in_round, file_action=raw)
        if action.to_json() != mine[k]:
            return Check(
                k, "differs", round=number, step=in_round, file_action=raw, stored_action=mine[k]
            )
        try:
            state = apply(state, action)
        except IllegalAction as e:
            return Check(k, "illegal", e.message, round=number, step=in_round, file_action=raw)
        if action.act == "next_round":
            number, in_round = state.round, 0
        else:
            in_round += 1
    if len(raw_actions) < len(mine):
        k = len(raw_actions)
        return Check(k, "file_shorter", round=number, step=in_round, stored_action=mine[k])
    return Check(None, "")
