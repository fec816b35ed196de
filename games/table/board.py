"""Rendering a match's board for one viewer: reads, flags, parts, message.

The board is drawn by games' root package games/board/ (which the replay shares):

- games.board.viewer: who may see what (`Viewer`: `shown_seat`, `cover_seat`, R24);
- games.board.presenter: a `SeatView` turned into the template context (`present`);
- games.board.words: the words (whose turn, why a tile fits nowhere, hints, log lines);
- games.board.parts: the board as named parts, the shared ones rendered once per version
  and language, and the update frames carrying only the parts that changed;
- games.board.draw: the seats' names (`seat_infos`), a presented board's parts and HTML.

This module puts them together for a `Match` at the live table: `match_flags` (from the
version's shared reads, games.table.board_reads, and what every viewer of it shares,
games.table.facts; per viewer, what it may do is asked once, games.permissions.powers),
`board_context` (the viewer's seat chosen by the relay), `match_page` (its parts, the shared
ones kept on the reads), `board_message` (the whole board), `events_since` (an update's
events) and `render_log`.

## Contract with a connection's screen (games/table/screen.py)

**Rendering.** ``match_page(*, match, viewer, reads)`` gives a viewer's board as parts
(``parts.Page``): a connection's screen sends ``parts.update_frame(page, sent, events)`` —
only what changed since it last sent — or the whole ``page.message()``.
`viewer` is a `Viewer`: the seats this connection may act
for (``selectors.seats_controlled``), the relay seat last revealed on it, whether it
watches. Pick the seat with ``viewer.shown_seat(turn, over)`` and pass
``selectors.seat_view(match, that_seat)`` (``None``: a spectator view). While the
relay cover is up (``viewer.cover_seat(turn, over)`` is not None) the shown seat is
None, so no hand reaches the page. ``board_message(*, match, viewer)`` does all of
this and returns the whole server → client message. Render inside
``translation.override(<the connection's language>)``.

In the HTML (all computed on the server; the browser never applies a rule):
``#board[data-version][data-seat][data-turn][data-your-turn][data-phase]``; each hand
tile ``[data-tile="5-3"][data-targets="0 mexican"][data-why="…"][data-why-url="/rules/#R13"]``
(targets from ``view.legal``; when it fits nowhere, `why` the reason in words from
`games.words` and `why-url` the rule's anchor on the rules page); each train
``[data-train="0"|"mexican"]``; buttons ``[data-act="engine|draw|pass|end"]`` only
for legal non-play actions; ``[data-cmd="undo|redo|restart|next_round|hint"]``
only when allowed (Undo's title says what it takes back); the commands the table's menu offers
(games.commands `offers`: each `Offer` rendered by its own template, e.g. ``[data-cmd="last_round"]``
in its dialog, R32); once the match is over, the match-end panel's offers (Play again, R29),
where ``select[data-choose]`` is a choice sent as its own command and ``a[data-follow]`` a
link the page follows as soon as it appears; ``[data-answered]``: to the asker, who declined their request or that
nobody answered in time; ``[data-reveal=<seat>]`` on the
relay cover; ``#board[data-only="draw|pass|"]``: the one legal action when it is to draw
or to pass (the opt-in "draw and pass for me" sends it); ``[data-pace-now]`` the computers'
pace (everyone), ``[data-pace="relaxed|normal|fast|instant"][aria-pressed]`` in the menu
and ``[data-skip]`` ("Skip to my turn", on a computer's turn) for seated people only.

**Client → server** (JSON over ``ws(s)://<host>/ws/m/<id>/``, spectators add
``?watch=<token>``): the commands of the registry (games/commands/: the table's and table
talk's), each with its typed fields, listed in docs/protocol.md (a test compares the two).

**Server → client**:

- ``{"type": "board", "version": v, "html": "...", "title": "...", "your_turn": bool}``
  (``board_message``): on connect, ``sync`` and a new round
- ``{"type": "update", "v": v, "base": b, "events": [...], "parts": {id: html}, "board": {attr: value}}``
  (games.board.parts): the parts changed since version ``b`` (the page's), the board
  element's attributes when they changed; events from engine.events (never a hidden tile)
- ``{"type": "error", "code": ..., "message": ..., "request_id": ...}``, for an illegal move
  also ``"reason"`` (the engine's reason code), ``"rule"`` and ``"why_url"`` (its anchor)
- ``{"type": "ack", "request_id": ..., "version": v, "duplicate": bool, "asked": bool}``, and
  ``"request": "open|done|declined|expired|void"`` for a change asked of the others (also on a
  repeated request id)
- ``{"type": "hint", "tile": "5-3", "train": "mexican"|0|null, "act": ..., "reason": "<one line>"}``
  (games.board.words ``hint_message``)
- ``{"type": "log", "html": ...}`` (``render_log``); the open log panel also
  refreshes itself from ``/m/<id>/log/`` (``games:table_log``) after each board

A connection closed with code 4403 (may not watch) is not retried by the client.
The HTTP page (``games.table.views.table``) puts the same ``board_html(board_context(...))``
(games.board.draw) into ``templates/games/table.html`` on first load, so the table works
before the socket connects.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC
from typing import TYPE_CHECKING, Any, TypeVar

from django.template import engines
from django.urls import reverse
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

from engine import events
from engine.deal import engine_value
from engine.views import SeatView
from engine.views import view as view_of
from games import commands, consent, log, permissions
from games.board import parts
from games.board.draw import isolated, seat_infos, shared_of
from games.board.jinja_env import active_language as language
from games.board.jinja_env import fixed_language
from games.board.jinja_env import text as _  # Django's gettext, each word kept once translated
from games.board.presenter import Ask, Board, Flags, SeatInfo, present
from games.board.viewer import Viewer
from games.board.words import log_line
from games.models import LogEntry
from games.reads import selectors
from games.services import asking, moves
from games.table import away, board_reads, facts
from games.table.commands import pace, restart
from games.table.commands.undo import undo_words

if TYPE_CHECKING:
    from games.models import ChangeRequest, Match
    from games.permissions import Powers

T = TypeVar("T")

# ---------------------------------------------------------------- rendering a match


def match_flags(
    match: Match,
    viewer: Viewer,
    view: SeatView,
    reads: board_reads.BoardReads | None = None,
    seats: Sequence[SeatInfo] | None = None,
) -> Flags:
    """What the presenter needs beyond the view: offers, pause, history, last line.

    From `reads` (a `games.table.board_reads.BoardReads` of this match, which every viewer
    of one version shares), or read now when not given; `seats`: ``seat_infos(match)``
    when the caller has it already."""
    if reads is None:
        reads = board_reads.read(match)
    shared = facts.of(reads)  # the same for every viewer of this version
    user = viewer.user
    over = view.phase in ("round_over", "match_over")
    history = tuple(points for number, points in reads.history if number < view.round or over)
    last = reads.last
    following = reads.following if view.phase == "match_over" else None
    restarted = _restarted(reads)
    signed_in = user is not None and getattr(user, "is_authenticated", False)
    # What this viewer may do, worked out once for every question below (games.permissions)
    can = powers_at(match, user if signed_in else None, reads)
    mine = list(can.mine)
    # R27, R24: no undo once the round is over: every hand has been shown, so its moves stand.
    undo, redo = (
        selectors.undo_redo_in(reads.folded, mine) if signed_in and not over else (False, False)
    )
    names = [s.name for s in (seats if seats is not None else seat_infos(match))]
    undo_text = ""
    if undo:
        undo_text = undo_words(selectors.undo_takes_back(reads.folded, mine), names, view.seat)
    ask = ask_for(match, reads.ask, user if signed_in else None, powers=can)
    seats_away = away.for_viewer(
        match, user if signed_in else None, names, powers=can, due=shared.due
    )
    waiting = ask is not None  # one request at a time: no other undo or restart meanwhile
    answered = (
        told(match, shared.answered, user if signed_in else None)
        if signed_in and not waiting
        else ""
    )
    offered = commands.offers(
        commands.OfferContext(
            match=match,
            user=user if signed_in else None,
            view=view,
            mine=tuple(mine),
            waiting=waiting,
            powers=can,
        )
    )
    return Flags(
        match_id=match.pk,
        version=match.version,
        undo=undo and not waiting,
        redo=redo,
        restart=signed_in and not waiting and shared.restart and can.can(restart.MAY),
        next_round=signed_in and shared.next_round and can.can(moves.MAY_NEXT_ROUND),
        next_match_url=reverse("games:table", args=[following.pk]) if following is not None else "",
        paused=reads.paused,
        searched=len((match.state or {}).get("search") or ()),
        pace=getattr(match, "pace", "normal"),
        hurry=bool(getattr(match, "hurry", False)),
        may_pace=match.status == "playing" and can.can(pace.MAY),
        ask=ask,
        answered=answered,
        offers=offered,
        final=bool((match.state or {}).get("start", {}).get("final")),
        away=seats_away,
        history=history,
        undo_text=undo_text,
        last_event=log_line(last, names, view.seat, engine=view.engine) if last is not None else "",
        last_train=_last_train(reads),
        restarted=restarted[0],
        restarted_text=restarted[1],
    )


def powers_at(match: Match, user: object, reads: board_reads.BoardReads | None = None) -> Powers:
    """What `user` (None: not signed in) may do at `match` (games.permissions.powers), kept on
    `reads`, the version's reads of `match`, and on the versions derived from it by moves
    (board_reads.advance), which change nobody's seat."""
    if reads is None or reads.match is not match:
        return permissions.powers(user, match)
    known = reads.shared.setdefault("powers", {})
    uid = getattr(user, "pk", None)
    can = known.get(uid)
    if can is None:
        can = known[uid] = permissions.powers(user, match)
    return can


