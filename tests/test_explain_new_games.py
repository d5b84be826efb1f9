"""Explaining boards of the issue-12 games (engine.explain): what a reader sees after a step, and
which step that was, for captures left on the board, stacks, team play and Kunjing's chains.

These are the engine's half of board play: the referee asks ``rules.explainer(sees)``.
"""

import engine
from engine.observation import OCCUPIED
from helpers import play_all

# Kuruka Saba: player 1 stands in a1-a4-a7 and can jump a1 over b2, f2 and d1 back to a1.
CHAIN = ["a4", "b6", "f6", "f2", "a7", "g1", "a1", "xg1", "d6", "g7", "d1", "g4", "d7", "b4", "b2"]


def seen(state, sees, extra=None, without=()):
    """The board as a ``sees`` reader reports it: the position, plus ``extra`` pieces still standing."""
    ex = state.rules.explainer(sees)
    pos = dict(state.position())
    pos.update(extra or {})
    for spot in without:
        pos.pop(spot, None)
    return tuple(ex.value(pos.get(s)) for s in ex.spots)


def test_a_capturing_chain_is_explained_with_the_captured_men_still_to_lift():
    s = play_all("kuruka-saba", CHAIN)
    step = s.parse("a1*d4*g1*a1")
    after = s.play(step)
    captured = s.leftovers(step, after)
    assert sorted(captured) == ["b2", "d1", "f2"]
    ex = s.rules.explainer("colour")
    # right after the move the three men still stand
    found = ex.explain(s, seen(after, "colour", captured), {}, 1)
    assert [str(e.steps[0]) for e in found] == ["a1*d4*g1*a1"]
    assert found[0].lift == {p: (2, "man") for p in captured}
    # one lifted so far
    partly = {p: pc for p, pc in captured.items() if p != "d1"}
    found = ex.explain(s, seen(after, "colour", partly), {}, 1)
    assert [str(e.steps[0]) for e in found] == ["a1*d4*g1*a1"] and set(found[0].lift) == {"b2", "f2"}
    # all lifted
    found = ex.explain(s, seen(after, "colour"), {}, 1)
    assert [str(e.steps[0]) for e in found] == ["a1*d4*g1*a1"] and found[0].lift == {}


def test_a_kuruka_jump_seen_by_a_sensor_grid():
    s = play_all("kuruka-tano", ["d1", "g4", "g1", "b2", "d7", "d4", "b4", "d2", "f2", "a4"])
    after = s.play("b4*f4")
    ex = s.rules.explainer("occupancy")
    found = ex.explain(s, seen(after, "occupancy", {"d4": engine.Piece(2, "man")}), {}, 1)
    assert [str(e.steps[0]) for e in found] == ["b4*f4"] and found[0].lift == {"d4": OCCUPIED}


def test_a_stack_seen_by_the_camera_is_its_top_chip():
    s = play_all("stack", ["a1"])
    ex = s.rules.explainer("colour")
    after = s.play("a1")  # black on white
    found = ex.explain(s, seen(after, "colour"), {}, 1)
    assert [str(e.steps[0]) for e in found] == ["a1"]
    assert found[0].state.stack("a1") == (engine.Piece(1, "man"), engine.Piece(2, "man"))


def test_a_sensor_grid_cannot_see_a_chip_put_on_a_stack():
    s = play_all("stack", ["a1"])
    after = s.play("a1")
    ex = s.rules.explainer("occupancy")
    assert ex.key(after) == ex.key(s)  # the referee would see no change: Stack needs the camera


def test_team_play_a_partner_places_the_teams_colour():
    g = engine.load("six-mens-morris", teams=True)
    s = play_all(g, ["a1", "g7"])
    assert s.to_move == 3
    after = s.play("d1")
    found = g.rules.explainer("colour").explain(s, seen(after, "colour"), {}, 1)
    assert [str(e.steps[0]) for e in found] == ["d1"] and found[0].state.position()["d1"].owner == 1


def test_kunjing_chains_to_one_landing_read_as_one_move():
    s = play_all("kunjing", ["a4", "f2", "g4", "b4", "e4", "d7", "g1", "g7", "a1", "d6", "d3", "f4"])
    after = s.play("g1*e3*c3")
    found = s.rules.explainer("colour").explain(s, seen(after, "colour"), {}, 1)
    assert [str(e.steps[0]) for e in found] == ["g1*e3*c3"]
