"""The stabiliser: lets a reading through only once the board has held still.

A reader reports many readings a second, and most of them are of a board in motion: a hand
over it, a piece half-way along a line, a reed switch bouncing as a magnet arrives. The referee
must judge only boards at rest, or a piece slid slowly past a point would be refereed as a move
to that point. So a reading passes only when

- the same board (as the reader sees it: confidence is ignored) has been read ``min_readings``
  times in a row, spanning at least ``window_s`` seconds, and
- no reading in that run was occluded (a hand in view, the board not found) or, when
  ``min_confidence`` is set, less sure than that anywhere.

Every reading is checked first (``engine.observation.check``; with ``spots``, that it names
every spot and no other): a malformed one (a NaN confidence, a piece that is not a ``Piece``)
raises ``ReadingError`` rather than being compared, because a NaN compares unequal to itself
and unlike anything would slip past the confidence filter. Settings are checked the same way: a
NaN window would let every board through at once.

A board is passed once, when it first settles; reading the same board again passes nothing, so
the referee is asked once per change (it still answers ``unchanged`` correctly if asked again).
Time is passed in by the caller (seconds on any monotonic base), never read here, so tests
run without sleeping:

    >>> from engine.observation import Observation
    >>> s = Stabiliser(window_s=0.25, min_readings=3)
    >>> board = Observation({}, "occupancy")
    >>> [s.feed(board, t) is not None for t in (0.0, 0.1, 0.2, 0.3, 0.4)]
    [False, False, False, True, False]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Real
from typing import Any

from engine.observation import SEES, Observation, check

# Defaults per kind of reader: (window in seconds, readings in a row).
# - colour: a camera at 10-30 frames a second. A hand leaving the picture and a piece still
#   rocking after it is put down both settle within a quarter of a second.
# - polarity / occupancy: a sensor grid scanned at 50 Hz or more; a reed or hall switch bounces
#   for a few milliseconds only, but a magnet dragged slowly across a point closes its switch
#   for longer, so the window stays long enough to wait out a slow slide past a point.
DEFAULTS: dict[str, tuple[float, int]] = {
    "colour": (0.25, 3),
    "polarity": (0.15, 5),
    "occupancy": (0.15, 5),
}


_SLACK = 1e-9  # seconds: float times such as 0.3 - 0.2 fall a hair short of 0.1
# Settings past these are typing mistakes, not choices: a board that must hold still for a
# minute, or be read ten thousand times, is never refereed.
MAX_WINDOW_S = 60.0
MAX_READINGS = 10_000


def _number(x: Any) -> bool:
    """A finite real number (not a bool, not NaN, not infinite)."""
    return isinstance(x, Real) and not isinstance(x, bool) and math.isfinite(x)


@dataclass
class _Run:
    """The readings in a row that showed the same board: the board, when it began, how many."""

    key: Any
    since: float
    count: int


class Stabiliser:
    """Debounce and hand filter between a reader and the referee (see the module notes)."""

    def __init__(self, window_s: float = 0.25, min_readings: int = 3, min_confidence: float = 0.0,
                 spots=None):
        if not _number(window_s) or not 0 <= window_s <= MAX_WINDOW_S:
            raise ValueError(f"window_s must be a number of seconds from 0 to {MAX_WINDOW_S:g}, not {window_s!r}")
        if not isinstance(min_readings, int) or isinstance(min_readings, bool) or not 1 <= min_readings <= MAX_READINGS:
            raise ValueError(f"min_readings must be a whole number from 1 to {MAX_READINGS}, not {min_readings!r}")
        if not _number(min_confidence) or not 0 <= min_confidence <= 1:
            raise ValueError(f"min_confidence must be a number from 0 to 1, not {min_confidence!r}")
        self.window_s = float(window_s)
        self.min_readings = int(min_readings)
        self.min_confidence = float(min_confidence)
        self.spots = None if spots is None else tuple(spots)  # every reading must name exactly these
        self._run: _Run | None = None
        self._passed: Any = None  # the key of the last board passed on
        self._t: float | None = None
        self.stable: Observation | None = None  # the last observation passed on
        self._checked: Observation | None = None  # the last reading found sound

    @classmethod
    def for_reader(cls, sees: str, **overrides: Any) -> "Stabiliser":
        """A stabiliser with the defaults for a reader that ``sees`` colour, polarity or occupancy."""
        if sees not in DEFAULTS:
            raise ValueError(f"unknown reader kind {sees!r}; one of {', '.join(SEES)}")
        window, readings = DEFAULTS[sees]
        return cls(**{"window_s": window, "min_readings": readings, **overrides})

    def feed(self, observation: Observation, t: float) -> Observation | None:
        """Take one reading made at time ``t``; return it if the board has just settled, else None.

        Raises ``ReadingError`` for a malformed reading (``engine.observation.check``), ValueError
        for a time that is not a finite number or goes backwards; neither changes the run."""
        if not _number(t):
            raise ValueError(f"the time {t!r} is not a finite number of seconds: pass a monotonic clock")
        if observation is not self._checked:  # a sensor reader hands back one object while nothing moves
            check(observation, self.spots)
            self._checked = observation
        if self._t is not None and t < self._t:
            raise ValueError(f"time went backwards ({t} after {self._t}): pass a monotonic clock")
        self._t = t
        if observation.occluded or (self.min_confidence and observation.min_confidence() < self.min_confidence):
            self._run = None  # a hand in view: whatever follows must settle again from scratch
            return None
        key = frozenset(observation.view().items())
        run = self._run
        if run is None or run.key != key:
            run = self._run = _Run(key, t, 1)
        else:
            run.count += 1
        if run.count >= self.min_readings and t - run.since >= self.window_s - _SLACK and key != self._passed:
            self._passed = key
            self.stable = observation
            return observation
        return None

    def reset(self) -> None:
        """Forget everything: the next board to settle is passed on even if it is the last one again.

        For when the referee has been replaced (a game resumed, a new game begun) and must be
        shown the board as it stands.
        """
        self._run = None
        self._passed = None
        self.stable = None