def _restarted(reads: board_reads.BoardReads) -> tuple[str, str]:
    """The current round's latest restart (R28), for every page to announce: which one (the
    number of its log line in the round) and who restarted it, in words. Nothing when the
    round was not restarted."""
    line = next((x for x in reversed(getattr(reads, "lines", ())) if x.kind == log.RESTART), None)
    if line is None:
        return "", ""
    name = isolated(line.username) if line.username else _("A player")
    text = _("%(name)s restarted the round: every hand is back as it was dealt.") % {"name": name}
    return f"{line.round_id}-{line.seq}", text


def _last_train(reads: board_reads.BoardReads) -> str:
    """The train the last move still in effect played on ("" when it was no play): after an
    Undo, the move before the ones taken back (R27)."""
    action: object = None
    if reads.folded is not None:
        if reads.folded.effective:
            action = reads.folded.effective[-1].action
    elif reads.last is not None and reads.last.kind == "action":
        action = reads.last.action
    if isinstance(action, dict) and action.get("act") == "play":
        return str(action.get("train", ""))
    return ""


def told(match: Match, closed: ChangeRequest | None, user: object) -> str:
    """To the asker of the match's latest request `closed`, declined or expired in this round
    within the last `ANSWER_SHOWN`: who declined it, or that nobody answered in time, in the
    viewer's language ("" otherwise). `closed`: `selectors.last_closed_request`, or None."""
    uid = permissions.user_id(user)
    if closed is None or uid != closed.asked_by_id or closed.round_number != match.round_number:
        return ""
    kind = consent.KINDS.get(closed.change)
    if kind is None:
        return ""
    if closed.status == "declined":
        who = closed.declined_by.get_username() if closed.declined_by is not None else _("A player")
        return str(kind.declined) % {"name": isolated(who)}
    return str(kind.expired)


