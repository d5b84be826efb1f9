"""Brain Hanky crossings (ruling BH-4) through every door a move comes in by.

A ring may not step along a bridge whose crossing bridge, on the other web, has a ring hostile
to it at *both* ends; one hostile ring blocks nothing. ``why_illegal`` was tested for this, but
the move search (``legal_steps``, ``iter_steps``, ``random_step``) and the referee's
``matching_steps`` apply the rule in code of their own: with the rule there planted as "one
hostile ring blocks", the whole suite passed but for a random-games test. Here each door is
tested directly, on positions drawn as small pictures of the board round one crossing.

A picture names each point with what stands on it: ``Oc3.e:1`` a ring of side 1, ``Bd3.n:.``
an empty point (written so the picture shows it, and checked empty). Points not drawn are empty.
"""

from __future__ import annotations

import random
import re

import pytest

import engine
from engine.boards import brain_hanky_board
from engine.core import MOVE

PLAIN = brain_hanky_board(6, False)
FAR2 = {"Oa6": 1, "Of1": 2}  # gems far from the crossing, so no side is out (BH-8)
FAR3 = {"Oa6": 1, "Of1": 2, "Oa1": 3}
SPOT = re.compile(r"([OB][a-z]\d+\.[nesw]):([0-9.])")


def rings(picture: str) -> dict[str, int]:
    """{point: side} from a picture; every named point must be a point of the board."""
    out = {}
    for point, mark in SPOT.findall(picture):
        assert point in PLAIN.graph.neighbours, f"{point} is not a point of the plain board"
        if mark != ".":
            out[point] = int(mark)
    return out


def position(picture: str, players: int = 2, to_move: int = 1):
    game = engine.load("brain-hanky", players=players)
    return game.rules.setup(rings=rings(picture), gems=FAR3 if players == 3 else FAR2, to_move=to_move)


def ring_owners(state) -> dict[str, int]:
    return {p: pc.owner for p, pc in state.position().items() if pc.kind == "ring"}


def test_the_pictures_show_a_real_crossing():
    # The orange bridge Oc3.e-Od3.w crosses the blue bridge Bd3.n-Bd4.s at its midpoint, and
    # the string Oc3.s-Oc3.e runs along a side of the orange square Oc3.
    assert PLAIN.crossing[("Oc3.e", "Od3.w")] == (("Bd3.n", "Bd4.s"),)
    assert "Oc3.s" in PLAIN.graph.neighbours["Oc3.e"]
    assert "Od3.n" in PLAIN.graph.neighbours["Od3.w"]


# One hostile ring at either end of the crossing bridge: the bridge is open.
ONE_HOSTILE_NORTH = """
                    Bd4.s:2
                       |
        Oc3.e:1 -------+------- Od3.w:.
                       |
                    Bd3.n:.
"""
ONE_HOSTILE_SOUTH = """
                    Bd4.s:.
                       |
        Oc3.e:1 -------+------- Od3.w:.
                       |
                    Bd3.n:2
"""
ONE_HOSTILE_ONE_OWN = """
                    Bd4.s:2
                       |
        Oc3.e:1 -------+------- Od3.w:.
                       |
                    Bd3.n:1
"""
TWO_HOSTILE = """
                    Bd4.s:2
                       |
        Oc3.e:1 -------+------- Od3.w:.
                       |
                    Bd3.n:2
"""
OPEN = [ONE_HOSTILE_NORTH, ONE_HOSTILE_SOUTH, ONE_HOSTILE_ONE_OWN]


def after_move(state, step: str):
    nxt = state.play(step)
    return {p: pc for p, pc in nxt.position().items()}


@pytest.mark.parametrize("picture", OPEN, ids=["north", "south", "one-own"])
def test_one_hostile_ring_leaves_the_bridge_open_to_every_door(picture):
    s = position(picture)
    step = "Oc3.e-Od3.w"
    assert s.why_illegal(step) is None
    assert step in s.legal_steps(), "the move search must list a move one hostile ring does not block"
    assert step in set(s.iter_steps())
    seen = after_move(s, step)
    # the referee, shown the board after the move, finds the move (camera colours, and a sensor grid)
    assert s.matching_steps(seen) == [step]
    assert step in s.matching_steps(seen, colours=False)
    assert ring_owners(s.play(step))["Od3.w"] == 1


