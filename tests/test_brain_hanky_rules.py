"""Brain Hanky, ruling by ruling (shared/spec/rulings.md BH-1..BH-10, G-2, G-3).

Each test checks one rule, named for it, and cites the ruling it pins down. Phase II positions are
built by hand with ``rules.setup`` (sides are 1-based; with four players the sides are the two
teams). Points for those positions are found from the board's own geometry tables (bridges and
their crossings, octagons) so that no test depends on a guessed name being adjacent to another.
"""

from __future__ import annotations

import random

import pytest

import engine
from engine.boards import brain_hanky_board
from engine.core import CLUSTER, MOVE

PLAIN = brain_hanky_board(6, False)
PERIODIC = brain_hanky_board(6, True)

# Gems kept well away from the action so that no side is "out" by accident (BH-8).
FAR2 = {"Oa6": 1, "Of1": 2}
FAR3 = {"Oa6": 1, "Of1": 2, "Oa1": 3}


# ---------------------------------------------------------------------------- helpers
def hanky(**options):
    return engine.load("brain-hanky", **options)


def crossing_of(board, p, q):
    """The (single) bridge on the other web that the bridge p-q crosses."""
    (other,) = board.crossing[(p, q)]
    return other


def square_points(name, board=PLAIN):
    return board.squares[name].points


def rings_of(state):
    """{point: side} for every ring on the board."""
    return {p: pc.owner for p, pc in state.position().items() if pc.kind == "ring"}


def gems_of(state):
    return {p: pc.owner for p, pc in state.position().items() if pc.kind == "gem"}


def play_phase_one(state, rng=None):
    """Place clusters (first listed, or random) until Phase II begins."""
    while state.phase == "placement":
        steps = state.legal_steps()
        state = state.play(rng.choice(steps) if rng else steps[0])
    return state


def reason(state, text):
    why = state.why_illegal(text)
    assert why is not None, f"{text} should be refused"
    with pytest.raises(engine.IllegalStep):
        state.play(text)
    return why


# ============================================================================ BH-2: Phase I
def test_bh2_phase_one_turn_is_one_cluster_per_web_orange_first():
    # ruling BH-2: a turn places two clusters, one on each web
    s = hanky(gems=4).new()
    assert s.phase == "placement" and s.to_move == 1
    s = s.play("Oc3")
    assert s.to_move == 1, "the blue half of the turn is still to come"
    pos = s.position()
    assert pos["Oc3"] == engine.Piece(1, "gem")
    for p in square_points("Oc3").values():
        assert pos[p] == engine.Piece(1, "ring")
    assert all(step.kind == CLUSTER and step.startswith("B") for step in s.legal_steps())
    s = s.play("Bd4")
    assert s.to_move == 2


def test_bh2_phase_one_either_order_blue_first():
    # ruling BH-2: the two clusters of a turn go in either order
    s = hanky(gems=4).new().play("Bc3")
    assert s.to_move == 1
    assert all(step.startswith("O") for step in s.legal_steps())
    s = s.play("Oa1")
    assert s.to_move == 2
    assert gems_of(s) == {"Bc3": 1, "Oa1": 1}


def test_bh2_second_cluster_on_the_same_web_is_refused():
    # ruling BH-2: one cluster per web per turn
    s = hanky(gems=4).new().play("Oc3")
    why = reason(s, "Od4")
    assert "BH-2" in why
    s = hanky(gems=4).new().play("Bc3")
    assert "BH-2" in reason(s, "Be5")


def test_bh2_cluster_needs_an_empty_whole_square():
    # ruling BH-2: a gem on a whole empty square plus 4 rings on its 4 empty points
    s = hanky(gems=4).new().play("Oc3").play("Bc3")
    assert reason(s, "Oc3")  # occupied by player 1's cluster
    assert reason(s, "Bc3")
    assert "BH-1" in reason(s, "Ba1")  # a partial square on the plain board


def test_bh2_web_without_room_skips_that_half_of_the_turn():
    # ruling BH-2: if a web has no room for a cluster, that half of the turn is skipped.
    # On a 2x2 board the blue web has one whole square (Bb2); with gems=4 each player owes two
    # clusters per web, so once Bb2 is taken every turn is orange only.
    g = hanky(size=2, gems=4)
    assert g.rules.hboard.whole_squares["B"] == ("Bb2",)
    s = g.new().play("Bb2").play("Oa1")
    assert s.to_move == 2
    assert all(step.startswith("O") for step in s.legal_steps())
    s = s.play("Ob1")
    assert s.phase == "placement"
    assert s.to_move == 1, "player 2's blue half had no room and was skipped"
    s = s.play("Oa2")
    assert s.to_move == 2
    s = s.play("Ob2")
    # Nothing can be placed any more: Phase II, player 1 to move.
    assert s.phase == "movement" and s.to_move == 1 and s.moves_left == 2


def test_bh2_phase_one_ends_when_all_gems_are_placed_and_player_one_starts():
    # ruling BH-2: Phase I ends when every player has placed all gems; player 1 starts Phase II
    g = hanky(gems=4)
    s = g.new()
    order = []
    while s.phase == "placement":
        order.append(s.to_move)
        s = s.play(s.legal_steps()[0])
    assert order == [1, 1, 2, 2, 1, 1, 2, 2]
    assert s.phase == "movement"
    assert s.to_move == 1 and s.moves_left == 2
    gems = gems_of(s)
    rings = rings_of(s)
    for side in (1, 2):
        assert sum(1 for v in gems.values() if v == side) == 4
        assert sum(1 for v in rings.values() if v == side) == 16
    assert all(step.kind == MOVE for step in s.legal_steps())


def test_bh2_player_one_starts_phase_two_with_three_players():
    # ruling BH-2: player 1 starts Phase II even when player 3 placed the last cluster
    s = hanky(players=3, gems=2).new()
    order = []
    while s.phase == "placement":
        order.append(s.to_move)
        s = s.play(s.legal_steps()[0])
    assert order == [1, 1, 2, 2, 3, 3]
    assert s.phase == "movement" and s.to_move == 1 and s.moves_left == 2


