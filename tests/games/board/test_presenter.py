"""games.board.presenter.present: what each viewer's board holds, for real positions of the game.

No database: the presenter gets engine views directly. Test names cite the rules.
"""

from __future__ import annotations

import pytest
from django.utils import translation

from engine.rules import apply, legal_actions
from engine.state import Action
from engine.tiles import is_double
from engine.views import view
from games.board.presenter import Flags, present
from games.board.viewer import Viewer
from games.board.words import hint_message, why_not
from games.words import say

from . import states as S


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def spoken(tile):
    return f"{max(tile)}-{min(tile)}"


def test_r7_holder_sees_only_confirm_engine_and_others_wait():
    st = S.start(4)
    holder = view(st, st.holder)
    b = present(holder, S.seats(4))
    assert b.actions.engine and not (b.actions.draw or b.actions.pass_ or b.actions.end)
    assert b.your_turn and not b.engine_placed
    # Every hand tile waits for the engine (R7), so none is playable.
    assert all(
        not t.targets
        and t.why == "First the engine double goes in the centre."
        and t.why_url == "/rules/#R7"
        for t in b.hand.tiles
    )
    other = (st.holder + 1) % 4
    ob = present(view(st, other), S.seats(4))
    assert not ob.actions.engine and not ob.your_turn and not ob.actions.hint
    assert all("Wait for your turn" in t.why for t in ob.hand.tiles)


def _holder_board(players, seed):
    st = S.start(players, seed)
    return st, present(view(st, st.holder), S.seats(players))


def test_r7_r8_the_holders_tiles_that_will_start_the_train_are_lit_and_a_tap_places_the_engine():
    """While the engine waits for its holder (R7), the tiles that may start their train once it
    is placed (R8: exactly the legal first plays after placing it) carry that train."""
    for seed in range(1, 40):
        st, b = _holder_board(2, seed)
        placed = apply(st, Action("engine", st.holder))
        starts = {spoken(a.tile) for a in legal_actions(placed) if a.act == "play"}
        assert {t.data for t in b.hand.tiles if t.after_engine} == starts
        assert all(t.after_engine == str(st.holder) for t in b.hand.tiles if t.after_engine)
        assert all(not t.targets for t in b.hand.tiles)  # nothing is playable before it is placed
        if starts:
            assert b.status.startswith("Your turn: confirm the engine double, or tap a lit tile")
            assert b.engine_then == ""
        else:  # R10: the first turn can only be a pass, and confirming says it makes it
            assert b.engine_then == "pass" and "also passes" in b.status
            assert [a.act for a in legal_actions(placed)] == ["pass"]
    others = present(view(st, (st.holder + 1) % 2), S.seats(2))
    assert not any(t.after_engine for t in others.hand.tiles) and others.engine_then == ""


def test_r10_a_holder_with_no_tile_to_start_is_told_that_confirming_also_passes():
    seed = next(
        s
        for s in range(1, 400)
        if not any(t.after_engine for t in _holder_board(4, s)[1].hand.tiles)
    )
    _st, b = _holder_board(4, seed)
    assert b.engine_then == "pass" and b.actions.engine


@pytest.mark.parametrize(
    "builder", [S.first_turn_chain, S.mid_game, S.with_draw, S.with_open_double]
)
@pytest.mark.parametrize("players", [2, 4, 10])
def test_r23_targets_are_exactly_the_legal_plays(builder, players):
    st = builder(players)
    v = view(st, st.turn)
    b = present(v, S.seats(players))
    legal = legal_actions(st)
    for t in b.hand.tiles:
        expected = sorted(
            str(a.train) for a in legal if a.act == "play" and spoken(a.tile) == t.data
        )
        assert sorted(t.targets) == expected
        assert t.targets_attr == " ".join(t.targets)
        # A tile says why exactly when it fits nowhere.
        assert bool(t.why) == (not expected)
    acts = {a.act for a in legal}
    assert b.actions.draw == ("draw" in acts)
    assert b.actions.pass_ == ("pass" in acts)
    assert b.actions.end == ("end" in acts)
    assert b.actions.engine == ("engine" in acts)
    glowing = {t.key for t in b.trains if t.open_to_me}
    assert glowing == {str(a.train) for a in legal if a.act == "play"}


