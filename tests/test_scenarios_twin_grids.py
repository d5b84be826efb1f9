"""The two-grid gem game refereed at the simulated table (GG-1 to GG-3): hands slide gems, the
simulated camera is read by the real vision code (and a reed grid feels the gems), the referee
judges, the journal records.

Gems stand on grid points like men on an HTJB board, so the reader reads them as men on points
(``vision.families.men_on_points``: a disc sampled over each gem, one class per colour). The
scenarios start from a position reached by the moves of a whole game (``TWIN_GRIDS_11`` in
``test_complete_games``), so no frame is spent setting the board up.
"""

from __future__ import annotations

import pytest

import engine
from arbiter.journal import Journal, load_journal
from arbiter.session import FrameSink
from arbiter.sim.scenario import Player, Table
from hardware.layout import load_map, spots_for
from hardware.signals import IllegalChange
from test_complete_games import TWIN_GRIDS_11


def table(tmp_path, reader="camera", history=(), **options) -> Table:
    g = engine.load("twin-grids", **options)
    j = Journal.new(g.name, g.options, directory=tmp_path, reader="colour" if reader == "camera" else "occupancy")
    for step in history:
        j.append_step(step)
    return Table(g, reader, journal=j, pixels=FrameSink(load_map(None, spots_for(g)).count), history=history)


def kinds(log) -> list[str]:
    return [a.kind for a in log if a.kind not in ("start", "unchanged")]


def journalled(t: Table) -> list[str]:
    return load_journal(t.session.journal.path).steps


@pytest.mark.parametrize("reader", ["camera", "occupancy"])
def test_a_slide_through_a_blockade_is_refused_put_back_and_a_legal_slide_taken(reader, tmp_path):
    # Blue to move. b:d6 slides down its column: the step b:d4 -> b:d3, from (3.5, 3.5) to
    # (3.5, 2.5), crosses the red row y = 3 between r:d4 = (3, 3) and r:e4 = (4, 3), both red (GG-1).
    t = table(tmp_path, reader, TWIN_GRIDS_11[:9])
    log = t.run("move b:d6 b:d2")
    assert kinds(log) == ["illegal"]
    why = log[-1].verdict.reason
    assert "blockade" in why and "r:d4" in why and "r:e4" in why, why
    assert any(isinstance(e, IllegalChange) for a in log for e in a.events)
    log = t.run("move b:d2 b:d6")
    assert kinds(log) == ["restored"]
    log = t.run("move b:f1 b:c1")
    assert kinds(log) == ["step"] and t.session.history[-1] == "b:f1-b:c1"
    assert "Blue moved b:f1 to b:c1. Red to play." in log[-1].message
    assert journalled(t) == TWIN_GRIDS_11[:10]


def test_a_capture_waits_for_the_flanked_gem_to_be_lifted_and_a_wrong_gem_lifted_is_put_back(tmp_path):
    # Red's r:d3 steps down to r:d2 = (3, 1): b:c1 = (2.5, 0.5) lies between it and r:c1 = (2, 0)
    # on a diagonal, so it is captured (GG-2); the players lift it after the move.
    t = table(tmp_path, "camera", TWIN_GRIDS_11[:10])
    log = t.run("move r:d3 r:d2")
    assert kinds(log) == ["waiting-removal"] and t.session.history[-1] == "r:d3-r:d2"
    assert log[-1].verdict.to_remove == ("b:c1",)
    assert "captured b:c1" in log[-1].message
    log = t.run("take b:f6")  # a blue gem nobody captured
    assert kinds(log) == ["illegal"] and log[-1].verdict.points == ("b:f6",)
    log = t.run("put b:f6 blue")
    assert kinds(log) == ["restored"]
    t.run("take b:c1")
    assert t.session.last_verdict.to_remove == ()
    assert t.session.state.to_move == 2 and t.session.state.captures() == {1: 3, 2: 0}
    assert journalled(t) == TWIN_GRIDS_11[:11]


def test_a_gem_of_the_wrong_colour_is_seen_by_the_camera(tmp_path):
    t = table(tmp_path, "camera")
    log = t.run("move b:f5 b:c5")  # blue's gem: red moves first
    assert kinds(log) == ["illegal"] and log[-1].verdict.reason == "it is red's turn, not blue's"
    t.run("move b:c5 b:f5")
    log = t.run("move r:a3 r:d3")
    assert kinds(log) == ["step"] and journalled(t) == ["r:a3-r:d3"]


def test_a_whole_game_is_refereed_to_its_end_on_a_reed_grid(tmp_path):
    t = table(tmp_path, "occupancy")
    Player(t, TWIN_GRIDS_11).play()
    s = t.session
    assert s.over and s.result.winner == 1 and "only one untrapped gem" in s.result.reason
    assert journalled(t) == TWIN_GRIDS_11


def test_the_15_gem_board_a_blue_slide_stopped_by_a_red_blockade(tmp_path):
    # Red puts gems on r:b3 = (1, 2) and r:b4 = (1, 3); blue's step b:b3 -> b:a3, from (1.5, 2.5)
    # to (0.5, 2.5), crosses the red column x = 1 between them (GG-1).
    t = table(tmp_path, "camera", gems=15)
    assert len(t.session.state.position()) == 30
    log = t.run("move r:a3 r:b3; move b:a8 b:a7; move r:a4 r:b4")
    assert kinds(log) == ["step"] * 3
    log = t.run("move b:h3 b:a3")
    assert kinds(log) == ["illegal"]
    why = log[-1].verdict.reason
    assert "blockade" in why and "r:b3" in why and "r:b4" in why, why
    assert kinds(t.run("move b:a3 b:h3")) == ["restored"]
    log = t.run("move b:h3 b:b3")
    assert kinds(log) == ["step"] and journalled(t) == ["r:a3-r:b3", "b:a8-b:a7", "r:a4-r:b4", "b:h3-b:b3"]