def test_two_hostile_rings_close_the_bridge_to_every_door():
    s = position(TWO_HOSTILE)
    step = "Oc3.e-Od3.w"
    assert "BH-4" in s.why_illegal(step)
    assert step not in s.legal_steps()
    assert step not in set(s.iter_steps())
    with pytest.raises(engine.IllegalStep):
        s.play(step)
    # the board as it would look had the ring crossed anyway: no legal step explains it
    moved = {p: engine.Piece(o, "ring") for p, o in rings(TWO_HOSTILE).items() if p != "Oc3.e"}
    moved["Od3.w"] = engine.Piece(1, "ring")
    assert s.matching_steps(moved) == []
    assert s.matching_steps(moved, colours=False) == []


def test_random_steps_find_the_open_bridge_and_never_the_closed_one():
    # With Oc3.e boxed in on its other sides (Oc3.n and Oc3.s hold side 1's rings, which then
    # only push along), every random step of that ring goes somewhere legal.
    open_s = position(ONE_HOSTILE_NORTH)
    closed = position(TWO_HOSTILE)
    rng = random.Random(7)
    open_seen = {open_s.random_step(rng) for _ in range(60)}
    closed_seen = {closed.random_step(rng) for _ in range(60)}
    assert "Oc3.e-Od3.w" in open_seen
    assert "Oc3.e-Od3.w" not in closed_seen
    assert all(closed.why_illegal(st) is None for st in closed_seen)


STRING_ONE_HOSTILE = """
                        Bd4.s:2
                           |
    Oc3.s:1 --- Oc3.e:1 ---+--- Od3.w:.
                           |
                        Bd3.n:.
"""
STRING_TWO_HOSTILE = """
                        Bd4.s:2
                           |
    Oc3.s:1 --- Oc3.e:1 ---+--- Od3.w:.
                           |
                        Bd3.n:2
"""


def test_a_string_crosses_past_one_hostile_ring_but_not_two():
    step = "Oc3.s-Oc3.e-Od3.w"
    s = position(STRING_ONE_HOSTILE)
    assert s.why_illegal(step) is None
    assert step in s.legal_steps()
    seen = after_move(s, step)
    assert s.matching_steps(seen) == [step]
    s = position(STRING_TWO_HOSTILE)
    assert "BH-4" in s.why_illegal(step)
    assert step not in s.legal_steps()


# A pushed ring is judged by its own side: the mover's ring at one end and a ring of the pushed
# ring's own side at the other is one hostile ring for it, so the push goes through.
PUSH_ONE_HOSTILE_TO_THE_PUSHED = """
                        Bd4.s:1
                           |
    Oc3.s:1 --- Oc3.e:2 ---+--- Od3.w:.
                           |
                        Bd3.n:2
"""
PUSH_TWO_HOSTILE_TO_THE_PUSHED = """
                        Bd4.s:1
                           |
    Oc3.s:1 --- Oc3.e:2 ---+--- Od3.w:.
                           |
                        Bd3.n:1
"""


def test_a_pushed_ring_is_blocked_only_by_rings_hostile_to_its_own_side():
    step = "Oc3.s-Oc3.e-Od3.w"
    s = position(PUSH_ONE_HOSTILE_TO_THE_PUSHED)
    assert s.why_illegal(step) is None
    assert step in s.legal_steps()
    seen = after_move(s, step)
    assert s.matching_steps(seen) == [step]
    t = s.play(step)
    assert ring_owners(t)["Od3.w"] == 2 and ring_owners(t)["Oc3.e"] == 1
    s = position(PUSH_TWO_HOSTILE_TO_THE_PUSHED)
    assert step not in s.legal_steps()
    assert "BH-4" in s.why_illegal(step)


BLUE_ONE_HOSTILE = """
                    Bd4.s:.
                       |
        Oc3.e:2 -------+------- Od3.w:.
                       |
                    Bd3.n:1
"""


def test_a_blue_ring_crosses_past_one_hostile_orange_ring():
    # the same rule from the other web
    s = position(BLUE_ONE_HOSTILE)
    step = "Bd3.n-Bd4.s"
    assert step in s.legal_steps()
    assert s.matching_steps(after_move(s, step)) == [step]


THREE_SIDES_ONE_HOSTILE = """
                    Bd4.s:3
                       |
        Oc3.e:1 -------+------- Od3.w:.
                       |
                    Bd3.n:1
"""