def ask_for(
    match: Match, ask: ChangeRequest | None, user: object, *, powers: Powers | None = None
) -> Ask | None:
    """The open request (`games.models.ChangeRequest`, a games.consent kind) as `user` sees it
    (`powers`: what they may do, games.permissions.powers, when the caller has it)."""
    if ask is None or ask.round_number != match.round_number:
        return None
    uid = permissions.user_id(user)
    mine = uid is not None and uid == ask.asked_by_id
    kind = consent.kind(ask.change)
    if mine:  # the asker reads about their own request in the second person
        text = str(kind.mine)
    else:
        text = str(kind.theirs) % {"name": isolated(ask.asked_by.get_username())}
    can = powers if powers is not None else permissions.powers(user, match)
    answer = uid is not None and uid not in ask.accepted and can.can(asking.MAY_ANSWER, request=ask)
    expires = ask.expires_at.isoformat()
    # When it closes: a clock time the page shows in the viewer's own time zone (table.js).
    clock = format_html(
        '<time datetime="{}" data-ask-time>{}</time>',
        expires,
        ask.expires_at.astimezone(UTC).strftime("%H:%M:%S UTC"),
    )
    until = mark_safe(conditional_escape(_("Answers close at %(time)s.")) % {"time": clock})
    return Ask(
        id=ask.pk,
        change=ask.change,
        text=text,
        mine=mine,
        answer=answer,
        expires=expires,
        until=until,
    )


