"""The two-grid gem game (seed 003, rulings GG-1 to GG-3), from hand-built positions and whole games.

Geometry (boards.md section 3), worked out by hand for these tests rather than read from the
engine's tables: red (i, j) and blue (i, j) stand at (i, j) and (i + 0.5, j + 0.5). A red step
right from (i, j) crosses the blue line between b(i, j - 1) and b(i, j); a red step up crosses
the blue line between b(i - 1, j) and b(i, j). Red (i, j)'s diagonal neighbours are b(i, j),
b(i - 1, j), b(i, j - 1), b(i - 1, j - 1), and beyond each lies r(i +- 1, j +- 1).

Positions are built with ``rules.setup(red, blue, to_move)`` on the 11-gem board (6 x 6 grids:
files a-f, ranks 1-6), with a few spare gems far from the action so that no side is lost before
the move under test.
"""

from __future__ import annotations

import random

import pytest

import engine
from engine.core import Piece

RED_SPARES = ("r:f1", "r:a6")
BLUE_SPARES = ("b:f6", "b:a5")


def game(gems=11):
    return engine.load("twin-grids", gems=gems)


def setup(red, blue, to_move=1, gems=11):
    return game(gems).rules.setup(tuple(red) + RED_SPARES, tuple(blue) + BLUE_SPARES, to_move)


def moves_from(state, point):
    return {str(s) for s in state.legal_steps() if s.src == point}


# ------------------------------------------------------------------------------------ set-up
@pytest.mark.parametrize("gems,n", [(11, 6), (15, 8)])
def test_the_start_fills_each_grids_two_outer_edges(gems, n):
    s = game(gems).new()
    files = "abcdefgh"[:n]
    red = {f"r:a{k}" for k in range(1, n + 1)} | {f"r:{f}1" for f in files}
    blue = {f"b:{files[-1]}{k}" for k in range(1, n + 1)} | {f"b:{f}{n}" for f in files}
    pos = s.position()
    assert {p for p, pc in pos.items() if pc == Piece(1, "gem")} == red and len(red) == gems
    assert {p for p, pc in pos.items() if pc == Piece(2, "gem")} == blue and len(blue) == gems
    assert s.to_move == 1 and s.phase == "movement" and s.result is None
    assert len(game(gems).rules.spots) == 2 * n * n
    # The corner gem is boxed in by its own gems; every other gem can move.
    assert s.untrapped(1) == s.untrapped(2) == gems - 1
    assert s.trapped() == ("r:a1", f"b:{files[-1]}{n}")


def test_the_options_are_the_rulebooks_two_boards():
    assert game(15).board.name == "twin-grids-8" and game(11).board.name == "twin-grids-6"
    with pytest.raises(engine.BadOption, match="11 or 15"):
        engine.load("twin-grids", gems=13)


# ------------------------------------------------------------------------------------ GG-1: slides
def test_a_slide_goes_any_distance_and_stops_before_an_own_gem_and_at_the_edge():
    s = setup(["r:a3", "r:e3"], ["b:d5"])
    # r:a3 right: r:b3 r:c3 r:d3, then r:e3 is red's own; up to r:a5 (r:a6 is a spare); down to r:a1.
    assert moves_from(s, "r:a3") == {"r:a3-r:b3", "r:a3-r:c3", "r:a3-r:d3", "r:a3-r:a4", "r:a3-r:a5",
                                     "r:a3-r:a2", "r:a3-r:a1"}
    assert "in the way" in s.why_illegal("r:a3-r:f3")
    assert "one row or column" in s.why_illegal("r:a3-r:b4")
    assert "different grids" in s.why_illegal("r:a3-b:c3")


def test_a_blockade_stops_a_slide():  # GG-1
    # Blue on b:c2 and b:c3 = b(2,1) and b(2,2): the red step r:c3 -> r:d3 crosses between them.
    s = setup(["r:a3", "r:b6"], ["b:c2", "b:c3"])
    right = {m for m in moves_from(s, "r:a3") if m.endswith("3") and "r:a" not in m.split("-")[1]}
    assert right == {"r:a3-r:b3", "r:a3-r:c3"}
    why = s.why_illegal("r:a3-r:e3")
    assert "blockade" in why and "b:c2" in why and "b:c3" in why
    with pytest.raises(engine.IllegalStep):
        s.play("r:a3-r:d3")


def test_a_slide_passes_a_single_opponent_gem():  # GG-1
    s = setup(["r:a3", "r:b6"], ["b:c2"])
    assert s.why_illegal("r:a3-r:f3") is None
    s = s.play("r:a3-r:f3")
    assert s.position()["r:f3"] == Piece(1, "gem") and "r:a3" not in s.position()