def test_three_players_one_hostile_ring_of_a_third_side_blocks_nothing():
    s = position(THREE_SIDES_ONE_HOSTILE, players=3)
    step = "Oc3.e-Od3.w"
    assert step in s.legal_steps()
    assert s.matching_steps(after_move(s, step)) == [step]


AMONG_HOSTILE = """
                 Oc3.n:2                 Bd4.s:2
                /       \\                  |
         Oc3.w:2         Oc3.e:1 ----------+---------- Od3.w:.
                \\       /                  |
                 Oc3.s:2                 Bd3.n:.
"""


def test_a_ring_among_hostile_rings_still_crosses_past_one_of_them():
    # Side 1's single ring stands among side 2's rings; its step over the bridge passes one
    # hostile ring and is one of its moves, beside the strings that push side 2's rings along.
    s = position(AMONG_HOSTILE)
    steps = s.legal_steps()
    assert "Oc3.e-Od3.w" in steps
    assert all(st.kind == MOVE for st in steps)
    assert s.to_move == 1 and s.result is None


# ---------------------------------------------------------------------------- a player boxed in
# Side 1 holds the whole square Oc3; each of its four bridges out crosses a blue bridge held at
# both ends by side 2. Along the square's sides every point is taken, so side 1 has no move at
# all, and must pass (G-2) even though each of its rings has an empty neighbour.
BOXED_SQUARE = """
                              Bc4.e:2 --+-- Bd4.w:2
                                        |
                                     Oc4.s:.
                                        |
                        Bc4.s:2      Oc3.n:1                   Bd4.s:2
                           |       /         \\                    |
        Ob3.e:. ---------- + -- Oc3.w:1     Oc3.e:1 ------------ + ---- Od3.w:.
                           |       \\         /                    |
                        Bc3.n:2      Oc3.s:1                   Bd3.n:2
                                        |
                                     Oc2.n:.
                                        |
                              Bc3.e:2 --+-- Bd3.w:2
"""


def test_a_side_whose_every_way_out_is_blocked_passes():
    rules = engine.load("brain-hanky").rules
    for a, b, cross in (("Oc3.e", "Od3.w", ("Bd3.n", "Bd4.s")), ("Oc3.n", "Oc4.s", ("Bc4.e", "Bd4.w")),
                        ("Oc3.w", "Ob3.e", ("Bc3.n", "Bc4.s")), ("Oc3.s", "Oc2.n", ("Bc3.e", "Bd3.w"))):
        assert PLAIN.crossing[(a, b)] == (cross,), "the picture must match the board"
    s = rules.setup(rings=rings(BOXED_SQUARE), gems=FAR2, to_move=1)
    assert s.to_move == 2, "side 1 cannot move, so its turn passes to side 2 (G-2)"
    assert s.result is None
    # Open one crossing (one hostile ring left there) and side 1 has a move again.
    opened = {p: o for p, o in rings(BOXED_SQUARE).items() if p != "Bd3.n"}
    s = rules.setup(rings=opened, gems=FAR2, to_move=1)
    assert s.to_move == 1 and "Oc3.e-Od3.w" in s.legal_steps()


def test_a_side_with_no_ring_passes_and_its_own_rings_never_box_it_in():
    rules = engine.load("brain-hanky").rules
    only_side_one = {p: o for p, o in rings(BOXED_SQUARE).items() if o == 1}
    only_side_one.update({"Bd3.n": 1, "Bd4.s": 1})  # side 1's own rings do not block it
    s = rules.setup(rings=only_side_one, gems=FAR2, to_move=2)
    assert s.to_move == 1, "side 2 has no ring, so side 1 moves"
    assert "Oc3.e-Od3.w" in s.legal_steps()


# ---------------------------------------------------------------------------- exact move lists
def shifted(owner: dict[str, int], path) -> frozenset:
    """The rings after a string move along ``path``: each ring moves one place on (BH-3)."""
    new = dict(owner)
    del new[path[0]]
    for a, b in zip(path, path[1:]):
        new[b] = owner[a]
    return frozenset(new.items())


def test_the_exact_moves_beside_a_closed_bridge():
    s = position(TWO_HOSTILE)
    assert sorted(s.legal_steps()) == ["Oc3.e-Oc3.n", "Oc3.e-Oc3.s"]
    s = position(ONE_HOSTILE_NORTH)
    assert sorted(s.legal_steps()) == ["Oc3.e-Oc3.n", "Oc3.e-Oc3.s", "Oc3.e-Od3.w"]


