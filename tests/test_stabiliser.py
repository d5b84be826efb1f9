"""The stabiliser passes a board only once it has held still: readings in a row over a window,
no hand in view. Time is given, never read, so these tests run at once."""

from __future__ import annotations

import pytest

import engine
from arbiter.sim.readers import changed, colour_reader, occupancy_reader
from arbiter.stabiliser import DEFAULTS, Stabiliser
from engine.core import Piece
from engine.observation import Observation, Reading

GAME = engine.load("nine-mens-morris")
READER = colour_reader(GAME)
START = READER.read(GAME.new())
PLACED = READER.read(GAME.new().play("d2"))


def feed_all(stab, readings):
    """Feed (observation, t) pairs; the times at which something passed."""
    return [t for obs, t in readings if stab.feed(obs, t) is not None]


def test_a_board_passes_after_three_identical_readings_over_the_window():
    stab = Stabiliser(window_s=0.25, min_readings=3)
    passed = feed_all(stab, [(PLACED, 0.0), (PLACED, 0.1), (PLACED, 0.2), (PLACED, 0.3)])
    assert passed == [0.3], "three readings within 0.2 s are not enough; the fourth at 0.3 s is"
    assert stab.stable is PLACED


def test_enough_time_but_too_few_readings_does_not_pass():
    stab = Stabiliser(window_s=0.25, min_readings=3)
    assert feed_all(stab, [(PLACED, 0.0), (PLACED, 5.0)]) == []
    assert feed_all(stab, [(PLACED, 5.1)]) == [5.1]


def test_many_readings_inside_the_window_do_not_pass():
    stab = Stabiliser(window_s=0.25, min_readings=3)
    assert feed_all(stab, [(PLACED, i * 0.01) for i in range(25)]) == []


def test_a_different_reading_starts_the_count_again():
    # A piece slid slowly past a point shows there for a moment; it must not pass as a move there.
    stab = Stabiliser(window_s=0.25, min_readings=3)
    passing = READER.read(GAME.new().play("d3"))
    readings = [(passing, 0.0), (passing, 0.1), (passing, 0.2), (PLACED, 0.24), (PLACED, 0.3), (PLACED, 0.4)]
    assert feed_all(stab, readings) == []
    assert feed_all(stab, [(PLACED, 0.5)]) == [0.5]


def test_a_hand_over_the_board_resets_the_run():
    stab = Stabiliser(window_s=0.25, min_readings=3)
    hand = READER.covered()
    readings = [(PLACED, 0.0), (PLACED, 0.1), (hand, 0.2), (PLACED, 0.3), (PLACED, 0.4)]
    assert feed_all(stab, readings) == [], "the window restarts after the hand leaves"
    assert feed_all(stab, [(PLACED, 0.5), (PLACED, 0.6)]) == [0.6]


def test_a_settled_board_passes_once_and_again_only_after_a_change():
    stab = Stabiliser(window_s=0.1, min_readings=2)
    assert feed_all(stab, [(START, t / 10) for t in range(10)]) == [0.1]
    assert feed_all(stab, [(READER.covered(), 1.0)] + [(START, 1.1 + t / 10) for t in range(5)]) == [], \
        "the same board after a hand leaves is not passed again"
    assert feed_all(stab, [(PLACED, 2.0), (PLACED, 2.1)]) == [2.1]
    assert feed_all(stab, [(START, 3.0), (START, 3.1)]) == [3.1], "going back is a change too"


def test_confidence_is_ignored_when_comparing_readings():
    stab = Stabiliser(window_s=0.1, min_readings=2)
    unsure = Observation({s: Reading(r.piece, 0.7) for s, r in PLACED.points.items()}, "colour")
    assert feed_all(stab, [(PLACED, 0.0), (unsure, 0.1)]) == [0.1]


def test_readings_below_min_confidence_count_as_not_seen():
    stab = Stabiliser(window_s=0.1, min_readings=2, min_confidence=0.8)
    unsure = Observation({s: Reading(r.piece, 0.5) for s, r in PLACED.points.items()}, "colour")
    assert feed_all(stab, [(PLACED, 0.0), (unsure, 0.1), (PLACED, 0.2)]) == []
    assert feed_all(stab, [(PLACED, 0.3)]) == [0.3]


def test_defaults_per_reader():
    cam = Stabiliser.for_reader("colour")
    assert (cam.window_s, cam.min_readings) == DEFAULTS["colour"] == (0.25, 3)
    grid = Stabiliser.for_reader("occupancy", min_readings=4)
    assert grid.window_s == DEFAULTS["occupancy"][0] and grid.min_readings == 4
    with pytest.raises(ValueError):
        Stabiliser.for_reader("smell")


def test_occupancy_readings_compare_by_occupancy_only():
    reader = occupancy_reader(GAME)
    board = changed(GAME.new(), {"d2": Piece(1, "man")})
    stab = Stabiliser.for_reader("occupancy")
    times = [i * 0.05 for i in range(5)]
    assert feed_all(stab, [(reader.read(board), t) for t in times]) == [0.2]


def test_time_must_not_go_backwards():
    stab = Stabiliser()
    stab.feed(START, 1.0)
    with pytest.raises(ValueError, match="backwards"):
        stab.feed(START, 0.5)


def test_reset_passes_the_same_board_again():
    stab = Stabiliser(window_s=0.0, min_readings=1)
    assert stab.feed(START, 0.0) is START
    assert stab.feed(START, 0.1) is None
    stab.reset()
    assert stab.feed(START, 0.2) is START


def test_bad_settings_are_refused():
    with pytest.raises(ValueError):
        Stabiliser(window_s=-1)
    with pytest.raises(ValueError):
        Stabiliser(min_readings=0)