def test_blue_is_blockaded_by_red_pairs_too():
    # The blue step b:a2 -> b:b2 (b(0,1) -> b(1,1)) crosses the red line x = 1 between r:b2 and r:b3.
    s = setup(["r:b2", "r:b3"], ["b:a2", "b:d4"], to_move=2)
    assert moves_from(s, "b:a2") & {"b:a2-b:b2", "b:a2-b:c2"} == set()
    assert "blockade" in s.why_illegal("b:a2-b:b2")
    s2 = setup(["r:b2"], ["b:a2", "b:d4"], to_move=2)
    assert "b:a2-b:e2" in moves_from(s2, "b:a2")


def test_turns_and_ownership_are_checked():
    s = game().new()
    assert "blue gem" in s.why_illegal("b:f1-b:e1") and "red's turn" in s.why_illegal("b:f1-b:e1")
    assert "no gem" in s.why_illegal("r:c3-r:c4")
    assert "never placed" in s.why_illegal("r:c3")
    assert "not a point" in s.why_illegal("r:z9-r:a1")
    s = s.play("r:a2-r:e2")
    assert s.to_move == 2 and "red gem" in s.why_illegal("r:e2-r:e3")


# ------------------------------------------------------------------------------------ GG-2: captures
def test_a_landing_gem_captures_two_at_once():  # GG-2
    # Red lands on r:c3 = r(2,2): b:c3 = b(2,2) up-right with r:d4 beyond, b:b2 = b(1,1) down-left
    # with r:b2 beyond. On the way up from r:c1 it passes b:b2 alone (no blockade).
    s = setup(["r:c1", "r:d4", "r:b2"], ["b:c3", "b:b2", "b:e5", "b:e4"])
    after = s.play("r:c1-r:c3")
    pos = after.position()
    assert "b:c3" not in pos and "b:b2" not in pos
    assert after.captures() == {1: 2, 2: 0} and after.events == ("captured b:b2, b:c3",)
    # The players lift the captured gems after the move: until then they still stand there.
    assert s.leftovers("r:c1-r:c3", after) == {"b:b2": Piece(2, "gem"), "b:c3": Piece(2, "gem")}
    assert after.result is None


def test_only_the_mover_captures_a_gem_landing_between_two_opponents_is_safe():  # GG-2
    # Blue lands on b:b2 = b(1,1), between r:b2 = r(1,1) and r:c3 = r(2,2) on a diagonal.
    s = setup(["r:b2", "r:c3"], ["b:e2", "b:e4"], to_move=2)
    after = s.play("b:e2-b:b2")
    assert after.position()["b:b2"] == Piece(2, "gem") and after.captures() == {1: 0, 2: 0}
    assert after.events == ()


def test_a_flank_needs_the_mover_beyond_on_the_same_diagonal():
    # Red lands on r:c3 next to b:c3, but r:d4 (beyond b:c3) is empty: nothing is captured.
    s = setup(["r:c1", "r:d5"], ["b:c3", "b:e4"])
    after = s.play("r:c1-r:c3")
    assert "b:c3" in after.position() and after.captures()[1] == 0


# ------------------------------------------------------------------------------------ GG-3: trapped gems and the end
def test_a_gem_boxed_in_by_blockades_is_trapped():  # GG-3
    # The four blue points round r:c3 = r(2,2) make a blockade on each of its four steps.
    s = setup(["r:c3", "r:a1"], ["b:b2", "b:c2", "b:b3", "b:c3"])
    assert moves_from(s, "r:c3") == set()
    assert "r:c3" in s.trapped()
    assert s.untrapped(1) == 3  # r:a1 and the two spares can move; r:c3 cannot


def test_a_side_left_with_one_untrapped_gem_loses():  # GG-3
    # b:a1 = b(0,0): its step right (to b:b1) crosses the red line x = 1 between r:b1 and r:b2, its
    # step up (to b:a2) the red line y = 1 between r:a2 and r:b2: red on those three traps it.
    rules = game().rules
    s = rules.setup(("r:b1", "r:b2", "r:a2", "r:c1", "r:d4", "r:f6"), ("b:a1", "b:c3", "b:f1"), to_move=1)
    assert s.result is None and s.trapped() == ("b:a1",) and s.untrapped(2) == 2
    after = s.play("r:c1-r:c3")  # flanks b:c3 with r:d4: blue keeps b:a1 (trapped) and b:f1
    assert "b:c3" not in after.position()
    assert after.result is not None and after.result.winner == 1
    assert after.result.reason == "Blue has only one untrapped gem left (GG-3)"
    assert after.legal_steps() == () and after.phase == "over"
    assert "over" in after.why_illegal("b:f1-b:f2")