def test_r15_draw_is_offered_alone_and_the_drawn_tile_is_marked():
    st = S.with_draw(4)
    b = present(view(st, st.turn), S.seats(4))
    assert b.actions.draw and not b.actions.pass_ and not b.actions.end
    assert not any(t.targets for t in b.hand.tiles)
    drawn = apply(st, Action("draw", st.turn))
    bd = present(view(drawn, drawn.turn), S.seats(4))
    marked = [t for t in bd.hand.tiles if t.drawn]
    assert len(marked) == 1
    assert not bd.actions.draw  # never a second draw (R15)
    others = [t for t in bd.hand.tiles if not t.drawn]
    if marked[0].targets:
        assert all(
            t.why == "After drawing, only the drawn tile may be played."
            and t.why_url.endswith("#R15")
            for t in others
        )
    else:
        assert bd.actions.pass_


def test_r19_tiles_say_the_open_double_must_be_satisfied_first():
    st = S.with_open_double(4)
    v = view(st, st.turn)
    b = present(v, S.seats(4))
    double, key = st.open_doubles[0][0], st.train_key(st.open_doubles[0][1])
    for t in b.hand.tiles:
        if not t.targets and not (v.drawn_tile is not None):
            assert (
                t.why_url.endswith("#R19")
                and "must be satisfied first" in t.why
                and spoken(double) in t.why
            )
        for target in t.targets:
            assert target == str(key)
    badged = [(tr.key, x.badge) for tr in b.trains for x in tr.tiles if x.badge]
    assert badged[0] == (str(key), 1)
    assert b.open_doubles_text == "1 open double"


def test_r8_first_turn_why_names_the_own_train_end():
    st = S.first_turn_chain(4)
    v = view(st, st.turn)
    reasons = [why_not(v, t) for t in v.hand if not any(a.tile == t for a in v.legal)]
    assert reasons and all(r is not None and r.rule == "R8" for r in reasons)
    assert reasons[0].params == {"end": v.train(st.turn).end}
    assert (
        say(reasons[0])
        == f"On your first turn you play only on your own train, which ends in {v.train(st.turn).end}."
    )


def test_r13_why_names_a_closed_train_that_would_fit():
    st = S.mid_game(4, plays_after_first=14)
    v = view(st, st.turn)
    for tile in v.hand:
        reason = why_not(v, tile)
        if reason is not None and reason.code == "train_not_open":
            break
    else:
        pytest.skip("no closed train fits a tile in this position")
    owner = int(reason.params["train"])  # type: ignore[call-overload]
    assert reason.rule == "R13" and owner != st.turn
    assert (
        say(reason, names=S.NAMES)
        == f"{S.NAMES[owner]}'s train ends in {reason.params['end']} but is not open to you."
    )


def test_r9_end_first_turn_previews_what_it_leaves():
    st = S.first_turn_chain(4)
    b = present(view(st, st.turn), S.seats(4))
    assert b.actions.end
    assert "1 tile" in b.actions.end_text or "tiles" in b.actions.end_text
    last = st.trains[st.turn].tiles[-1]
    assert (b.actions.end_double is not None) == is_double(last)


def test_r24_spectator_gets_no_hand_no_actions():
    st = S.mid_game(5, seed=9)
    b = present(view(st, None), S.seats(5), viewer=Viewer())
    assert b.spectator and b.hand is None and b.me is None
    assert not (
        b.actions.engine or b.actions.draw or b.actions.pass_ or b.actions.end or b.actions.hint
    )
    assert not (b.undo or b.redo or b.restart)
    assert all(s.revealed is None for s in b.seats)


def test_r24_a_hand_is_never_presented_to_a_viewer_who_does_not_play_it():
    st = S.mid_game(4)
    with pytest.raises(PermissionError):
        present(view(st, 1), S.seats(4), viewer=Viewer(controlled=(0,)))
    with pytest.raises(PermissionError):
        present(view(st, 1), S.seats(4), viewer=Viewer())


