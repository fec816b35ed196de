"""The board as named parts, and the update frames that carry only the parts that changed.

A board (``games/jinja2/games/board.html``) is the board element — its attributes,
`board_attrs` — around a fixed set of parts, each one whole element with a stable id,
each rendered by its own template whether for the first page, an update or a replay:

- shared (`SHARED`: ``status``, ``turn``, ``badges``, ``train-<key>`` for each train, ``scores``,
  ``scores-dialog``): the same for every viewer of a match at one version and language.
  They are rendered from the spectator view (``engine.views.view(state, None)``) only,
  so no hidden tile can reach them (R24), and once per (match, version, language)
  however many connections watch (games.table.board keeps them on the version's
  `games.table.board_reads.BoardReads`); a part that shows what it showed at the
  version before is not rendered again (`shared_shows`, `train_shows`). What differs per viewer in them — "Your
  train", "Your turn", the viewer's own seat in the scores — is drawn by board.css
  from the board element's ``data-seat`` and ``data-your-turn``.
- private (`PRIVATE`: ``tools``, ``banner``, ``hub``, ``result``, ``hand``, ``cover``):
  the viewer's own (its hand, the actions it is offered, its buttons, the relay
  cover), rendered per connection.

A connection keeps a `Sent` (what it was last sent: version, round, the board's
attributes and the text of each part); `update_frame` then gives
``{"type": "update", "v": …, "base": …, "events": […], "parts": {id: html},
"edits": {id: [[start, end, text], …]}, "board": {…}}`` with only the parts whose HTML
changed since — whole, or as line edits of the text the connection holds when that is
shorter (`edits`) — and the board's attributes that changed. A new round (its trains
differ) is sent as a whole board instead.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any

from markupsafe import Markup

from games.board.presenter import SeatCtx, TrainCtx

#: the parts every viewer sees alike (besides one ``train-<key>`` per train)
SHARED = ("status", "turn", "badges", "scores", "scores-dialog")
#: the parts of one viewer
PRIVATE = ("tools", "banner", "hub", "result", "hand", "cover")
TRAIN = "train-"


def _env() -> Any:
    from django.template import engines

    return engines["jinja2"].env  # type: ignore[attr-defined]  # the Jinja2 backend's


def render(name: str, **context: Any) -> Markup:
    """One part's template rendered (call within `jinja_env.fixed_language`). Its indentation
    was folded as the template loaded (games.board.jinja_env.fold: HTML shows any run of
    blanks as one; a part is sent over the websocket whenever it changes)."""
    return Markup(_env().get_template(name).render(context).strip())


def train_id(key: object) -> str:
    return f"{TRAIN}{key}"


def _mark(s: Any) -> tuple[Any, ...]:
    """What a seat's mark shows of it (games/board/seat_mark.html; its tint is its index's)."""
    return (s.index, s.shape, s.shape_path)


#: each shared part but the trains: its template, what the template is given besides the
#: board, and what of the board it shows (its key: the part is rendered again only when
#: that changed; tests/games/board/test_part_keys.py changes each field in turn)
_SHARED: dict[str, tuple[str, dict[str, Any], Any]] = {
    "status": (
        "games/board/status.html",
        {"part": "status"},
        lambda b: (
            b.round,
            b.rounds,
            b.round_text,
            b.engine,
            b.engine_label,
            b.boneyard,
            b.boneyard_text,
        ),
    ),
    "turn": (
        "games/board/status.html",
        {"part": "turn"},
        lambda b: (
            _mark(b.turn_seat) if b.turn_seat else None,
            b.status,
            b.turn_words,
            b.turn_text,
        ),
    ),
    "badges": (
        "games/board/status.html",
        {"part": "badges"},
        lambda b: (b.paused, b.has_computers, b.pace, b.pace_text, b.hurry, b.open_doubles_text),
    ),
    "scores": (
        "games/board/scoreboard.html",
        {},
        lambda b: (
            tuple((*_mark(s), s.name, s.kind, s.winner, s.total) for s in b.seats),
            bool(b.history),
        ),
    ),
    "scores-dialog": (
        "games/board/scores_dialog.html",
        {},
        lambda b: (
            tuple((*_mark(s), s.colour, s.name, s.winner, s.total) for s in b.seats),
            b.history,
            b.charted,
            b.rounds,
        ),
    ),
}
#: what a train's row shows of its train and of its owner: everything but the owner's turn
#: (board.css marks whose turn it is from the board's data-turn, so a turn passing renders
#: no row again)
_TRAIN_SHOWN = tuple(f.name for f in fields(TrainCtx) if f.name != "owner")
_OWNER_SHOWN = tuple(f.name for f in fields(SeatCtx) if f.name != "is_turn")


def shared_shows(part: str, public: Any) -> Any:
    """What shared `part` (not a train) shows of the spectator's board `public` (its key)."""
    return (_SHARED[part][2])(public)