def test_a_side_that_cannot_move_loses():  # GG-3
    # As above, but red's landing on r:c3 takes b:c3 (r:d4 beyond) and b:b2 (r:b2 beyond) at once:
    # blue keeps only the trapped b:a1.
    rules = game().rules
    s = rules.setup(("r:b1", "r:b2", "r:a2", "r:c1", "r:d4", "r:f6"), ("b:a1", "b:b2", "b:c3"), to_move=1)
    assert s.result is None
    after = s.play("r:c1-r:c3")
    assert after.captures()[1] == 2 and [p for p, pc in after.position().items() if pc.owner == 2] == ["b:a1"]
    assert after.result.winner == 1 and after.result.reason == "Blue cannot move (GG-3)"


def test_a_mover_who_leaves_themself_one_untrapped_gem_loses():  # GG-3
    # Red's bottom row is boxed in: each gem's step right meets its own neighbour (r:f1 the edge)
    # and its step up crosses between two blue gems of blue's bottom row; r:a1's step up meets
    # r:a2. r:a2's step right crosses between b:a1 and b:a2, so its only way out is up. Red
    # slides r:a6 down to r:a3, which shuts r:a2 in: red is left with r:a3 alone free, and loses,
    # though blue has not lost (its gems on b:b1 .. b:f1 can step up).
    rules = game().rules
    red = tuple(f"r:{f}1" for f in "abcdef") + ("r:a2", "r:a6")
    blue = tuple(f"b:{f}1" for f in "abcdef") + ("b:a2",)
    s = rules.setup(red, blue, to_move=1)
    assert s.result is None and s.untrapped(1) == 2
    after = s.play("r:a6-r:a3")
    assert after.captures() == {1: 0, 2: 0} and after.untrapped(2) > 1
    assert after.result.winner == 2 and after.result.reason == "Red has only one untrapped gem left (GG-3)"


def test_when_both_sides_are_down_to_one_untrapped_gem_the_side_that_moved_wins():  # GG-3
    # A hand-built position is judged as just after a move by the side not to move: the
    # opponent of that mover is judged first, so it loses, whichever colour it is.
    rules = game().rules
    after_red = rules.setup(("r:c3",), ("b:e5",), to_move=2)
    assert after_red.result.winner == 1 and after_red.result.reason == "Blue has only one untrapped gem left (GG-3)"
    after_blue = rules.setup(("r:c3",), ("b:e5",), to_move=1)
    assert after_blue.result.winner == 2 and after_blue.result.reason == "Red has only one untrapped gem left (GG-3)"


def test_the_move_cap_draws():
    s = engine.load("twin-grids", move_cap=4).new()
    for step in ("r:a2-r:b2", "b:f5-b:e5", "r:b2-r:a2", "b:e5-b:f5"):
        assert s.result is None
        s = s.play(step)
    assert s.result is not None and s.result.draw and "4 moves" in s.result.reason


# ------------------------------------------------------------------------------------ whole games
def conserved(state, gems):
    pos = state.position()
    for colour, grid in ((1, "r:"), (2, "b:")):
        mine = [p for p, pc in pos.items() if pc.owner == colour]
        assert all(p.startswith(grid) for p in mine), "a gem off its own grid"
        assert len(mine) + state.captures()[3 - colour] == gems, "gems appeared or vanished"


@pytest.mark.parametrize("gems", [11, 15])
@pytest.mark.parametrize("seed", range(3))
def test_random_games_play_to_an_end_keeping_every_invariant(gems, seed):
    rng = random.Random(seed)
    s = game(gems).new()
    steps = 0
    while s.result is None:
        legal = s.legal_steps()
        assert legal, "a running game has a move"
        conserved(s, gems)
        if steps % 7 == 0:
            for m in legal:
                assert s.why_illegal(m) is None and s.rules.parse(str(m)) is m
        step = rng.choice(legal)
        s = s.play(step)
        steps += 1
        assert s.to_move == (1 if steps % 2 == 0 else 2), "turns alternate"
    conserved(s, gems)
    assert s.phase == "over" and s.legal_steps() == ()
    r = s.result
    if r.draw:
        assert "without a capture" in r.reason
    else:
        loser = 3 - r.winner
        assert s.untrapped(loser) <= 1, "the loser had at most one untrapped gem"
