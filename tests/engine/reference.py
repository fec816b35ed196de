"""An independent, deliberately plain model of rules.md R5–R21 for differential tests.

Written from the rules text, not from `engine/`: mutable, slow, no shared code except
nothing at all (tiles are (low, high) tuples, trains are keyed by seat or "mexican").
`test_reference.py` plays random games on both and compares them after every action.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Tile = tuple[int, int]
Key = int | str  # a seat, or "mexican"
Move = tuple  # ("engine"|"draw"|"pass"|"end", seat) or ("play", seat, tile, key)


@dataclass
class Reference:
    players: int
    round: int
    hands: list[list[Tile]]
    boneyard: list[Tile]
    totals: list[int]
    engine: int = 0
    holder: int = -1
    phase: str = "engine"
    turn: int | None = None
    trains: dict[Key, list[tuple[int, int]]] = field(default_factory=dict)
    marked: set[int] = field(default_factory=set)
    doubles: list[tuple[Tile, Key]] = field(default_factory=list)  # open, oldest first
    first_turns_had: int = 0
    placed: int = 0  # tiles placed in this (first) turn
    drew: bool = False  # drew for the current required play
    owe: bool = False  # a double was played this turn: play again
    ended_by: str | None = None
    points: list[int] | None = None

    def __post_init__(self) -> None:
        self.engine = 13 - self.round  # R5
        e = (self.engine, self.engine)
        self.trains = {s: [] for s in range(self.players)}
        self.trains["mexican"] = []
        owners = [s for s, h in enumerate(self.hands) if e in h]
        if owners:
            self.holder = owners[0]
        else:  # R6: complete batches from seat (r-1) mod n; a short last batch empties the boneyard
            first = (self.round - 1) % self.players
            found = None
            while found is None and self.boneyard:
                for k in range(self.players):
                    if not self.boneyard:
                        break
                    seat = (first + k) % self.players
                    tile = self.boneyard.pop(0)
                    self.hands[seat].append(tile)
                    if tile == e:
                        found = seat
            assert found is not None
            self.holder = found
        self.turn = self.holder

    # -------------------------------------------------------------- helpers

    def end(self, key: Key) -> int:
        t = self.trains[key]
        return t[-1][1] if t else self.engine  # R13: unstarted trains take the engine number

    def open_to(self, seat: int) -> list[Key]:
        return [
            seat,
            *[s for s in range(self.players) if s != seat and s in self.marked],
            "mexican",
        ]

    def plays(self) -> list[Move]:
        seat = self.turn
        assert seat is not None
        if self.phase == "first":
            targets: list[Key] = [seat]  # R8
        elif self.doubles and not self.owe:
            targets = [self.doubles[0][1]]  # R19
        else:
            targets = self.open_to(seat)  # R13, R17
        return [("play", seat, t, k) for t in self.hands[seat] for k in targets if self.end(k) in t]

    # -------------------------------------------------------------- the rules

    def legal(self) -> list[Move]:
        if self.phase in ("round_over", "match_over"):
            return []
        seat = self.turn
        if self.phase == "engine":
            return [("engine", seat)]
        plays = self.plays()
        if self.phase == "first":
            if self.placed == 0:
                return plays if plays else [("pass", seat)]  # R9, R10
            return plays + [("end", seat)]  # R9
        if plays:
            return plays  # R14
        if not self.drew and self.boneyard:
            return [("draw", seat)]  # R15
        return [("pass", seat)]  # R15, R17, R19

    def do(self, move: Move) -> None:
        assert move in self.legal(), move
        act, seat = move[0], move[1]
        if act == "engine":
            self.hands[seat].remove((self.engine, self.engine))
            self.phase = "first"
            return
        if act == "draw":
            self.hands[seat].append(self.boneyard.pop(0))
            self.drew = True
            return
        if act == "pass":
            self.marked.add(seat)
            self.next_turn()
            return
        if act == "end":
            self.next_turn()
            return
        _, _, tile, key = move
        end = self.end(key)
        self.hands[seat].remove(tile)
        self.trains[key].append(tile if tile[0] == end else (tile[1], tile[0]))
        self.doubles = [d for d in self.doubles if d[1] != key]
        if tile[0] == tile[1]:
            self.doubles.append((tile, key))
        if key == seat:
            self.marked.discard(seat)  # R16
        self.placed += 1
        self.drew = False
        if self.phase == "first":
            if not self.hands[seat]:
                self.next_turn()  # R9: an empty hand ends the first turn
            return
        if not self.hands[seat]:
            self.finish("out")  # R18, R20
        elif tile[0] == tile[1]:
            self.owe = True  # R17
        else:
            self.next_turn()

    def next_turn(self) -> None:
        assert self.turn is not None
        self.placed, self.drew, self.owe = 0, False, False
        if self.phase == "first":
            self.first_turns_had += 1
            if self.first_turns_had < self.players:
                self.turn = (self.turn + 1) % self.players
                return
            self.phase, self.turn = "play", self.holder
            if any(not h for h in self.hands):
                self.finish("out")  # R12
                return
        else:
            self.turn = (self.turn + 1) % self.players
        if self.truly_blocked():
            self.finish("blocked")

    def truly_blocked(self) -> bool:  # R20
        if self.boneyard:
            return False
        tiles = [t for h in self.hands for t in h]
        if self.doubles:
            v = self.doubles[0][0][0]
            return not any(v in t for t in tiles)
        ends = {self.end(k) for k in self.trains}
        return not any(t[0] in ends or t[1] in ends for t in tiles)

    def finish(self, how: str) -> None:  # R21, R22
        self.points = [sum(a + b for a, b in h) for h in self.hands]
        self.totals = [a + b for a, b in zip(self.totals, self.points, strict=True)]
        self.ended_by = how
        self.turn = None
        self.phase = "match_over" if self.round == 13 else "round_over"