def train_shows(train: Any, first: bool) -> Any:
    """What a train's row shows (its key): the train's context, its owner's but for whose
    turn it is, and whether it is the row that takes the focus."""
    owner = train.owner
    return (
        tuple(getattr(train, f) for f in _TRAIN_SHOWN),
        tuple(getattr(owner, f) for f in _OWNER_SHOWN) if owner is not None else None,
        first,
    )


def shared_parts(
    public: Any, kept: dict[Any, tuple[Any, Markup]] | None = None
) -> dict[str, Markup]:
    """The shared parts of a board presented from the spectator view (`public`: a
    ``games.board.presenter.Board`` with no seat). `kept`: the match's shared parts as last
    rendered, by language and id, with what they showed (`shared_shows`, `train_shows`):
    a part that shows the same is not rendered again (most stay the same from one move to
    the next: a move changes a row or two, the boneyard, whose turn it is)."""
    if public.me is not None or public.hand is not None:
        raise PermissionError("shared parts are rendered from the spectator view only (R24)")
    from games.board.jinja_env import active_language

    language = active_language()

    def part(name: str, key: Any, template: str, **context: Any) -> Markup:
        before = kept.get((language, name)) if kept is not None else None
        if before is not None and before[0] == key:
            return before[1]
        html = render(template, **context)
        if kept is not None:
            kept[(language, name)] = (key, html)
        return html

    # In the page's order (an update frame names its parts in this order).
    out = {}
    for name in ("status", "turn", "badges"):
        template, context, _shows = _SHARED[name]
        out[name] = part(name, shared_shows(name, public), template, b=public, **context)
    for index, train in enumerate(public.trains):
        first = index == 0
        out[train_id(train.key)] = part(
            train_id(train.key),
            train_shows(train, first),
            "games/parts/train.html",
            t=train,
            first=first,
        )
    for name in ("scores", "scores-dialog"):
        template, context, _shows = _SHARED[name]
        out[name] = part(name, shared_shows(name, public), template, b=public, **context)
    return out


def _tools_shows(b: Any) -> tuple[Any, ...]:
    """What the ``tools`` part shows: its buttons, the pace menu, and "What can I do?" (the
    actions and the tiles that fit, with their trains' names; its line of the moment is the
    board's ``data-status``, written in by static/js/cando.js, so a turn passing changes no
    seat's ``tools``)."""
    cando = b.me is not None and not b.spectator
    fits = None
    if cando and b.your_turn and b.hand is not None:
        fits = (b.hand, tuple(t.label for t in b.trains))
    return (
        b.actions,
        b.skip,
        b.skip_shown,
        b.autodraw,
        b.undo,
        b.undo_text,
        b.redo,
        b.restart,
        b.spectator,
        b.pace_options,
        cando,
        b.your_turn,
        fits,
        b.next_round,
        b.away.limits if b.away is not None else (),
        b.round_over,
        b.match_over,
        b.offers,
    )


def _menu_shows(b: Any) -> tuple[Any, ...]:
    """What the table menu in the ``tools`` part shows (games/board/tools_menu.html)."""
    return (
        b.restart,
        b.offers,
        b.spectator,
        b.autodraw,
        b.pace_options,
        b.away.limits if b.away is not None else (),
    )


def _menu(board: Any, kept: dict[str, tuple[Any, Markup]] | None, language: str | None) -> Markup:
    """The table menu of `board`'s ``tools`` part: rendered again only when what it shows
    changed (`kept`: as in `private_parts`), as the buttons around it change at every turn."""
    key = (language, _menu_shows(board))
    before = kept.get("tools-menu") if kept is not None else None
    if before is not None and before[0] == key:
        return before[1]
    html = render("games/board/tools_menu.html", b=board)
    if kept is not None:
        kept["tools-menu"] = (key, html)
    return html