def test_r24_relay_cover_hides_every_hand_until_revealed():
    st = S.play_until(S.start(3, seed=5), lambda s: s.phase == "play" and s.turn == 1)
    seats = S.seats(3, {0: "local", 1: "local", 2: "local"})
    viewer = Viewer(controlled=(0, 1, 2), revealed=0)
    assert viewer.cover_seat(st.turn, st.over) == 1
    assert viewer.shown_seat(st.turn, st.over) is None
    b = present(view(st, None), seats, viewer=viewer)
    assert b.cover is not None and b.cover.index == 1 and b.hand is None
    assert b.status == "Pass the device to Ben."
    # Rendering the covered seat's own view is refused outright.
    with pytest.raises(PermissionError):
        present(view(st, 1), seats, viewer=viewer)
    shown = Viewer(controlled=(0, 1, 2), revealed=1)
    assert shown.cover_seat(st.turn, st.over) is None and shown.shown_seat(st.turn, st.over) == 1
    b = present(view(st, 1), seats, viewer=shown)
    assert b.cover is None and b.hand is not None and b.your_turn


def test_r24_relay_rules_for_the_seat_shown():
    v = Viewer(controlled=(0, 2))
    assert v.shown_seat(1, False) is None and v.cover_seat(1, False) is None  # nobody revealed yet
    assert Viewer(controlled=(0, 2), revealed=2).shown_seat(1, False) == 2  # a computer acts
    assert Viewer(controlled=(0, 2), revealed=2).cover_seat(0, False) == 0  # the next local seat
    assert Viewer(controlled=(3,)).shown_seat(0, False) == 3  # one seat: no relay
    assert Viewer(controlled=(3,)).cover_seat(3, False) is None
    assert Viewer(controlled=(0, 2), revealed=2).shown_seat(None, True) == 2  # round over: no cover
    assert Viewer().shown_seat(0, False) is None


def test_r21_round_over_reveals_every_hand_and_marks_the_lowest_quietly():
    history, st = S.history_of(4, seed=7, rounds=2)
    b = present(view(st, 0), S.seats(4), flags=Flags(next_round=True, history=tuple(history)))
    assert b.round_over and b.hand is None and b.next_round
    assert [s.revealed for s in b.seats] == [tuple(h) for h in st.hands]
    lowest = min(st.round_points)
    assert [s.lowest for s in b.seats] == [p == lowest for p in st.round_points]
    assert [s.points for s in b.seats] == list(st.round_points)
    assert [s.total for s in b.seats] == list(st.totals)  # no bonus for the lowest (R21)
    assert [[c["points"] for c in row["cells"]] for row in b.history] == [list(p) for p in history]
    assert b.result_text


def test_r22_match_over_lists_winners_sharing_ties():
    history, st = S.history_of(3, seed=11)
    assert st.phase == "match_over"
    b = present(
        view(st, 0),
        S.seats(3),
        flags=Flags(offers=S.again_offer(3), next_round=True, history=tuple(history)),
    )
    assert b.match_over and [o.name for o in b.offers] == ["play_again"] and not b.next_round
    best = min(st.totals)
    assert [s.winner for s in b.seats] == [t == best for t in st.totals]
    assert b.ranking[0].total == best
    winner_names = [s.name for s in b.seats if s.winner]
    assert all(name in b.winners_text for name in winner_names)


def test_r22_tied_winners_are_named_together():
    _history, st = S.history_of(3, seed=11)
    v = view(st, 0)._replace(winners=(0, 2))
    b = present(v, S.seats(3))
    assert b.winners_text == "Ana and Chloé win the match together!"
    assert [s.winner for s in b.seats] == [True, False, True]


def test_r27_r28_buttons_only_when_offered():
    st = S.mid_game(4)
    v = view(st, st.turn)
    assert not present(v, S.seats(4)).undo
    b = present(
        v,
        S.seats(4),
        flags=Flags(undo=True, redo=True, restart=True, next_round=True),
    )
    assert b.undo and b.redo and b.restart
    assert not b.next_round  # the round is not over


def test_hand_sizes_and_turn_are_public():
    st = S.mid_game(10, seed=3, plays_after_first=30)
    b = present(view(st, None), S.seats(10), viewer=Viewer())
    assert [s.hand_size for s in b.seats] == [len(h) for h in st.hands]
    assert b.turn_seat.index == st.turn
    assert b.compact
    assert b.trains[-1].mexican and b.trains[-1].marker


def test_trains_fold_older_tiles():
    st = S.mid_game(4, plays_after_first=14)
    b = present(view(st, None), S.seats(4), viewer=Viewer())
    for tr, real in zip(b.trains, st.trains, strict=True):
        n = len(real.tiles)
        assert len(tr.tiles) == min(n, 7)
        assert tr.folded_wide == max(0, n - 7)
        assert tr.folded_narrow == max(0, n - 3)
        assert [x.tile for x in tr.tiles] == list(real.tiles[-7:])
        assert sum(not x.far for x in tr.tiles) == min(n, 3)


