"""Simulated readers: what a perfect camera or a reed-switch grid reports of a board.

The referee works the same with every reader; only what the reader can see differs. Until the
serial sensor board exists, these stand in for the real readers in tests, the benchmark and the
simulator:

- ``colour_reader(game)``: a camera that tells owner and kind (a white ring, a gold gem).
- ``occupancy_reader(game)``: a reed-switch grid under the board, which knows only whether
  something stands on a spot.
- ``SimReader(game, "polarity")``: a hall-sensor grid under magnets of two polarities.

A reader reads a *board*: an engine state, or a plain mapping ``{spot: Piece}`` for a physical
board that no state describes (a piece slid one point too far, a captured gem still on the
cloth). ``changed(board, {spot: piece or None})`` makes such boards. ``read(board, unread=...)``
reports some spots as unreadable (``Reading.unknown``), as a sensor grid does a cell that reports
a fault: never as empty. Given a board to watch (``SimReader(game, sees, board=...)``, or
``reader.board = ...`` later), ``read()`` reads that one: then the reader is an
``engine.reader.Reader`` like the camera and the sensor board, and a session can run on it. A
perfect reader is always well (``health()``).

    >>> import engine
    >>> game = engine.load("tapatan")
    >>> obs = occupancy_reader(game).read(game.new().play("d4"))
    >>> obs.sees, obs.points["d4"].piece
    ('occupancy', Piece(owner=0, kind='piece'))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Piece
from engine.observation import SEES, Observation, spots_of
from engine.reader import HEALTHY, ReaderHealth


def board_of(board: Any) -> Mapping[str, Piece]:
    """A state's position, or the mapping itself."""
    return board.position() if hasattr(board, "position") else board


def changed(board: Any, changes: Mapping[str, Piece | None]) -> dict[str, Piece]:
    """A copy of ``board`` (a state or a mapping) with ``changes`` made: a Piece puts, None lifts."""
    out = dict(board_of(board))
    for spot, piece in changes.items():
        if piece is None:
            out.pop(spot, None)
        else:
            out[spot] = piece
    return out


class SimReader:
    """A perfect reader of the spots of ``game`` that sees ``sees`` (colour, polarity, occupancy);
    ``board``: the board ``read()`` reads when it is given none (a state or a mapping)."""

    def __init__(self, game, sees: str = "colour", board: Any = None):
        if sees not in SEES:
            raise ValueError(f"unknown reader kind {sees!r}; one of {', '.join(SEES)}")
        self.game = game
        self.sees = sees
        self.spots = spots_of(game)
        self.board = board

    def read(self, board: Any = None, unread: Mapping[str, str] | None = None) -> Observation:
        """What this reader reports of ``board`` (a state or a ``{spot: Piece}`` mapping; default
        the board it watches); ``unread``: spots it cannot read, each with why
        (``Reading.unknown(note)``)."""
        if board is None:
            board = self.board
            if board is None:
                raise ValueError("this reader watches no board: give read() one, or set reader.board")
        if unread:
            bad = [s for s in unread if s not in self.spots]
            if bad:
                raise ValueError(f"{', '.join(map(str, bad))}: not a spot of {self.game.name}")
        return Observation.of_position(board_of(board), self.spots, self.sees, unread)

    def health(self) -> ReaderHealth:
        """A perfect reader is always well."""
        return HEALTHY

    def covered(self, reason: str = "a hand is over the board") -> Observation:
        """A reading with the board hidden, as a camera reports a hand in view."""
        return Observation.blocked(reason, self.sees)

    def __repr__(self) -> str:
        return f"SimReader({self.game.name!r}, {self.sees!r})"


def colour_reader(game) -> SimReader:
    """A camera: owner and kind on every spot."""
    return SimReader(game, "colour")


def occupancy_reader(game) -> SimReader:
    """A reed-switch grid: occupied or empty, nothing more."""
    return SimReader(game, "occupancy")