#: each private part: its template and what of the board it shows (its key: the part is
#: rendered again only when that changed; None: always). A key leaving out something its
#: template shows leaves a page behind (tests/games/table/test_updates.py, tests/games/board/test_part_keys.py).
_PRIVATE: dict[str, tuple[str, Any]] = {
    "tools": ("games/board/tools.html", _tools_shows),
    "banner": (
        "games/parts/banner.html",
        lambda b: (b.spectator, b.ask, b.answered, b.away, b.search_text),
    ),
    "hub": (
        "games/board/hub.html",
        lambda b: (
            b.engine_placed,
            b.engine,
            b.engine_label,
            b.engine_preview_label,
            b.engine_hint,
            b.actions.engine,
            b.actions.seat,
            b.engine_then,
        ),
    ),
    "result": ("games/parts/result.html", lambda b: None if b.round_over or b.match_over else ()),
    "hand": (
        "games/parts/hand.html",
        lambda b: (
            b.hand,
            b.your_turn,
            b.actions,
            b.status if b.your_turn else "",
            b.round_over,
            b.match_over,
            b.cover is None,
            b.spectator,
        ),
    ),
    "cover": (
        "games/parts/cover.html",
        lambda b: (b.cover.index if b.cover else None, b.cover_title, b.cover_button),
    ),
}


def shows(part: str, board: Any) -> Any:
    """What private `part` shows of `board` (its key: None when it is rendered every time)."""
    return (_PRIVATE[part][1])(board)


def private_parts(
    board: Any, kept: dict[str, tuple[Any, Markup]] | None = None
) -> dict[str, Markup]:
    """The parts of one viewer's board. `kept`: this viewer's parts as last rendered, with
    what they showed (a connection's `Sent.kept`): a part whose inputs are unchanged is
    not rendered again (most of a seat's parts stay the same while others play)."""
    from games.board.jinja_env import active_language

    out = {}
    language = active_language()
    for part, (template, shows) in _PRIVATE.items():
        key = shows(board)
        if kept is not None and key is not None:
            before = kept.get(part)
            if before is not None and before[0] == (language, key):
                out[part] = before[1]
                continue
        if part == "tools":
            out[part] = render(template, b=board, menu=_menu(board, kept, language))
        else:
            out[part] = render(template, b=board)
        if kept is not None and key is not None:
            kept[part] = ((language, key), out[part])
    return out


def board_attrs(b: Any) -> dict[str, str]:
    """The board element's attributes (what the browser reads: version, seat, turn…)."""
    classes = ["board"]
    if b.compact:
        classes.append("board--compact")
    if b.your_turn:
        classes.append("board--your-turn")
    if b.spectator:
        classes.append("board--watching")
    if b.round_over or b.match_over:
        classes.append("board--over")
    attrs = {
        "class": " ".join(classes),
        "data-match": str(b.match_id),
        "data-version": str(b.version),
        "data-round": str(b.round),
        "data-phase": b.phase,
        "data-seat": str(b.me.index) if b.me else "",
        "data-turn": str(b.turn_seat.index) if b.turn_seat else "",
        "data-your-turn": "true" if b.your_turn else "false",
        "data-title": b.title,
        "data-status": b.status,
        "data-last-event": b.last_event,
        "data-paused": "true" if b.paused else "false",
        "data-only": b.actions.only,
        "data-draw-pass": "on" if b.autodraw else "off",
    }
    if b.restarted:  # every page says it once (static/js/table.js)
        attrs["data-restarted"] = b.restarted
        attrs["data-restarted-text"] = b.restarted_text
    if b.cover:
        attrs["data-cover"] = str(b.cover.index)
    return attrs


@dataclass(frozen=True)
class Page:
    """One viewer's board: its attributes and its parts, in the page's order."""

    version: int
    round: int
    title: str
    your_turn: bool
    attrs: dict[str, str]
    parts: dict[str, Markup]
    trains: tuple[str, ...]

    def html(self) -> Markup:
        return render("games/board.html", attrs=self.attrs, p=self.parts, trains=self.trains)

    def message(self) -> dict[str, Any]:
        """The whole ``{"type": "board", …}`` message."""
        return {
            "type": "board",
            "version": self.version,
            "html": str(self.html()),
            "title": self.title,
            "your_turn": self.your_turn,
        }


