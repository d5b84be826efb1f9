"""The one protocol every board reader implements: the camera, a serial sensor grid, the simulators.

A reader turns the physical board into ``Observation``s, says what it can see, and says how it
is itself. The session reads any reader through this protocol and nothing else, so a simulated
table, a camera and a sensor board are interchangeable under it, and the screen shows a reader's
trouble without knowing which reader it is:

``sees``      what it can tell apart, one of ``engine.observation.SEES``: ``"colour"`` (owner and
              kind: the camera), ``"polarity"`` (owner only: a hall-sensor grid), ``"occupancy"``
              (a piece or not: a reed-switch grid)
``read()``    one ``Observation`` of the whole board, now. It never raises for trouble at the
              board (a camera lost, a board unplugged, a hand in view): that is an occluded
              Observation whose ``reason`` says why.
``health()``  a ``ReaderHealth``: all well, or one line for the players about the reader itself
              (the camera lost, the line to the sensor board too noisy, a board naming cells it
              does not have, the board unplugged, what was done about the camera's exposure)

Health is about the reader, not the board: a hand over the board is an occluded reading of a
healthy camera, a cell reporting a fault is an unread spot (``Reading.unknown``). A reader may
still be read while its health has a problem (a noisy line still delivers most reports).

It lives in ``engine`` beside ``Observation`` because every package with a reader (vision,
firmware_bridge, arbiter) may import the engine and nothing else of ours. The protocol is
``runtime_checkable``, so ``isinstance(x, Reader)`` checks that ``x`` has the three members
(not their types).

    >>> ReaderHealth().ok, str(ReaderHealth())
    (True, 'ok')
    >>> ReaderHealth.of(None, "camera lost; waiting to try again", "").problem
    'camera lost; waiting to try again'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from .observation import Observation

__all__ = ["HEALTHY", "Reader", "ReaderHealth"]


@dataclass(frozen=True)
class ReaderHealth:
    """How a reader is: ``problem`` None when all is well, else one line for the players saying
    what is wrong with the reader and, where there is something to do, what to do."""

    problem: str | None = None

    def __post_init__(self) -> None:
        if self.problem is not None and (not isinstance(self.problem, str) or not self.problem.strip()):
            raise ValueError(f"a reader's problem is a line of words, not {self.problem!r} (None when all is well)")

    @classmethod
    def of(cls, *problems: str | None) -> ReaderHealth:
        """The health of a reader with these problems (None or empty ones left out), joined in
        one line in the order given: the most pressing first."""
        said = [p for p in problems if p]
        return cls("; ".join(said)) if said else HEALTHY

    @property
    def ok(self) -> bool:
        return self.problem is None

    def __str__(self) -> str:
        return self.problem or "ok"


HEALTHY = ReaderHealth()


@runtime_checkable
class Reader(Protocol):
    """A board reader (see the module notes): ``sees``, ``read()`` and ``health()``."""

    sees: str

    def read(self) -> Observation:
        """The board as the reader finds it now; never raises for trouble at the board."""
        ...

    def health(self) -> ReaderHealth:
        """How the reader itself is, for the screen: ``HEALTHY`` or one line saying what is wrong."""
        ...
