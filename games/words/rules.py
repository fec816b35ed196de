"""The rules in plain words, R1–R31: the one source the rules page and the table's
rules panel render (shared/spec/rules.md is the reference they restate).

`RULES` is a list of (rule id, translatable text); `SECTIONS` groups the ids under
headings. Rule ids are stable: the rules page anchors each rule by its id, and the "why?" links of
the table (games.words.rule_url) point there.

The rules as a whole, not a given move: what a refusal says is the words package's
(games/words/__init__.py), the board's own words games/board/words.py's.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

RULES: list[tuple[str, Promise]] = [
    # Equipment and deal
    (
        "R1",
        _(
            "The game uses a double-twelve set: 91 tiles, every pair of numbers from 0 to 12. "
            "A tile is worth the sum of its pips; the double blank is worth 0."
        ),
    ),
    ("R2", _("Two to ten players sit around the table and play clockwise.")),
    (
        "R3",
        _(
            "Each player gets 15 tiles with 2–4 players, 12 with 5–6, 10 with 7–8 and 8 with 9–10. "
            "The rest is the boneyard, face down."
        ),
    ),
    (
        "R4",
        _(
            "The deal is random. A match created with a seed can be replayed: the same seed and "
            "players give the same deal in every round. A seed can be chosen only for a table "
            "without other people, since whoever chooses it knows every hand."
        ),
    ),
    # Rounds and the engine
    (
        "R5",
        _(
            "A match has 13 rounds. The first round starts from the double 12 in the centre, "
            "the next from the double 11, and so on down to the double blank in round 13."
        ),
    ),
    (
        "R6",
        _(
            "Whoever holds the round's double places it. If nobody does, everyone draws one tile at a "
            "time, in turn, until someone draws it."
        ),
    ),
    (
        "R7",
        _(
            "The holder confirms placing the engine double in the centre; then that player takes the "
            "first turn and play goes clockwise."
        ),
    ),
    # First turn
    (
        "R8",
        _(
            "On your first turn of a round you build a chain on your own train only: the first tile "
            "matches the engine's number, each next tile matches the end of your train."
        ),
    ),
    (
        "R9",
        _(
            "If you can start your train you must play at least one tile; then you end your first turn "
            "whenever you like, by confirming it."
        ),
    ),
    (
        "R10",
        _(
            "If you cannot start your train you pass without drawing, and your train is open to "
            "everyone (it gets a marker). Nobody draws during first turns."
        ),
    ),
    (
        "R11",
        _(
            "A double inside your chain is simply continued. A double left at the end of your chain is "
            "an open double, but only once everyone has had their first turn."
        ),
    ),
    (
        "R12",
        _(
            "If someone plays all their tiles during the first turns, the others still have their "
            "first turn; then the round ends."
        ),
    ),
    # Later turns
    (
        "R13",
        _(
            "You may play on your own train, on any train with a marker, and on the Mexican train, "
            "which is always open. An empty train starts with a tile matching the engine's number. "
            "Tiles only extend the open end of a train."
        ),
    ),
    ("R14", _("You must play if you can. A turn is one tile, except after a double.")),
    (
        "R15",
        _(
            "If you cannot play you draw one tile. If it fits you must play it; otherwise you pass and "
            "your train gets a marker. Never a second draw."
        ),
    ),
    (
        "R16",
        _("Only playing on your own train takes your marker off. Playing elsewhere leaves it."),
    ),
    (
        "R17",
        _(
            "After playing a double you play again, anywhere you may play. The turn ends with a "
            "tile that is not a double, or when you cannot play even after drawing."
        ),
    ),
    ("R18", _("If a double was your last tile, you are out at once.")),
    (
        "R19",
        _(
            "A double with nothing after it is open. While a double is open, the next players must "
            "cover it before anything else, the oldest first, even on a train without a marker. "
            "Whoever cannot, draws once, and if that does not help, passes and opens their train."
        ),
    ),
    # End of a round and of the match
    (
        "R20",
        _(
            "A round ends when a player has no tiles left, or when nobody can play and the boneyard "
            "is empty."
        ),
    ),
    (
        "R21",
        _(
            "When a round ends, every hand is shown and each player adds the points left in their hand "
            "to their total. The lowest score of a round earns nothing extra."
        ),
    ),
    ("R22", _("After the last round the lowest total wins; equal lowest totals win together.")),
    # The digital table
    (
        "R23",
        _(
            "Selecting a tile shows where it may go, and a hint suggests a play. Placing the engine, "
            "drawing and ending a first turn are shown first and happen only when you confirm."
        ),
    ),
    (
        "R24",
        _(
            "You see only your own hand; spectators see no hand. Everyone sees the trains, markers, "
            "open doubles, hand sizes, the boneyard and the scores. On a shared device a cover hides "
            "the hands between players. All hands are shown when the round ends."
        ),
    ),
    (
        "R25",
        _(
            "Computer players and hints use only their own hand and what everyone can see. "
            "They do not promise the best play."
        ),
    ),
    ("R26", _("While someone at the table reads the rules or the log, the computer players wait.")),
    (
        "R27",
        _(
            "Undo takes back your last action together with the computer players' answers to it; "
            "Redo restores exactly what was undone."
        ),
    ),
    ("R28", _("Restarting a round keeps its deal and the totals of the earlier rounds.")),
    (
        "R29",
        _(
            "A new match at the same table starts again from the double 12 with all totals at zero, "
            "and keeps the log of earlier matches."
        ),
    ),
    (
        "R30",
        _(
            "Play by clicking or touching tiles and trains. Everything can also be done with the "
            "keyboard."
        ),
    ),
    # Rounds and the engine (R31 is shown with R5)
    (
        "R31",
        _(
            "The standard match has 13 rounds, from the double 12 down to the double blank. When "
            "creating a match you may choose a shorter one: it starts from a lower double and plays one "
            "round for each double down to the double blank (from the double 9, 10 rounds; from the "
            "double 6, 7 rounds). Every other rule stays the same."
        ),
    ),
]

SECTIONS: list[tuple[Promise, tuple[str, ...]]] = [
    (_("Tiles and the deal"), ("R1", "R2", "R3", "R4")),
    (_("Rounds and the engine"), ("R5", "R31", "R6", "R7")),
    (_("Your first turn"), ("R8", "R9", "R10", "R11", "R12")),
    (_("Later turns"), ("R13", "R14", "R15", "R16", "R17", "R18", "R19")),
    (_("End of a round and of the match"), ("R20", "R21", "R22")),
    (_("At this digital table"), ("R23", "R24", "R25", "R26", "R27", "R28", "R29", "R30")),
]

#: Keyboard shortcuts of the table (R30), shown with the rules.
KEYS: list[tuple[str, Promise]] = [
    ("← →", _("move among your tiles")),
    ("Shift + ← →", _("move the tile in your hand")),
    ("↑ ↓", _("move among the trains")),
    ("Enter", _("select a tile, then play it on the chosen train")),
    ("Esc", _("deselect")),
    ("D", _("draw")),
    ("P", _("pass")),
    ("E", _("end your first turn")),
    ("H", _("hint")),
    ("U / R", _("undo / redo")),
    ("L", _("log")),
    ("?", _("rules")),
]


def sections() -> list[dict[str, object]]:
    """The rules grouped for a template: [{"title", "rules": [(id, text), …]}, …]."""
    text = dict(RULES)
    return [{"title": title, "rules": [(rid, text[rid]) for rid in ids]} for title, ids in SECTIONS]