def page(
    board: Any, shared: dict[str, Markup], kept: dict[str, tuple[Any, Markup]] | None = None
) -> Page:
    """A viewer's page from its presented `board` and the version's `shared` parts (`kept`:
    see `private_parts`)."""
    parts = dict(shared)
    parts.update(private_parts(board, kept))
    return Page(
        version=board.version,
        round=board.round,
        title=board.title,
        your_turn=board.your_turn,
        attrs=board_attrs(board),
        parts=parts,
        trains=tuple(train_id(t.key) for t in board.trains),
    )


@dataclass
class Sent:
    """What one connection was last sent: enough to send it only what changed."""

    version: int = -1
    round: int = -1
    trains: tuple[str, ...] = ()
    attrs: dict[str, str] = field(default_factory=dict)
    #: part id -> its HTML as this connection holds it (a shared part's text is the one object
    #: of the version's shared parts: comparing an unchanged one is an identity check)
    texts: dict[str, str] = field(default_factory=dict)
    #: this connection's private parts as last rendered, with what they showed (`private_parts`)
    kept: dict[str, tuple[Any, Markup]] = field(default_factory=dict)

    def took(self, p: Page, parts: Iterable[str] | None = None) -> None:
        """`p` was sent (all of it, or the `parts` named and its attributes)."""
        self.version, self.round, self.trains, self.attrs = p.version, p.round, p.trains, p.attrs
        for key in p.parts if parts is None else parts:
            self.texts[key] = p.parts[key]

    def whole(self) -> bool:
        return self.version < 0


#: an edit of a part's text, by lines: ``[start, end, text]`` puts `text`'s lines in place of
#: the old lines ``start:end``; ``[start, end]`` deletes them
Edit = list[Any]


def _unique(lines: list[str], lo: int, hi: int) -> dict[str, int]:
    """The lines of ``lines[lo:hi]`` that occur there once, with where."""
    seen: dict[str, int] = {}
    for i in range(lo, hi):
        line = lines[i]
        seen[line] = -1 if line in seen else i
    return {line: i for line, i in seen.items() if i >= 0}


def _changes(a: list[str], b: list[str]) -> list[tuple[int, int, int, int]]:
    """The changed runs that make `b` of `a`, as ``(i1, i2, j1, j2)`` (``a[i1:i2]`` becomes
    ``b[j1:j2]``), in order. A patience diff: the lines alike at both ends are left out, the
    lines found once on both sides and in the same order are kept as anchors (the longest
    such run, by patience sorting) and each gap between anchors is worked out the same way;
    a gap with no such line is one change. Linear in the lines but for the sorting, where
    difflib's SequenceMatcher was quadratic in a hand's repeated lines (``</button>``,
    ``</li>``…). Runs are apart by one line at least (an anchor), so none starts where
    another does."""
    out: list[tuple[int, int, int, int]] = []
    gaps = [(0, len(a), 0, len(b))]
    while gaps:
        alo, ahi, blo, bhi = gaps.pop()
        while alo < ahi and blo < bhi and a[alo] == b[blo]:
            alo, blo = alo + 1, blo + 1
        while alo < ahi and blo < bhi and a[ahi - 1] == b[bhi - 1]:
            ahi, bhi = ahi - 1, bhi - 1
        if alo == ahi and blo == bhi:
            continue
        once_a = _unique(a, alo, ahi) if alo < ahi and blo < bhi else {}
        # in b's order (a line's first place is its only place)
        pairs = [(once_a[line], j) for line, j in _unique(b, blo, bhi).items() if line in once_a]
        if not pairs:
            out.append((alo, ahi, blo, bhi))
            continue
        # The longest run of pairs rising on both sides (patience sorting on a's index).
        tops: list[int] = []
        top_at: list[int] = []
        back: list[int] = []
        for n, (i, _j) in enumerate(pairs):
            pile = bisect_left(tops, i)
            back.append(top_at[pile - 1] if pile else -1)
            if pile == len(tops):
                tops.append(i)
                top_at.append(n)
            else:
                tops[pile], top_at[pile] = i, n
        n = top_at[-1]
        while n >= 0:
            i, j = pairs[n]
            gaps.append((i + 1, ahi, j + 1, bhi))
            ahi, bhi = i, j
            n = back[n]
        gaps.append((alo, ahi, blo, bhi))
    out.sort()
    return out