def test_accessible_train_names():
    st = S.mid_game(4)
    b = present(view(st, 0), S.seats(4))
    mexican = b.trains[-1]
    assert mexican.aria_label.startswith("Mexican train, ")
    assert "open" in mexican.aria_label
    assert b.trains[0].aria_label.startswith("Your train, ")
    assert b.trains[1].aria_label.startswith("Ben's train, ")


def test_r23_hint_message_names_a_legal_move_and_a_reason():
    st = S.mid_game(4)
    v = view(st, st.turn)
    msg = hint_message(v)
    assert msg["type"] == "hint" and msg["reason"]
    legal = legal_actions(st)
    assert any(
        a.act == msg["act"]
        and (msg["tile"] is None or spoken(a.tile) == msg["tile"])
        and a.train == msg["train"]
        for a in legal
    )
    idle = hint_message(view(st, (st.turn + 1) % 4))
    assert idle["act"] is None and idle["tile"] is None


def test_titles_and_status_follow_the_turn():
    st = S.mid_game(4)
    mine = present(view(st, st.turn), S.seats(4))
    assert mine.title.startswith("Your turn") and mine.your_turn
    other = present(view(st, (st.turn + 1) % 4), S.seats(4))
    assert not other.your_turn and S.NAMES[st.turn] in other.status


def test_the_hand_line_says_what_to_do_now():
    st = S.with_draw(4)
    assert present(view(st, st.turn), S.seats(4)).status == "Your turn: no tile fits, so draw one."
    drawn = apply(st, Action("draw", st.turn))
    status = present(view(drawn, drawn.turn), S.seats(4)).status
    assert status in (
        "The drawn tile fits: play it.",
        "Your turn: nothing fits, so pass; your train opens.",
    )
    st = S.first_turn_chain(4)
    assert (
        present(view(st, st.turn), S.seats(4)).status
        == "Your first turn: add another tile to your chain, or end your turn."
    )
    st = S.start(4)
    assert present(view(st, st.holder), S.seats(4)).status in (
        "Your turn: confirm the engine double, or tap a lit tile: that places it and starts your train.",
        "Your turn: none of your tiles can start your train, so confirming the engine double also passes.",
    )


def _must_pass(marked: bool):
    """The first position (over a few deals) where the seat to act can only pass, its own
    train already open (`marked`) or not."""
    for seed in range(1, 60):
        st = S.start(4, seed)
        for _ in range(2000):
            if st.over:
                break
            v = view(st, st.turn)
            if (
                st.phase == "play"
                and {a.act for a in v.legal} == {"pass"}
                and v.train(st.turn).marker == marked
            ):
                return st
            st = S.step(st)
    raise AssertionError("no such position")


def test_the_pass_line_does_not_open_a_train_already_open():
    """R15: a pass marks your train; when it is open already the line says it stays open,
    not that it opens."""
    st = _must_pass(marked=True)
    assert (
        present(view(st, st.turn), S.seats(4)).status
        == "Your turn: nothing fits, so pass; your train stays open."
    )
    st = _must_pass(marked=False)
    assert (
        present(view(st, st.turn), S.seats(4)).status
        == "Your turn: nothing fits, so pass; your train opens."
    )


def test_the_last_move_is_marked_on_its_train_and_doubles_lie_across():
    st = S.mid_game(4, plays_after_first=14)
    key = next(str(st.train_key(i)) for i, t in enumerate(st.trains) if t.tiles)
    b = present(view(st, st.turn), S.seats(4), flags=Flags(last_train=key))
    marked = [(t.key, x.tile) for t in b.trains for x in t.tiles if x.last_move]
    train = next(t for t in b.trains if t.key == key)
    assert marked == [(key, train.tiles[-1].tile)]
    assert all(x.double == is_double(x.tile) for t in b.trains for x in t.tiles)
    assert not any(
        x.last_move for t in present(view(st, st.turn), S.seats(4)).trains for x in t.tiles
    )
    # The label under a train: the name and the tiles in hand.
    assert b.trains[0].short == S.NAMES[0] and b.seats[0].hand_size_text.endswith("in hand")