def _render(name: str, context: dict[str, Any]) -> SafeString:
    """A Jinja2 template of ``games/jinja2/`` (games/board/jinja_env.py) rendered; it autoescapes, so
    the HTML is safe to put into a Django page as it is."""
    with fixed_language():
        return mark_safe(engines["jinja2"].get_template(name).render(context))


def board_context(
    *, match: Match, viewer: Viewer, reads: board_reads.BoardReads | None = None
) -> Board:
    """The presenter's output for one viewer of a started match, the seat chosen by the relay
    (`reads`: see `match_flags`)."""

    def once(key: object, make: Callable[[], T]) -> T:
        # What every viewer of this version shares is worked out for the first one only.
        return reads.once(key, make) if reads is not None and reads.match is match else make()

    state = once("state", lambda: selectors.match_state(match))  # parsed once for both views
    public = once("public", lambda: view_of(state, None))
    over = public.phase in ("round_over", "match_over")
    seat = viewer.shown_seat(public.turn, over)
    view = public if seat is None else view_of(state, seat)
    # computers' names are translated, once per language; who is at the table is read once
    # for every language (games.table.facts)
    seen = facts.of(reads).seen if reads is not None and reads.match is match else None
    seats = once(
        ("seats", language()),
        lambda: seat_infos(match, with_presence=seen is None, seen=seen),
    )
    return present(
        view, seats, viewer=viewer, flags=match_flags(match, viewer, view, reads, seats=seats)
    )


def match_page(
    *,
    match: Match,
    viewer: Viewer,
    reads: board_reads.BoardReads | None = None,
    kept: dict[str, Any] | None = None,
) -> parts.Page:
    """One viewer's board of a started match as parts: the shared parts made once per version
    and language for every viewer (kept on `reads`), the viewer's own ones now (`kept`: the
    connection's own parts as last rendered, ``parts.Sent.kept``; those unchanged are reused)."""
    with fixed_language():  # the board's words, looked up in this language only once
        board = board_context(match=match, viewer=viewer, reads=reads)
        if reads is not None and reads.match is match:
            shared = reads.once(
                ("shared", language()), lambda: shared_of(board, reads.shared.get("rows"))
            )
        else:
            shared = shared_of(board)
        return parts.page(board, shared, kept)


def events_since(reads: board_reads.BoardReads, base: int) -> list[dict[str, Any]]:
    """The events (engine.events) from version `base` to the version of `reads`: one per log
    entry after `base`, then what the public views show changed when the view of `base`
    is known (the version just before). Public only (R24): a draw names no tile."""
    out = [
        events.from_log(line.kind, line.seat, line.action)
        for line in reads.lines
        if line.version > base
    ]
    before = reads.shared.get("before")
    after = reads.shared.get("public")
    if before is not None and before[0] == base and after is not None:
        out.extend(events.between(before[1], after))
    return out


def board_message(
    *, match: Match, viewer: Viewer, reads: board_reads.BoardReads | None = None
) -> dict[str, Any]:
    """The whole ``{"type": "board", …}`` message for one connection (see the module docstring)."""
    with fixed_language():
        return match_page(match=match, viewer=viewer, reads=reads).message()


def render_log(*, match: Match, viewer_seat: int | None) -> SafeString:
    """The log panel (``games/jinja2/games/board/log.html``): every round of the match, every entry
    in words."""
    names = [s.name for s in seat_infos(match)]
    rounds: dict[int, list[str]] = {}
    entries = (
        LogEntry.objects.filter(round__match=match)
        .select_related("user", "round")
        .order_by("round__number", "seq")
    )
    for entry in entries:
        number = entry.round.number
        rounds.setdefault(number, []).append(
            log_line(entry, names, viewer_seat, engine=engine_value(number, match.length))
        )
    groups = [
        {"title": _("Round %(round)s") % {"round": n}, "lines": lines[::-1]}  # newest first
        for n, lines in sorted(rounds.items(), reverse=True)
    ]
    return _render("games/board/log.html", {"groups": groups})