def test_every_listed_step_names_its_ends():
    s = position(STRING_ONE_HOSTILE)
    for st in s.legal_steps():
        assert st.kind == MOVE and st.src == st.path[0] and st.dst == st.path[-1]


def reference_results(state, side: int) -> set[frozenset]:
    """Every position one move of ``side`` can reach, by brute force over all simple paths,
    from the rulings alone and the board's tables (not the engine's search): a string runs
    from your ring through occupied points of one web to the first empty one (BH-3); no ring
    may step along a bridge whose crossing bridge has a ring hostile to it at both ends (BH-4)."""
    owner = ring_owners(state)
    nbrs = PLAIN.graph.neighbours
    out: set[frozenset] = set()

    def hostile_to(o, p):
        return p in owner and owner[p] != o

    def grow(path):
        last = path[-1]
        o = owner[last]
        for q in nbrs[last]:
            if q in path:
                continue
            if any(hostile_to(o, c) and hostile_to(o, d) for c, d in PLAIN.crossing.get((last, q), ())):
                continue
            if q in owner:
                grow(path + [q])
            else:
                out.add(shifted(owner, path + [q]))

    for p, o in owner.items():
        if o == side:
            grow([p])
    return out


def random_phase_two(seed: int, moves: int, gems: int = 4):
    rng = random.Random(seed)
    s = engine.load("brain-hanky", gems=gems).new()
    while s.phase == "placement":
        s = s.play(rng.choice(s.legal_steps()))
    for _ in range(moves):
        if s.result is not None:
            break
        s = s.play(s.random_step(rng))
    return s


# More gems, more clusters: with 8 gems strings run up to 19 points long.
@pytest.mark.parametrize("gems,seed", [(4, 0), (4, 1), (8, 0), (8, 1), (8, 2)])
def test_the_move_search_and_step_matching_agree_with_brute_force(gems, seed):
    s = random_phase_two(seed, 6 + 3 * seed, gems)
    assert s.result is None
    owner = ring_owners(s)
    steps = s.legal_steps()
    found = [shifted(owner, st.path) for st in steps]
    assert len(found) == len(set(found)), "one listed step per distinct result"
    assert set(found) == reference_results(s, s.side + 1)
    spots = s.rules.spots
    for st, result in zip(steps, found):
        assert s.why_illegal(st) is None
        # the whole board as a reader shows it (gem squares first, empty points as None):
        # the step matched must give the same rings
        after = dict(result)
        seen = {p: engine.Piece(1, "gem") for p in spots if p not in s.rules.index}
        seen.update({p: (engine.Piece(after[p], "ring") if p in after else None)
                     for p in spots if p in s.rules.index})
        match = s.matching_steps(seen)
        assert len(match) == 1 and shifted(owner, match[0].path) == result, st
        assert any(shifted(owner, m.path) == result for m in s.matching_steps(seen, colours=False, limit=50))


# ---------------------------------------------------------------------------- what refusals say
def test_refusals_name_the_right_point_and_the_right_rule():
    s = position("Oc3.e:1 Oc3.n:2 Bd4.s:2 Bd3.n:2")
    assert "there is no ring on Oc3.s" in s.why_illegal("Oc3.s-Oc3.e-Od3.w")
    assert "the ring on Oc3.n is not player 1's" in s.why_illegal("Oc3.n-Oc3.w")
    assert "Oc3.n is occupied" in s.why_illegal("Oc3.e-Oc3.n")
    assert s.why_illegal("Oc3.e-Oc3.n-Oc3.e-Oc3.s") == "a string move may not visit a point twice (BH-3)"
    assert "different webs" in s.why_illegal("Oc3.e-Bd3.n")
    assert "not joined by a line" in s.why_illegal("Oc3.e-Oc3.w")
    why = s.why_illegal("Oc3.e-Od3.w")
    assert "the ring on Oc3.e (the mover's)" in why and "Bd3.n and Bd4.s" in why and "BH-4" in why
    # the end of a longer path is the point named as occupied
    s2 = position("Oc3.s:1 Oc3.e:1 Oc3.n:2")
    assert s2.why_illegal("Oc3.s-Oc3.e-Oc3.n").startswith("Oc3.n is occupied")
    # a pushed ring of the other side, blocked by the mover's rings: named as side 2's
    s = position("Oc3.s:1 Oc3.e:2 Bd4.s:1 Bd3.n:1")
    assert "the ring on Oc3.e (side 2's)" in s.why_illegal("Oc3.s-Oc3.e-Od3.w")