@lru_cache(maxsize=512)
def edits(old: str, new: str) -> tuple[Edit, ...] | None:
    """The line edits that make `new` of `old` (a part's text as a connection holds it and as
    it is now), or None when sending `new` whole is about as short. The templates put an
    element on a line of its own (their indentation folded as they load, `render`), so
    a tile laid on a train or a class changed in the hand is an edit of a line or two
    (`_changes`).
    Cached: the connections of one table hold the same texts of the shared parts, so a
    version's edits of a shared part are worked out once (a str keeps its hash)."""
    a, b = str(old).split("\n"), str(new).split("\n")
    out: list[Edit] = []
    size = 0
    for i1, i2, j1, j2 in _changes(a, b):
        if j2 > j1:
            text = "\n".join(b[j1:j2])
            out.append([i1, i2, text])
            size += len(text) + 16
        else:
            out.append([i1, i2])
            size += 12
    if size * 10 > len(new) * 9:
        return None
    return tuple(out)


def apply_edits(old: str, changes: Iterable[Edit]) -> str:
    """`old` with the line `edits` applied (what static/js/table.js does with a frame's "edits")."""
    lines = old.split("\n")
    for change in sorted(changes, key=lambda e: e[0], reverse=True):
        lines[change[0] : change[1]] = change[2].split("\n") if len(change) > 2 else []
    return "\n".join(lines)


def update_frame(
    p: Page,
    sent: Sent,
    events: list[dict[str, Any]],
    made: dict[tuple[int, int], tuple[str, str, tuple[Edit, ...] | None]] | None = None,
) -> dict[str, Any] | None:
    """The update from what `sent` holds to `p`, or None when a whole board is needed
    (nothing sent yet, a new round). Records what is sent in `sent`.

    A changed part goes whole (``"parts": {id: html}``) or, when that is shorter, as line
    edits of the text the connection holds (``"edits": {id: [[start, end, text], …]}``,
    `edits`); the board element's attributes that changed go as ``"board": {name: value}``
    (None: removed). `made`: the edits worked out already for this version's frames, by the
    two texts (a shared part's old and new text are the same objects for every connection
    that held the same version: their edits are worked out once)."""
    if sent.whole() or p.round != sent.round or p.trains != sent.trains:
        return None
    whole: dict[str, str] = {}
    changed: dict[str, tuple[Edit, ...]] = {}
    held = sent.texts
    for key, html in p.parts.items():
        before = held.get(key)
        if before is html or before == html:
            continue
        if before is None:
            diff = None
        elif made is None:
            diff = edits(before, html)
        else:
            pair = (id(before), id(html))
            known = made.get(pair)
            # the texts are kept with their edits, so neither id is another object's meanwhile
            if known is not None and known[0] is before and known[1] is html:
                diff = known[2]
            else:
                diff = edits(before, html)
                made[pair] = (before, html, diff)
        if diff is None:
            whole[key] = str(html)
        else:
            changed[key] = diff
    frame: dict[str, Any] = {
        "type": "update",
        "v": p.version,
        "base": sent.version,
        "events": events,
        "parts": whole,
    }
    if changed:
        frame["edits"] = changed
    if p.attrs != sent.attrs:
        attrs: dict[str, str | None] = {k: v for k, v in p.attrs.items() if sent.attrs.get(k) != v}
        attrs.update((k, None) for k in sent.attrs if k not in p.attrs)
        frame["board"] = attrs
    sent.took(p, [*whole, *changed])
    return frame


# ---------------------------------------------------------------- reading a part (bench's clients)
# Applying a whole update frame to a page's text is the tests' (tests/frames.py).

_START = re.compile(r'<([a-z][a-z0-9]*)\b[^>]*?\sid="([^"]+)"[^>]*>')


def _element(html: str, part: str) -> tuple[int, int]:
    """Where the element with id `part` starts and ends in `html` (parts are whole elements:
    the tags of one name nest properly, and no attribute holds a raw "<" or ">")."""
    for start in _START.finditer(html):
        if start.group(2) != part:
            continue
        name = start.group(1)
        tags = re.compile(rf"<{name}\b[^>]*>|</{name}>")
        depth = 0
        for tag in tags.finditer(html, start.start()):
            depth += -1 if tag.group(0).startswith("</") else 1
            if depth == 0:
                return start.start(), tag.end()
        break
    raise KeyError(f"no element with id {part!r}")


def part_text(html: str, part: str) -> str:
    """The element with id `part` in `html`, as text (what a part's edits apply to)."""
    start, end = _element(html, part)
    return html[start:end]
