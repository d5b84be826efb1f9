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


BOXED_IN = """
                          Bd4.s:2
                             |
    Oc3.n:2                  |
       |                     |
    Oc3.w:2   Oc3.e:1 -------+------- Od3.w:.
       |                     |
    Oc3.s:2               Bd3.n:.
"""


def test_a_ring_whose_only_way_out_passes_one_hostile_ring_still_has_a_move():
    # Side 1's single ring has two occupied neighbours of side 2 (pushing them runs into the
    # rest of side 2's rings) and one bridge out, past one hostile ring: side 1 is not stuck, so
    # it must move rather than pass (G-2).
    s = position(BOXED_IN)
    steps = s.legal_steps()
    assert "Oc3.e-Od3.w" in steps
    assert all(st.kind == MOVE for st in steps)
    assert s.to_move == 1 and s.result is None