@pytest.mark.parametrize("gems", [2, 6, 10])
def test_bh2_gems_option_gives_n_over_two_clusters_per_web(gems):
    # ruling BH-2: --gems N (even): N/2 clusters per web each
    s = play_phase_one(hanky(gems=gems).new())
    for side in (1, 2):
        per_web = {"O": 0, "B": 0}
        for sq, owner in gems_of(s).items():
            if owner == side:
                per_web[sq[0]] += 1
        assert per_web == {"O": gems // 2, "B": gems // 2}


def test_bh2_default_gems_fourteen_for_two_twelve_for_three():
    # ruling BH-2: default 14 gems for 2 players, 12 for 3
    assert hanky().settings.gems == 14
    assert hanky(players=3).settings.gems == 12
    s = play_phase_one(hanky(players=3).new())
    for side in (1, 2, 3):
        assert sum(1 for v in gems_of(s).values() if v == side) == 12
        assert sum(1 for v in rings_of(s).values() if v == side) == 48


@pytest.mark.parametrize("gems", [1, 3, 7])
def test_bh2_odd_gems_refused(gems):
    # ruling BH-2: the number of gems must be even
    with pytest.raises(engine.BadOption):
        hanky(gems=gems)


# ============================================================================ BH-3: moves
def test_bh3_simple_move_along_one_edge():
    # ruling BH-3: one ring moves along one edge of its web to an empty point
    s = hanky().rules.setup(rings={"Oc3.n": 1, "Od5.e": 2}, gems=FAR2)
    assert s.phase == "movement" and s.to_move == 1 and s.moves_left == 2
    assert "Oc3.n-Oc3.e" in s.legal_steps()
    t = s.play("Oc3.n-Oc3.e")
    assert rings_of(t) == {"Oc3.e": 1, "Od5.e": 2}
    assert t.to_move == 1 and t.moves_left == 1
    # A bridge is an edge too.
    assert s.why_illegal("Oc3.n-Oc4.s") is None
    # A point that is not next to it is not a simple move.
    assert reason(s, "Oc3.n-Oc3.s")


def test_bh3_string_move_of_mixed_colours_keeps_the_order():
    # ruling BH-3: every ring steps one place forward along the path; the rings keep their order
    path = ["Oc3.w", "Oc3.n", "Oc3.e", "Od3.w", "Od3.n", "Od4.s"]
    colours = [1, 2, 1, 2, 1]
    for a, b in zip(path, path[1:]):
        assert b in PLAIN.graph.neighbours[a]
    rings = dict(zip(path, colours))
    rings["Oe6.e"] = 2
    s = hanky().rules.setup(rings=rings, gems=FAR2)
    text = "-".join(path)
    assert s.why_illegal(text) is None
    t = s.play(text)
    after = rings_of(t)
    assert "Oc3.w" not in after, "the point that started the string is emptied"
    for point, colour in zip(path[1:], colours):
        assert after[point] == colour, f"{point} should hold side {colour}"
    assert after["Oe6.e"] == 2
    assert len(after) == len(rings)


def test_bh3_string_move_may_take_any_route_through_occupied_points():
    # ruling BH-3: play() accepts the player's actual path, even a longer one
    rings = {"Oc3.n": 1, "Oc3.e": 1, "Oc3.s": 2, "Oc3.w": 2, "Oe6.e": 2}
    s = hanky().rules.setup(rings=rings, gems=FAR2)
    t = s.play("Oc3.n-Oc3.e-Oc3.s-Oc3.w-Ob3.e")
    assert rings_of(t) == {"Oc3.e": 1, "Oc3.s": 1, "Oc3.w": 2, "Ob3.e": 2, "Oe6.e": 2}


def test_bh3_string_must_start_with_own_ring():
    # ruling BH-3: p0 holds a ring of the mover
    rings = {"Oc3.n": 2, "Oc3.e": 1, "Oa3.n": 1}
    s = hanky().rules.setup(rings=rings, gems=FAR2)
    why = reason(s, "Oc3.n-Oc3.e-Od3.w")
    assert "own ring" in why
    assert reason(s, "Oc3.n-Oc3.w")  # opponent's single ring
    assert reason(s, "Oc3.s-Oc3.e")  # no ring at all


def test_bh3_path_through_an_empty_point_is_refused():
    # ruling BH-3: a string runs through occupied points up to the first empty one
    rings = {"Oc3.n": 1, "Oc3.s": 2, "Oa3.n": 2}
    s = hanky().rules.setup(rings=rings, gems=FAR2)
    why = reason(s, "Oc3.n-Oc3.e-Oc3.s-Oc3.w")  # Oc3.e is empty
    assert "empty" in why and "BH-3" in why


def test_bh3_path_revisiting_a_point_is_refused():
    # ruling BH-3: the path is simple
    rings = {"Oc3.n": 1, "Oc3.e": 2, "Oc3.s": 1, "Oc3.w": 2, "Oa3.n": 2}
    s = hanky().rules.setup(rings=rings, gems=FAR2)
    why = reason(s, "Oc3.n-Oc3.e-Oc3.s-Oc3.w-Oc3.n-Oc4.s")
    assert "twice" in why and "BH-3" in why


def test_bh3_move_jumping_between_webs_is_refused():
    # ruling BH-3: a move runs along edges of one web
    rings = {"Oc3.n": 1, "Oa3.n": 2}
    s = hanky().rules.setup(rings=rings, gems=FAR2)
    why = reason(s, "Oc3.n-Bc3.n")
    assert "web" in why
    rings = {"Oc3.n": 1, "Oc3.e": 1, "Oa3.n": 2}
    s = hanky().rules.setup(rings=rings, gems=FAR2)
    assert "web" in reason(s, "Oc3.n-Oc3.e-Bd3.w")


def test_bh3_move_must_end_on_an_empty_point():
    # ruling BH-3: q is empty
    rings = {"Oc3.n": 1, "Oc3.e": 2, "Oa3.n": 2}
    s = hanky().rules.setup(rings=rings, gems=FAR2)
    assert reason(s, "Oc3.n-Oc3.e")


def test_bh3_legal_steps_include_string_moves():
    # ruling BH-3: a string move is listed among the legal steps (one per resulting position)
    rings = {"Oc3.n": 1, "Oc3.e": 2, "Oc3.w": 2, "Oc4.s": 2, "Oa3.n": 2}
    s = hanky().rules.setup(rings=rings, gems=FAR2)
    results = set()
    for step in s.legal_steps():
        assert step.path[0] == "Oc3.n"
        results.add(tuple(sorted(rings_of(s.play(step)).items())))
    # Pushing e on to Oc3.s or Od3.w, w on to Oc3.s or Ob3.e, Oc4.s on to Oc4.e or Oc4.w.
    assert len(results) == len(s.legal_steps()) == 6
    assert "Oc3.n-Oc3.e-Od3.w" in s.legal_steps()


# ============================================================================ BH-4: crossings
ORANGE_BRIDGE = ("Oc3.e", "Od3.w")
BLUE_CROSSED = crossing_of(PLAIN, *ORANGE_BRIDGE)  # ("Bd3.n", "Bd4.s")


def test_bh4_crossing_table_used_here():
    # ruling BH-1/BH-4: the orange bridge Oc3.e-Od3.w crosses one blue bridge at its midpoint
    a, b = BLUE_CROSSED
    assert {a, b} == {"Bd3.n", "Bd4.s"}
    assert b in PLAIN.graph.neighbours[a]


def test_bh4_simple_move_blocked_between_two_hostile_rings():
    # ruling BH-4: a ring may not step along a bridge whose crossing bridge has both ends hostile
    a, b = BLUE_CROSSED
    s = hanky().rules.setup(rings={"Oc3.e": 1, a: 2, b: 2}, gems=FAR2)
    why = reason(s, "Oc3.e-Od3.w")
    assert "BH-4" in why
    assert "Oc3.e-Od3.w" not in s.legal_steps()


def test_bh4_one_hostile_ring_does_not_block():
    # ruling BH-4: both ends of the crossing bridge must be hostile
    a, b = BLUE_CROSSED
    s = hanky().rules.setup(rings={"Oc3.e": 1, a: 2, b: 1}, gems=FAR2)
    assert s.why_illegal("Oc3.e-Od3.w") is None
    s = hanky().rules.setup(rings={"Oc3.e": 1, a: 2}, gems=FAR2)
    assert s.why_illegal("Oc3.e-Od3.w") is None


def test_bh4_blue_ring_blocked_by_orange_rings():
    # ruling BH-4: the rule is symmetric between the webs
    a, b = BLUE_CROSSED
    s = hanky().rules.setup(rings={a: 1, "Oc3.e": 2, "Od3.w": 2}, gems=FAR2)
    assert "BH-4" in reason(s, f"{a}-{b}")


def test_bh4_ring_inside_a_string_is_blocked():
    # ruling BH-4: applies to every ring stepping in a string move
    a, b = BLUE_CROSSED
    rings = {"Oc3.s": 1, "Oc3.e": 1, a: 2, b: 2}
    s = hanky().rules.setup(rings=rings, gems=FAR2)
    why = reason(s, "Oc3.s-Oc3.e-Od3.w")
    assert "BH-4" in why and "Oc3.e" in why
    # The same string without the blockers goes through.
    s = hanky().rules.setup(rings={"Oc3.s": 1, "Oc3.e": 1, a: 2}, gems=FAR2)
    assert s.why_illegal("Oc3.s-Oc3.e-Od3.w") is None


def test_bh4_any_ring_of_the_string_may_be_the_blocked_one():
    # ruling BH-4: the leading ring, a middle ring or the last ring of a string: each is checked
    a, b = BLUE_CROSSED
    assert "Od3.n" in PLAIN.graph.neighbours["Od3.w"]
    # the mover's own first ring crosses the bridge, pushing a ring on from Od3.w to Od3.n
    s = hanky().rules.setup(rings={"Oc3.e": 1, "Od3.w": 2, a: 2, b: 2}, gems=FAR2)
    assert "BH-4" in reason(s, "Oc3.e-Od3.w-Od3.n")
    # a middle ring crosses: Oc3.s -> Oc3.e (side), Oc3.e -> Od3.w (bridge), Od3.w -> Od3.n (side)
    s = hanky().rules.setup(rings={"Oc3.s": 1, "Oc3.e": 1, "Od3.w": 1, a: 2, b: 2}, gems=FAR2)
    assert "BH-4" in reason(s, "Oc3.s-Oc3.e-Od3.w-Od3.n")
    assert not any(step.path[-1] == "Od3.n" and "Oc3.e" in step.path for step in s.legal_steps())
    # with one blocker gone the same strings go through
    s = hanky().rules.setup(rings={"Oc3.s": 1, "Oc3.e": 1, "Od3.w": 1, a: 2}, gems=FAR2)
    assert s.why_illegal("Oc3.s-Oc3.e-Od3.w-Od3.n") is None


def test_bh4_ring_may_pass_between_two_of_its_own_rings():
    # ruling BH-4 (manual figure 3): a ring may cross between two of its own side's rings
    a, b = BLUE_CROSSED
    s = hanky().rules.setup(rings={"Oc3.e": 1, a: 1, b: 1, "Oa3.n": 2}, gems=FAR2)
    assert s.why_illegal("Oc3.e-Od3.w") is None
    t = s.play("Oc3.e-Od3.w")
    assert rings_of(t)["Od3.w"] == 1
    # and inside a string
    s = hanky().rules.setup(rings={"Oc3.s": 1, "Oc3.e": 1, a: 1, b: 1, "Oa3.n": 2}, gems=FAR2)
    assert s.why_illegal("Oc3.s-Oc3.e-Od3.w") is None


def test_bh4_cannot_push_opponent_ring_between_two_of_own_rings():
    # ruling BH-4: the pushed opponent ring is blocked by the mover's rings (hostile to it)
    a, b = BLUE_CROSSED
    rings = {"Oc3.s": 1, "Oc3.e": 2, a: 1, b: 1}
    s = hanky().rules.setup(rings=rings, gems=FAR2)
    why = reason(s, "Oc3.s-Oc3.e-Od3.w")
    assert "BH-4" in why
    assert "Oc3.s-Oc3.e-Od3.w" not in s.legal_steps()
    # The mover's own ring could cross there.
    rings = {"Oc3.s": 1, "Oc3.e": 1, a: 1, b: 1}
    s = hanky().rules.setup(rings=rings, gems=FAR2)
    assert s.why_illegal("Oc3.s-Oc3.e-Od3.w") is None


def test_bh4_mover_may_push_opponent_ring_between_two_opponent_rings():
    # ruling BH-4: the opponent's ring between two rings of its own side is not blocked,
    # even when the mover pushes it
    a, b = BLUE_CROSSED
    rings = {"Oc3.s": 1, "Oc3.e": 2, a: 2, b: 2}
    s = hanky().rules.setup(rings=rings, gems=FAR2)
    assert s.why_illegal("Oc3.s-Oc3.e-Od3.w") is None
    t = s.play("Oc3.s-Oc3.e-Od3.w")
    assert rings_of(t)["Od3.w"] == 2 and rings_of(t)["Oc3.e"] == 1


def test_bh4_partners_rings_do_not_block_with_four_players():
    # ruling BH-8/BH-4: partners' rings are not hostile to each other
    a, b = BLUE_CROSSED
    g = hanky(players=4)
    # Player 3 (team 1, with player 1) moves between two team-1 rings.
    s = g.rules.setup(rings={"Oc3.e": 1, a: 1, b: 1, "Oa3.n": 2}, gems=FAR2, to_move=3)
    assert s.to_move == 3 and s.side == 0
    assert s.why_illegal("Oc3.e-Od3.w") is None
    # Player 2 (team 2) is blocked by the same two team-1 rings.
    s = g.rules.setup(rings={"Oc3.e": 2, a: 1, b: 1, "Oa3.n": 1}, gems=FAR2, to_move=2)
    assert "BH-4" in reason(s, "Oc3.e-Od3.w")
    # Player 4 (team 2) likewise.
    s = g.rules.setup(rings={"Oc3.e": 2, a: 1, b: 1, "Oa3.n": 1}, gems=FAR2, to_move=4)
    assert "BH-4" in reason(s, "Oc3.e-Od3.w")


def test_bh4_three_players_every_other_side_is_hostile():
    # ruling BH-4: rings of two different opponents both count as hostile
    a, b = BLUE_CROSSED
    g = hanky(players=3)
    s = g.rules.setup(rings={"Oc3.e": 1, a: 2, b: 3}, gems=FAR3)
    assert "BH-4" in reason(s, "Oc3.e-Od3.w")


# ============================================================================ BH-5 / BH-6: gem capture, turns
def capture_position(extra=None, gems=None, **options):
    """Side 1 has rings on Bc3.e/.w/.s and Bc4.s; Bc4.s-Bc3.n completes the surround of
    side 2's gem on Bc3."""
    pts = square_points("Bc3")
    assert "Bc4.s" in PLAIN.graph.neighbours[pts["n"]]
    rings = {pts["e"]: 1, pts["w"]: 1, pts["s"]: 1, "Bc4.s": 1, "Oa3.n": 2, "Of4.n": 2}
    rings.update(extra or {})
    all_gems = {"Bc3": 2, **FAR2}
    all_gems.update(gems or {})
    return hanky(**options).rules.setup(rings=rings, gems=all_gems)


def test_bh5_surrounding_an_opponent_gem_captures_it():
    # ruling BH-5: the gem goes to the mover's pile; rings stay
    s = capture_position()
    before = rings_of(s)
    t = s.play("Bc4.s-Bc3.n")
    assert "Bc3" not in gems_of(t)
    assert t.piles_by_side() == {1: 1, 2: 0}
    after = rings_of(t)
    assert len(after) == len(before)
    for p in square_points("Bc3").values():
        assert after[p] == 1
    assert any("Bc3" in e for e in t.events)
    assert t.result is None  # side 2 still has its far gem


def test_bh5_own_gem_is_not_captured():
    # ruling BH-5: only an opponent's gem is taken
    s = capture_position(gems={"Bc3": 1})
    t = s.play("Bc4.s-Bc3.n")
    assert gems_of(t)["Bc3"] == 1
    assert t.piles_by_side() == {1: 0, 2: 0}


def test_bh5_three_rings_and_a_hostile_ring_do_not_capture():
    # ruling BH-5: all four points must hold the mover's rings
    pts = square_points("Bc3")
    s = hanky().rules.setup(rings={pts["e"]: 1, pts["w"]: 1, pts["s"]: 2, "Bc4.s": 1, "Oa3.n": 2},
                            gems={"Bc3": 2, **FAR2})
    t = s.play("Bc4.s-Bc3.n")
    assert gems_of(t)["Bc3"] == 2


def test_bh5_only_the_mover_captures():
    # ruling BH-5: side 2 pushes side 1's ring into the last point round side 2's own gem:
    # the surround is side 1's, but it is side 2's move, so nothing is captured yet...
    pts = square_points("Bc3")
    assert "Bc4.e" in PLAIN.graph.neighbours["Bc4.s"]
    rings = {pts["e"]: 1, pts["w"]: 1, pts["s"]: 1, "Bc4.s": 1, "Bc4.e": 2, "Oa3.n": 1, "Of4.n": 2}
    s = hanky().rules.setup(rings=rings, gems={"Bc3": 2, **FAR2}, to_move=2)
    assert s.to_move == 2
    t = s.play("Bc4.e-Bc4.s-Bc3.n")
    assert all(rings_of(t)[p] == 1 for p in pts.values())
    assert gems_of(t)["Bc3"] == 2, "an opponent's move does not capture for side 1"
    assert t.piles_by_side() == {1: 0, 2: 0}
    assert t.to_move == 2
    # ...side 2 finishes its turn far away; side 1's next move (anywhere) captures.
    t = t.play("Of4.n-Of4.e")
    assert t.to_move == 1
    assert gems_of(t)["Bc3"] == 2
    u = t.play("Oa3.n-Oa3.e")
    assert "Bc3" not in gems_of(u)
    assert u.piles_by_side() == {1: 1, 2: 0}


def test_bh6_capture_grants_one_extra_turn():
    # ruling BH-6: a turn in which a gem was captured is followed by one extra turn
    e = square_points("Bc3")["e"]
    t = capture_position().play("Bc4.s-Bc3.n")
    assert t.to_move == 1 and t.moves_left == 1, "the rest of the turn is played first"
    t = t.play(f"{e}-Bd3.w")
    assert t.to_move == 1 and t.moves_left == 2, "the extra turn: same player, fresh two moves"
    t = t.play(f"Bd3.w-{e}").play(f"{e}-Bd3.w")
    assert t.to_move == 2 and t.moves_left == 2, "only one extra turn"


def test_bh6_capture_on_the_last_move_of_a_turn():
    # ruling BH-6: the extra turn follows whichever move of the turn captured
    s = capture_position(extra={"Be5.n": 1})
    t = s.play("Be5.n-Be5.e")
    assert t.to_move == 1 and t.moves_left == 1
    t = t.play("Bc4.s-Bc3.n")
    assert t.piles_by_side()[1] == 1
    assert t.to_move == 1 and t.moves_left == 2


def test_bh6_two_captures_in_one_turn_earn_one_extra_turn():
    # ruling BH-6: "one extra turn" per capturing turn
    # Side 1 also nearly surrounds side 2's gem on Be5.
    pts = square_points("Be5")
    nb = [p for p in PLAIN.graph.neighbours[pts["n"]] if p not in pts.values()]
    (outside,) = nb
    extra = {pts["e"]: 1, pts["w"]: 1, pts["s"]: 1, outside: 1}
    s = capture_position(extra=extra, gems={"Be5": 2})
    t = s.play("Bc4.s-Bc3.n").play(f"{outside}-{pts['n']}")
    assert t.piles_by_side()[1] == 2
    assert t.to_move == 1 and t.moves_left == 2
    e = square_points("Bc3")["e"]
    t = t.play(f"{e}-Bd3.w").play(f"Bd3.w-{e}")
    assert t.to_move == 2


def test_bh6_extra_move_variant_adds_one_move_to_the_turn():
    # ruling BH-6 variant --extra-move: each capturing move adds one move to the current turn
    s = capture_position(extra_move=True)
    t = s.play("Bc4.s-Bc3.n")
    assert t.piles_by_side()[1] == 1
    assert t.to_move == 1 and t.moves_left == 2, "one move used, one move added"
    e = square_points("Bc3")["e"]
    t = t.play(f"{e}-Bd3.w")
    assert t.to_move == 1 and t.moves_left == 1
    t = t.play(f"Bd3.w-{e}")
    assert t.to_move == 2, "no whole extra turn in this variant"


def test_bh6_two_moves_per_turn_spread_over_the_webs_in_any_way():
    # ruling BH-6: k = 2 moves, any spread over the webs, the same ring may move twice
    rings = {"Oc3.n": 1, "Bc3.n": 1, "Of4.n": 2}
    g = hanky()
    s = g.rules.setup(rings=rings, gems=FAR2)
    # one on each web
    t = s.play("Oc3.n-Oc3.e").play("Bc3.n-Bc3.e")
    assert t.to_move == 2
    # both on the orange web, the same ring twice
    t = s.play("Oc3.n-Oc3.e").play("Oc3.e-Oc3.s")
    assert t.to_move == 2
    assert rings_of(t)["Oc3.s"] == 1


def test_bh6_player_must_make_all_k_moves():
    # ruling BH-6: a player must make all k moves while legal moves exist: no pass mid-turn
    s = hanky().rules.setup(rings={"Oc3.n": 1, "Of4.n": 2}, gems=FAR2)
    t = s.play("Oc3.n-Oc3.e")
    assert t.to_move == 1 and t.moves_left == 1
    steps = t.legal_steps()
    assert steps and all(st.kind == MOVE and rings_of(t)[st.path[0]] == 1 for st in steps)
    assert t.why_illegal("pass") is not None
    assert t.why_illegal("Of4.n-Of4.e") is not None  # not side 2's turn yet


def test_bh6_move_chooser_draws_k_from_the_list():
    # ruling BH-6: with the Move Chooser k is drawn per turn (here, from the given draws)
    g = hanky(move_chooser=True)
    s = g.rules.setup(rings={"Oc3.n": 1, "Of4.n": 2}, gems=FAR2, chooser=[3, 1, 2])
    assert s.to_move == 1 and s.moves_left == 3
    s = s.play("Oc3.n-Oc3.e").play("Oc3.e-Oc3.s")
    assert s.to_move == 1 and s.moves_left == 1
    s = s.play("Oc3.s-Oc3.w")
    assert s.to_move == 2 and s.moves_left == 1
    s = s.play("Of4.n-Of4.e")
    assert s.to_move == 1 and s.moves_left == 2
    assert s.chooser_draws() == [3, 1, 2]


def test_bh6_move_chooser_from_phase_one_and_with_an_rng():
    # ruling BH-6: k is drawn per Phase II turn (none in Phase I); an RNG draws 1..3
    g = hanky(move_chooser=True, gems=2)
    s = play_phase_one(g.new(chooser=[3, 1]))
    assert s.phase == "movement" and s.to_move == 1 and s.moves_left == 3
    assert s.chooser_draws() == [3]
    s = play_phase_one(g.new(chooser=random.Random(7)))
    for _ in range(40):
        if s.result is not None:
            break
        s = s.play(s.legal_steps()[0])
    draws = s.chooser_draws()
    assert len(draws) >= 5 and set(draws) <= {1, 2, 3}
    with pytest.raises(ValueError):
        g.new()  # the draws (or an RNG) must be given


def test_bh6_move_chooser_refuses_values_outside_one_to_three():
    # ruling BH-6: the chooser picks one, two or three moves
    g = hanky(move_chooser=True)
    with pytest.raises(ValueError):
        g.new(chooser=[2, 4])


# ============================================================================ BH-7: ring capture, scoring
def ring_capture_position(**options):
    """Side 1 holds seven points of the blue octagon round Oc3 and a ring next to the eighth;
    side 2 has two rings on Oc3's points and its gem in the middle."""
    (octagon,) = [o for o in PLAIN.octagons if o.encloses == "Oc3"]
    assert octagon.web == "B"
    last = "Bc3.n"
    assert last in octagon.points
    approach = "Bc3.w"
    assert approach in PLAIN.graph.neighbours[last] and approach not in octagon.points
    rings = {p: 1 for p in octagon.points if p != last}
    rings[approach] = 1
    inside = square_points("Oc3")
    rings[inside["n"]] = 2
    rings[inside["e"]] = 2
    rings["Of4.n"] = 2
    gems = {"Oc3": 2, **FAR2}
    s = hanky(**options).rules.setup(rings=rings, gems=gems)
    return s, f"{approach}-{last}", inside


def test_bh7_eight_rings_on_an_octagon_capture_the_rings_inside():
    # ruling BH-7: 8 rings of one player on an octagon capture the opponent rings on the enclosed
    # square of the other web; the gem there is untouched; no extra turn
    s, move, inside = ring_capture_position(ring_capture=True)
    t = s.play(move)
    after = rings_of(t)
    assert inside["n"] not in after and inside["e"] not in after
    assert gems_of(t)["Oc3"] == 2, "the gem in the middle is untouched"
    assert t.rings_captured_by_side() == {1: 2, 2: 0}
    assert t.piles_by_side() == {1: 0, 2: 0}
    assert t.to_move == 1 and t.moves_left == 1
    t = t.play("Bc3.n-Bc3.w")
    assert t.to_move == 2, "no extra turn for a ring capture"


def test_bh7_rings_are_safe_without_the_option():
    # ruling BH-7: ring capture is an alternate rule, off by default
    s, move, inside = ring_capture_position()
    t = s.play(move)
    after = rings_of(t)
    assert after[inside["n"]] == 2 and after[inside["e"]] == 2
    assert t.rings_captured_by_side() == {1: 0, 2: 0}


def test_bh7_seven_rings_do_not_capture():
    # ruling BH-7: all eight octagon points are needed
    s, move, inside = ring_capture_position(ring_capture=True)
    t = s.play("Bc3.w-Bc3.s")  # Bc3.s is not on the octagon: still seven of eight
    assert rings_of(t)[inside["n"]] == 2
    assert t.rings_captured_by_side()[1] == 0


def test_bh7_scores_are_rings_plus_five_per_gem():
    # ruling BH-7: scoring games: 1 point per ring, 5 per gem
    s, move, inside = ring_capture_position(ring_capture=True, scoring=True)
    t = s.play(move)
    assert t.scores() == {1: 2, 2: 0}
    # now a gem capture as well: side 1 surrounds side 2's gem on Be5
    pts = square_points("Be5")
    (outside,) = [p for p in PLAIN.graph.neighbours[pts["n"]] if p not in pts.values()]
    rings = {pts["e"]: 1, pts["w"]: 1, pts["s"]: 1, outside: 1, "Of4.n": 2, "Oa3.n": 2}
    g = hanky(ring_capture=True, scoring=True)
    u = g.rules.setup(rings=rings, gems={"Be5": 2, **FAR2}).play(f"{outside}-{pts['n']}")
    assert u.piles_by_side() == {1: 1, 2: 0}
    assert u.scores() == {1: 5, 2: 0}


# ============================================================================ BH-8: winning, players
def last_gem_position(players=2, piles=None, side2_gems=None):
    """Side 1 can surround the gem on Bc3 with Bc4.s-Bc3.n; the gem belongs to the last side."""
    pts = square_points("Bc3")
    last = 3 if players == 3 else 2
    rings = {pts["e"]: 1, pts["w"]: 1, pts["s"]: 1, "Bc4.s": 1, "Of4.n": 2, "Oa3.n": 1}
    gems = {"Bc3": last, "Oa6": 1}
    if players == 3:
        rings["Of2.n"] = 3
        gems.update(side2_gems or {"Of1": 2})
    return hanky(players=players).rules.setup(rings=rings, gems=gems, piles=piles)


def test_bh8_two_players_win_by_capturing_the_last_gem():
    # ruling BH-8: capture all opponent gems
    s = last_gem_position()
    assert s.result is None
    t = s.play("Bc4.s-Bc3.n")
    assert t.phase == "over"
    assert t.result.winner == 1 and not t.result.draw
    assert t.legal_steps() == ()


def test_bh8_three_players_bigger_pile_wins_when_one_is_out():
    # ruling BH-8: when one side is out, the two left compare captured gems
    s = last_gem_position(players=3, piles={1: 2, 2: 1})
    t = s.play("Bc4.s-Bc3.n")
    assert t.piles_by_side() == {1: 3, 2: 1, 3: 0}
    assert t.result is not None and t.result.winner == 1


def test_bh8_three_players_bigger_pile_of_the_other_side_wins():
    # ruling BH-8: the capture that puts side 3 out does not decide by itself
    s = last_gem_position(players=3, piles={1: 0, 2: 3})
    t = s.play("Bc4.s-Bc3.n")
    assert t.piles_by_side() == {1: 1, 2: 3, 3: 0}
    assert t.result is not None and t.result.winner == 2


def test_bh8_three_players_tie_plays_on_to_the_next_gem_capture():
    # ruling BH-8: a tie plays on until the next capture, whose maker wins
    # Side 1 also nearly surrounds side 2's gem on Be5 (side 2 keeps another gem on Of1).
    pts = square_points("Be5")
    (outside,) = [p for p in PLAIN.graph.neighbours[pts["n"]] if p not in pts.values()]
    s = last_gem_position(players=3, piles={1: 0, 2: 1}, side2_gems={"Of1": 2, "Be5": 2})
    rings = rings_of(s)
    rings.update({pts["e"]: 1, pts["w"]: 1, pts["s"]: 1, outside: 1})
    s = hanky(players=3).rules.setup(rings=rings, gems={k: v.owner for k, v in s.position().items()
                                                        if v.kind == "gem"}, piles={1: 0, 2: 1})
    t = s.play("Bc4.s-Bc3.n")
    assert t.piles_by_side() == {1: 1, 2: 1, 3: 0}
    assert t.result is None, "a tie: play on"
    assert t.to_move == 1
    t = t.play(f"{outside}-{pts['n']}")
    assert t.result is not None and t.result.winner == 1


def test_bh8_three_players_tie_broken_by_the_other_side():
    # ruling BH-8: after a tie, side 2's next gem capture wins for side 2
    pts = square_points("Be5")
    (outside,) = [p for p in PLAIN.graph.neighbours[pts["n"]] if p not in pts.values()]
    base = last_gem_position(players=3, piles={1: 0, 2: 1})
    rings = rings_of(base)
    rings.update({pts["e"]: 2, pts["w"]: 2, pts["s"]: 2, outside: 2})
    gems = {"Bc3": 3, "Oa6": 1, "Be5": 1, "Of1": 2}
    g = hanky(players=3)
    s = g.rules.setup(rings=rings, gems=gems, piles={1: 0, 2: 1})
    e = square_points("Bc3")["e"]
    t = s.play("Bc4.s-Bc3.n")  # puts side 3 out: 1 - 1
    assert t.result is None
    t = t.play(f"{e}-Bd3.w")  # rest of the capturing turn
    assert t.to_move == 1  # extra turn
    t = t.play(f"Bd3.w-{e}").play(f"{e}-Bd3.w")
    assert t.to_move == 2, "player 3 is out and skipped"
    t = t.play(f"{outside}-{pts['n']}")
    assert t.result is not None and t.result.winner == 2


def test_bh8_out_player_is_skipped():
    # ruling BH-8: a side with no gems left takes no more turns
    s = last_gem_position(players=3, piles={1: 0, 2: 1})
    t = s.play("Bc4.s-Bc3.n")  # tie 1 - 1, side 3 out
    assert t.result is None
    order = []
    for _ in range(12):
        order.append(t.to_move)
        t = t.play(t.legal_steps()[0])
        if t.result is not None:
            break
    assert 3 not in order


def test_bh8_four_players_alternate_teams():
    # ruling BH-8: four players in two teams, order A1 B1 A2 B2
    g = hanky(players=4, gems=4)
    s = g.new()
    seen = []
    while s.phase == "placement":
        if not seen or seen[-1] != (s.to_move, s.side):
            seen.append((s.to_move, s.side))
        s = s.play(s.legal_steps()[0])
    assert seen == [(1, 0), (2, 1), (3, 0), (4, 1)]
    # team stock: 4 gems per team, placed by both partners
    for side in (1, 2):
        assert sum(1 for v in gems_of(s).values() if v == side) == 4
    assert s.phase == "movement" and s.to_move == 1
    seen = []
    for _ in range(16):
        if not seen or seen[-1] != (s.to_move, s.side):
            seen.append((s.to_move, s.side))
        s = s.play(s.legal_steps()[0])
        assert s.result is None
    assert seen[:8] == [(1, 0), (2, 1), (3, 0), (4, 1)] * 2


def test_bh8_four_players_partner_may_move_team_rings():
    # ruling BH-8: partners share a colour (the team's rings)
    g = hanky(players=4)
    s = g.rules.setup(rings={"Oc3.n": 1, "Of4.n": 2}, gems=FAR2, to_move=3)
    assert s.why_illegal("Oc3.n-Oc3.e") is None
    s = g.rules.setup(rings={"Oc3.n": 1, "Of4.n": 2}, gems=FAR2, to_move=4)
    assert s.why_illegal("Oc3.n-Oc3.e") is not None


def test_bh8_four_players_team_wins():
    # ruling BH-8: the team capturing the other team's last gem wins
    pts = square_points("Bc3")
    rings = {pts["e"]: 1, pts["w"]: 1, pts["s"]: 1, "Bc4.s": 1, "Of4.n": 2}
    s = hanky(players=4).rules.setup(rings=rings, gems={"Bc3": 2, "Oa6": 1}, to_move=3)
    t = s.play("Bc4.s-Bc3.n")
    assert t.result is not None and t.result.winner == 1


# ============================================================================ BH-1: geometry, periodic board
def wrapping_bridge(board=PERIODIC, web="O"):
    c = board.graph.coords
    for p, q in board.bridges:
        if board.point_web[p] == web and (abs(c[p][0] - c[q][0]) > 2 or abs(c[p][1] - c[q][1]) > 2):
            return p, q
    raise AssertionError("no wrapping bridge")


def test_bh1_periodic_board_has_wrap_around_moves():
    # ruling BH-1: on the periodic board the edges wrap
    p, q = wrapping_bridge()
    s = hanky(periodic=True).rules.setup(rings={p: 1, "Oc3.n": 2}, gems=FAR2)
    assert f"{p}-{q}" in s.legal_steps()
    t = s.play(f"{p}-{q}")
    assert rings_of(t)[q] == 1
    # Not on the plain board.
    s = hanky().rules.setup(rings={p: 1, "Oc3.n": 2}, gems=FAR2)
    assert reason(s, f"{p}-{q}")


def test_bh1_wrap_around_string_and_crossing():
    # ruling BH-1/BH-4: strings run across the edge, and a wrapping bridge is blocked like any other
    p, q = wrapping_bridge()
    a, b = crossing_of(PERIODIC, p, q)
    (before,) = [x for x in PERIODIC.graph.neighbours[p] if x != q][:1]
    s = hanky(periodic=True).rules.setup(rings={before: 1, p: 2, "Oc3.n": 2}, gems=FAR2)
    t = s.play(f"{before}-{p}-{q}")
    assert rings_of(t)[q] == 2 and rings_of(t)[p] == 1
    s = hanky(periodic=True).rules.setup(rings={p: 1, a: 2, b: 2}, gems=FAR2)
    assert "BH-4" in reason(s, f"{p}-{q}")


def test_bh1_corner_cluster_on_the_periodic_blue_web():
    # ruling BH-1: the blue corner square Ba1 is whole on the periodic board (manual figure 8)
    assert PERIODIC.squares["Ba1"].whole
    assert not PLAIN.squares["Ba1"].whole
    s = hanky(periodic=True, gems=2).new()
    assert "Ba1" in s.legal_steps()
    t = s.play("Ba1")
    for p in PERIODIC.squares["Ba1"].points.values():
        assert rings_of(t)[p] == 1
    assert gems_of(t) == {"Ba1": 1}
    # Plain board: a partial square cannot hold a cluster.
    s = hanky(gems=2).new()
    assert "Ba1" not in s.legal_steps()
    assert reason(s, "Ba1")


def test_bh1_periodic_board_square_counts():
    # ruling BH-1: periodic board, both webs N x N whole squares
    g = hanky(periodic=True)
    assert len(g.rules.hboard.whole_squares["O"]) == 36
    assert len(g.rules.hboard.whole_squares["B"]) == 36
    g = hanky()
    assert len(g.rules.hboard.whole_squares["B"]) == 25


def test_bh1_five_or_six_players_need_the_expanded_board():
    # ruling BH-1 / manual: five or six players play on the expanded game space
    with pytest.raises(engine.BadOption):
        hanky(players=5)
    s = hanky(players=6, expanded=True, gems=2).new()
    assert s.phase == "placement" and s.to_move == 1
    s = play_phase_one(s)
    assert s.phase == "movement" and s.to_move == 1
    assert sorted(set(gems_of(s).values())) == [1, 2, 3, 4, 5, 6]


def test_bh1_expanded_board_is_twice_the_size_and_periodic():
    # ruling BH-1: --expanded is a 2N x 2N periodic board
    g = hanky(expanded=True)
    hb = g.rules.hboard
    assert hb.size == 12 and hb.periodic and hb.blue_periodic


# ============================================================================ BH-9: gemless
def test_bh9_gemless_places_48_rings_each_without_gems():
    # ruling BH-9: 48 rings each, periodic, two ring clusters per turn, no gems
    g = engine.load("brain-hanky-gemless")
    assert g.rules.hboard.periodic
    s = g.new()
    s = s.play("Oa1")
    assert gems_of(s) == {}
    assert sum(1 for v in rings_of(s).values() if v == 1) == 4
    s = play_phase_one(s)
    assert s.phase == "movement"
    assert gems_of(s) == {}
    caught = s.rings_captured_by_side()
    board = rings_of(s)
    for side, other in ((1, 2), (2, 1)):
        assert sum(1 for v in board.values() if v == side) + caught[other] == 48


def test_bh9_gemless_phase_one_capture_gives_no_extra_turn():
    # ruling BH-9: a capture in Phase I takes the rings but gives no extra turn.
    # Player 1's clusters on the four orange squares round Bc3 fill the orange octagon that
    # encloses player 2's blue cluster on Bc3.
    (octagon,) = [o for o in PERIODIC.octagons if o.encloses == "Bc3"]
    around = sorted({PERIODIC.point_square[p] for p in octagon.points})
    assert around == ["Ob2", "Ob3", "Oc2", "Oc3"]
    s = engine.load("brain-hanky-gemless").new()
    s = s.play("Ob2").play("Bf6")
    s = s.play("Bc3").play("Of6")
    s = s.play("Oc2").play("Bf4")
    s = s.play("Be6").play("Oe6")
    s = s.play("Oc3").play("Bf2")
    s = s.play("Be4").play("Oe4")
    assert all(rings_of(s)[p] == 2 for p in PERIODIC.squares["Bc3"].points.values())
    s = s.play("Bf5")  # blue half first this time
    assert s.to_move == 1
    t = s.play("Ob3")
    for p in PERIODIC.squares["Bc3"].points.values():
        assert p not in rings_of(t)
    assert t.rings_captured_by_side()[1] == 4
    assert t.phase == "placement"
    assert t.to_move == 2, "no extra turn for a Phase I capture"


def gemless_position(side2_rings, **options):
    """Side 1 is one move from filling the blue octagon round Oc3; side 2 has rings inside."""
    (octagon,) = [o for o in PERIODIC.octagons if o.encloses == "Oc3"]
    last, approach = "Bc3.n", "Bc3.w"
    assert last in octagon.points and approach in PERIODIC.graph.neighbours[last]
    rings = {p: 1 for p in octagon.points if p != last}
    rings[approach] = 1
    inside = PERIODIC.squares["Oc3"].points
    rings[inside["n"]] = 2
    rings[inside["e"]] = 2
    far = ["Of6.n", "Of6.e", "Of6.s", "Of6.w", "Oa5.n", "Oa5.e", "Oa5.s", "Oa5.w", "Of1.n", "Of1.e"]
    for p in far[: side2_rings - 2]:
        rings[p] = 2
    for p in ["Oa1.n", "Oa1.e", "Oa1.s"]:
        rings[p] = 1
    g = engine.load("brain-hanky-gemless", **options)
    return g.rules.setup(rings=rings), f"{approach}-{last}"


def test_bh9_gemless_win_when_opponent_has_fewer_than_eight_rings():
    # ruling BH-9: an opponent left with fewer than eight rings loses
    s, move = gemless_position(9)
    assert s.result is None
    t = s.play(move)
    assert t.rings_captured_by_side()[1] == 2
    assert sum(1 for v in rings_of(t).values() if v == 2) == 7
    assert t.result is not None and t.result.winner == 1


def test_bh9_gemless_eight_rings_left_play_on_and_capture_gives_an_extra_turn():
    # ruling BH-9: eight rings are still enough; a Phase II capture earns an extra turn
    s, move = gemless_position(10)
    t = s.play(move)
    assert sum(1 for v in rings_of(t).values() if v == 2) == 8
    assert t.result is None
    assert t.to_move == 1 and t.moves_left == 1
    t = t.play("Oa1.n-Oa1.w")
    assert t.to_move == 1 and t.moves_left == 2, "extra turn for a Phase II capture"


def test_bh9_gemless_players_two_or_three():
    # ruling BH-9: a game for 2 or 3 players
    engine.load("brain-hanky-gemless", players=3)
    with pytest.raises(engine.BadOption):
        engine.load("brain-hanky-gemless", players=4)


# ============================================================================ BH-10: battle lines
def test_bh10_battle_lines_starts_in_phase_two():
    # ruling BH-10: 56 rings and 14 gems each, periodic, fixed start, Phase II at once
    g = engine.load("brain-hanky-battle-lines")
    hb = g.rules.hboard
    assert hb.periodic and hb.blue_periodic
    s = g.new()
    assert s.phase == "movement" and s.to_move == 1 and s.moves_left == 2
    gems, rings = gems_of(s), rings_of(s)
    for side in (1, 2):
        mine = [sq for sq, v in gems.items() if v == side]
        assert len(mine) == 14
        assert sum(1 for sq in mine if sq[0] == "O") == 7
        assert sum(1 for sq in mine if sq[0] == "B") == 7
        assert sum(1 for v in rings.values() if v == side) == 56
        for sq in mine:  # every gem sits in its own cluster
            assert all(rings[p] == side for p in hb.squares[sq].points.values())


def test_bh10_battle_lines_sides_face_each_other():
    # ruling BH-10: side 1 near its edge, side 2 mirrored
    g = engine.load("brain-hanky-battle-lines")
    s = g.new()
    hb = g.rules.hboard
    n = hb.size
    centres = {side: sorted(
        (hb.squares[sq].centre[0] % n, hb.squares[sq].centre[1] % n)
        for sq, v in gems_of(s).items() if v == side) for side in (1, 2)}
    # side 1 in the lower half, side 2 in the upper half
    assert all(y < n / 2 for _, y in centres[1])
    assert all(y > n / 2 for _, y in centres[2])
    # side 2's squares are side 1's turned half a revolution round the centre (mod N)
    turned = sorted(((n - x) % n, (n - y) % n) for x, y in centres[1])
    assert turned == centres[2]


def test_bh10_orange_periodic_only():
    # ruling BH-10 variation: only the orange web wraps
    g = engine.load("brain-hanky-battle-lines", orange_periodic_only=True)
    hb = g.rules.hboard
    assert hb.periodic and not hb.blue_periodic
    p, q = wrapping_bridge(hb)
    assert hb.point_web[p] == "O"
    blue_c = hb.graph.coords
    for a, b in hb.bridges:
        if hb.point_web[a] == "B":
            assert abs(blue_c[a][0] - blue_c[b][0]) < 1.5 and abs(blue_c[a][1] - blue_c[b][1]) < 1.5
    s = g.new()
    assert s.phase == "movement"
    assert sum(1 for v in gems_of(s).values() if v == 1) == 14


def test_bh10_battle_lines_without_periodic_rules():
    # ruling BH-10 / G-1: the manual's variations include playing Battle Lines "without using
    # periodic rules"; every variant a rulebook names must be selectable (G-1)
    g = engine.load("brain-hanky-battle-lines", periodic=False)
    hb = g.rules.hboard
    assert not hb.periodic and not hb.blue_periodic
    s = g.new()
    assert s.phase == "movement" and s.to_move == 1
    for side in (1, 2):
        assert sum(1 for v in gems_of(s).values() if v == side) == 14
        assert sum(1 for v in rings_of(s).values() if v == side) == 56


def test_bh10_battle_lines_with_ring_capture_option():
    # ruling BH-10 variations: ring capture may be added
    g = engine.load("brain-hanky-battle-lines", ring_capture=True)
    assert g.settings.ring_capture and g.new().phase == "movement"


# ============================================================================ G-2 / G-3
def blocked_side_two():
    """A 2x2 board: the orange web is full (side 2 holds Oa1 and Ob1, side 1 Oa2 and Ob2), so
    side 2, with no ring on the blue web, cannot move; side 1 has a blue ring."""
    g = hanky(size=2)
    rings = {}
    for sq, side in (("Oa1", 2), ("Ob1", 2), ("Oa2", 1), ("Ob2", 1)):
        for p in g.rules.hboard.squares[sq].points.values():
            rings[p] = side
    rings["Bb2.n"] = 1
    return g, rings, {"Oa2": 1, "Oa1": 2}


def test_g2_player_with_no_move_passes():
    # ruling G-2: Brain Hanky does not make a blocked player lose; the turn passes
    g, rings, gems = blocked_side_two()
    s = g.rules.setup(rings=rings, gems=gems)
    t = s.play("Bb2.n-Bb2.e").play("Bb2.e-Bb2.n")
    assert t.result is None
    assert t.to_move == 1 and t.moves_left == 2, "player 2 cannot move and passes"
    s = g.rules.setup(rings=rings, gems=gems, to_move=2)
    assert s.result is None and s.to_move == 1


def test_g2_nobody_can_move_ends_the_game():
    # ruling G-2/G-3: when no player can move the game cannot go on (a draw, not a hang)
    g, rings, gems = blocked_side_two()
    del rings["Bb2.n"]
    s = g.rules.setup(rings=rings, gems=gems)
    assert s.result is not None and s.result.draw


def test_g3_move_cap_declares_a_draw():
    # ruling G-3: a move cap (moves without a capture) declares a draw
    g = hanky(move_cap=4)
    s = g.rules.setup(rings={"Oc3.n": 1, "Of4.n": 2}, gems=FAR2)
    s = s.play("Oc3.n-Oc3.e").play("Oc3.e-Oc3.s").play("Of4.n-Of4.e")
    assert s.result is None
    s = s.play("Of4.e-Of4.s")
    assert s.result is not None and s.result.draw and s.result.winner is None
    assert "G-3" in s.result.reason
    assert s.legal_steps() == ()


def test_g3_capture_resets_the_move_cap():
    # ruling G-3: the cap counts moves without a capture
    s = capture_position(move_cap=4, extra={"Be5.n": 1})
    s = s.play("Be5.n-Be5.e").play("Be5.e-Be5.n")
    s = s.play("Of4.n-Of4.e").play("Of4.e-Of4.n")  # 4 quiet moves would end it now...
    assert s.result is not None and s.result.draw
    s = capture_position(move_cap=4, extra={"Be5.n": 1})
    s = s.play("Be5.n-Be5.e").play("Bc4.s-Bc3.n")  # ...but a capture starts the count again
    s = s.play("Be5.e-Be5.n").play("Be5.n-Be5.e")
    assert s.result is None
    s = s.play("Of4.n-Of4.e")
    assert s.result is None


def test_g3_ring_capture_resets_the_move_cap():
    # ruling G-3: the cap counts moves without a capture; with --ring-capture (BH-7) taking
    # opponent rings is a capture too, so the count starts again after it
    s, move, inside = ring_capture_position(ring_capture=True, move_cap=4)
    t = s.play(move)  # captures two rings
    assert t.rings_captured_by_side()[1] == 2
    t = t.play("Bc3.n-Bc3.w")  # quiet move 1 after the capture
    t = t.play("Of4.n-Of4.e")  # quiet move 2
    t = t.play("Of4.e-Of4.n")  # quiet move 3
    assert t.result is None, "only three moves without a capture so far"
    t = t.play("Bc3.w-Bc3.n").play("Bc3.n-Bc3.w")  # quiet moves 4 and 5
    assert t.result is not None and t.result.draw


def test_g3_third_repetition_is_a_draw():
    # ruling G-3: the third repetition of a position with the same player to move draws
    g = hanky()
    s = g.rules.setup(rings={"Oc3.n": 1, "Of4.n": 2}, gems=FAR2)
    cycle = ["Oc3.n-Oc3.e", "Oc3.e-Oc3.n", "Of4.n-Of4.e", "Of4.e-Of4.n"]
    for step in cycle:
        s = s.play(step)
    assert s.result is None  # second occurrence
    for step in cycle[:-1]:
        s = s.play(step)
        assert s.result is None
    s = s.play(cycle[-1])
    assert s.result is not None and s.result.draw
    assert "G-3" in s.result.reason


# ============================================================================ matching observed boards
def test_matching_steps_pins_down_a_string_move():
    # ruling BH-3: the observed board after a string move matches exactly that move
    path = ["Oc3.w", "Oc3.n", "Oc3.e", "Od3.w", "Od3.n", "Od4.s"]
    rings = dict(zip(path, [1, 2, 1, 2, 1]))
    rings["Of6.n"] = 2
    s = hanky().rules.setup(rings=rings, gems=FAR2)
    after = s.play("-".join(path))
    found = s.matching_steps(after.position())
    assert len(found) == 1
    assert rings_of(s.play(found[0])) == rings_of(after)


def test_matching_steps_occupancy_only_may_be_ambiguous():
    # An occupancy-only reader cannot tell n-e-s from n-w-s when e and w differ in colour.
    rings = {"Oc3.n": 1, "Oc3.e": 2, "Oc3.w": 1, "Of6.n": 2}
    s = hanky().rules.setup(rings=rings, gems=FAR2)
    via_e = s.play("Oc3.n-Oc3.e-Oc3.s")
    via_w = s.play("Oc3.n-Oc3.w-Oc3.s")
    assert rings_of(via_e) != rings_of(via_w)
    assert {p for p in rings_of(via_e)} == {p for p in rings_of(via_w)}
    # With colours each is matched exactly.
    for after in (via_e, via_w):
        found = s.matching_steps(after.position())
        assert len(found) == 1
        assert rings_of(s.play(found[0])) == rings_of(after)
    occupancy = {p: True for p in rings_of(via_e)}
    found = s.matching_steps(occupancy, colours=False)
    results = {tuple(sorted(rings_of(s.play(st)).items())) for st in found}
    assert tuple(sorted(rings_of(via_e).items())) in results
    assert tuple(sorted(rings_of(via_w).items())) in results
    assert len(found) >= 2


def test_matching_steps_refuses_an_impossible_board():
    # A board with two rings gone cannot follow from one move.
    rings = {"Oc3.n": 1, "Oc3.e": 2, "Of6.n": 2}
    s = hanky().rules.setup(rings=rings, gems=FAR2)
    observed = {p: engine.Piece(v, "ring") for p, v in rings.items() if p not in ("Oc3.n", "Oc3.e")}
    assert s.matching_steps(observed) == []
    # Oc3.n empties and Oc3.s fills, but Oc3.e still shows side 2: the only path (n-e-s) would
    # have left side 1's ring on Oc3.e, so no step fits.
    observed = {"Oc3.e": engine.Piece(2, "ring"), "Oc3.s": engine.Piece(2, "ring"),
                "Of6.n": engine.Piece(2, "ring")}
    assert s.matching_steps(observed) == []


def test_matching_steps_phase_one_cluster():
    # ruling BH-2: a cluster seen on the board is matched to its placement
    s = hanky(gems=4).new()
    after = s.play("Od4")
    assert s.matching_steps(after.position()) == ["Od4"]


def test_occupancy_matching_can_stop_early_and_keeps_to_its_budget():
    """Without colours a packed board has many paths between two points: ``limit`` stops at the
    first few results and ``budget`` raises SearchCut instead of searching on (the referee's
    deadline); with neither, every result is still returned."""
    import random

    from engine.rules.brain_hanky import SearchCut

    game = engine.load("brain-hanky-battle-lines")
    state = game.new()
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        step = state.random_step(rng)
        after = state.play(step)
        seen = {p: pc for p, pc in after.position().items() if pc.kind == "ring"}
        full = state.matching_steps(seen, colours=False)
        assert step in full or any(after.position() == state.play(s).position() for s in full)
        if len(full) >= 2:
            assert len(state.matching_steps(seen, colours=False, limit=2)) == 2
            checked += 1
        with pytest.raises(SearchCut):
            state.matching_steps(seen, colours=False, budget=1)
        state = after if after.result is None else game.new()
    assert checked > 0
