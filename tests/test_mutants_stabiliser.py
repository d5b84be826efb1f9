"""The stabiliser's settings at their limits and its check of each reading against the board's
spots: the survivors of ``make mutation MUTATION_TARGETS=stabiliser`` on the merged code (the
refusals of malformed readings themselves are in tests/test_referee_door.py)."""

from __future__ import annotations

import pytest

import arbiter.stabiliser as stabiliser_module
import engine
from arbiter.sim.readers import colour_reader
from arbiter.stabiliser import MAX_READINGS, MAX_WINDOW_S, Stabiliser
from engine.observation import Observation, Reading, ReadingError

GAME = engine.load("nine-mens-morris")
START = colour_reader(GAME).read(GAME.new())
SPOTS = tuple(START.points)


def test_each_setting_accepts_its_upper_limit_and_refuses_just_past_it():
    # The limits are "from 0 to MAX" in the messages: both ends are allowed.
    assert Stabiliser(window_s=MAX_WINDOW_S).window_s == MAX_WINDOW_S
    assert Stabiliser(min_readings=MAX_READINGS).min_readings == MAX_READINGS
    assert Stabiliser(min_confidence=1).min_confidence == 1.0
    with pytest.raises(ValueError, match="window_s"):
        Stabiliser(window_s=MAX_WINDOW_S + 0.001)
    with pytest.raises(ValueError, match="min_readings"):
        Stabiliser(min_readings=MAX_READINGS + 1)
    with pytest.raises(ValueError, match="min_confidence"):
        Stabiliser(min_confidence=1.001)


def test_spots_are_kept_and_every_reading_must_name_exactly_them():
    stab = Stabiliser(window_s=0.0, min_readings=1, spots=iter(SPOTS))  # any iterable, kept as a tuple
    assert stab.spots == SPOTS
    short = Observation({s: r for s, r in START.points.items() if s != "d1"}, START.sees)
    with pytest.raises(ReadingError, match="has no d1"):
        stab.feed(short, 0.0)
    extra = Observation({**START.points, "z9": Reading(None)}, START.sees)
    with pytest.raises(ReadingError, match="'z9'"):
        stab.feed(extra, 0.1)
    assert stab.feed(START, 0.2) is START
    # without spots, the same readings are not checked against a board
    loose = Stabiliser(window_s=0.0, min_readings=1)
    assert loose.spots is None
    assert loose.feed(short, 0.0) is short


def test_one_reading_object_fed_again_is_checked_once(monkeypatch):
    # A sensor reader hands back the same object while nothing moves; checking it again at every
    # scan would cost the referee's time for nothing (a Brain Hanky board has 373 spots).
    seen = []
    real = stabiliser_module.check
    monkeypatch.setattr(stabiliser_module, "check", lambda obs, spots=None: seen.append(obs) or real(obs, spots))
    stab = Stabiliser(window_s=0.2, min_readings=3, spots=SPOTS)
    passed = [stab.feed(START, t) is not None for t in (0.0, 0.1, 0.2, 0.3)]
    assert passed == [False, False, True, False]
    assert seen == [START]
    other = colour_reader(GAME).read(GAME.new().play("d2"))
    stab.feed(other, 0.4)
    stab.feed(START, 0.5)
    assert seen == [START, other, START], "a different object is checked again"