def test_a_three_point_string_through_an_empty_middle_is_refused():
    s = position("Oc3.e:1")
    why = s.why_illegal("Oc3.e-Oc3.n-Oc3.w")
    assert "Oc3.n is empty" in why and "BH-3" in why


def test_a_search_past_its_budget_says_so():
    from engine.core import SearchCut

    s = random_phase_two(1, 9)
    st = s.legal_steps()[-1]
    seen = dict(shifted(ring_owners(s), st.path))
    with pytest.raises(SearchCut, match="^the search for matching moves ran past its budget$"):
        s.matching_steps({p: engine.Piece(o, "ring") for p, o in seen.items()}, colours=False, budget=1)


# ---------------------------------------------------------------------------- what the referee shows
def board_after(state, step) -> dict[str, engine.Piece]:
    return {p: pc for p, pc in state.play(step).position().items() if pc.kind == "ring"}


def test_matching_takes_owners_as_plain_numbers_too():
    # matching_steps reads point -> piece or point -> owner
    s = position(ONE_HOSTILE_NORTH)
    seen = {p: pc.owner for p, pc in board_after(s, "Oc3.e-Od3.w").items()}
    assert s.matching_steps(seen) == ["Oc3.e-Od3.w"]


def test_an_occupancy_readers_pieces_count_as_rings_whatever_their_owner_says():
    # an occupancy reader reports Piece(0, "piece"): occupied, owner unknown
    s = position(ONE_HOSTILE_NORTH)
    seen = {p: engine.Piece(0, "piece") for p in board_after(s, "Oc3.e-Od3.w")}
    assert s.matching_steps(seen, colours=False) == ["Oc3.e-Od3.w"]


def test_a_gem_reported_on_a_point_is_ignored_wherever_it_comes_in_the_reading():
    s = position(ONE_HOSTILE_NORTH)
    seen = {"Oc3.n": engine.Piece(2, "gem")}  # first in the reading, and on an empty point
    seen.update(board_after(s, "Oc3.e-Od3.w"))
    assert s.matching_steps(seen) == ["Oc3.e-Od3.w"]


def test_a_board_that_no_single_move_explains_matches_nothing():
    s = position(ONE_HOSTILE_NORTH)
    after = board_after(s, "Oc3.e-Od3.w")
    for spot in ("Oa3.n", "Of5.n"):  # a ring appeared as well (before or after the move's end in board order)
        extra = dict(after, **{spot: engine.Piece(1, "ring")})
        assert s.matching_steps(extra) == []
        assert s.matching_steps(extra, colours=False) == []
    # the opponent's ring moved (a legal move for side 2, not for side 1, who is to move)
    theirs = dict(rings(ONE_HOSTILE_NORTH))
    del theirs["Bd4.s"]
    theirs["Bd4.w"] = 2
    assert "Bd4.s" in PLAIN.graph.neighbours["Bd4.w"]
    assert s.matching_steps({p: engine.Piece(o, "ring") for p, o in theirs.items()}) == []


def test_placement_matching_finds_the_very_cluster_placed_and_nothing_else():
    s = engine.load("brain-hanky", gems=4).new()
    for square in ("Oc3", "Oe5", "Oa1"):
        seen = {p: pc for p, pc in s.play(square).position().items()}
        assert s.matching_steps(seen) == [square]
        occupancy = {p: engine.Piece(0, "piece") for p, pc in seen.items() if pc.kind == "ring"}
        assert s.matching_steps(occupancy, colours=False) == [square]
    # three of the four rings seen: not yet a cluster
    seen = {p: pc for p, pc in s.play("Oc3").position().items() if p != "Oc3.n"}
    assert s.matching_steps(seen) == []
    # a cluster placed while another ring vanished: not one step
    t = s.play("Oc3").play("Bd4")
    after = {p: pc for p, pc in t.play("Oe5").position().items() if p != "Oc3.n"}
    assert t.matching_steps(after) == []
    assert t.matching_steps({p: pc for p, pc in t.play("Oe5").position().items()}) == ["Oe5"]
