"""The Thinking In Circles board (boards.md section 4): five circular tracks in a ring.

The rulebook shows its board only in a picture, so the project ships its own layout as data
(``BASE_TRACK`` and ``SHIFT``); a user who owns a different print builds the board with
``circles_board(track, shift)`` and everything else (rules, pictures, LEDs) follows.

- Five circles ``C1`` .. ``C5`` placed clockwise on a ring, C1 at the top; C5 is next to C1, so
  there are five adjacent triples (C1 C2 C3 ... C5 C1 C2).
- Each circle is a track of 14 spaces numbered 0..13 clockwise from its top. The spaces of
  circle 3 are the spots ``c3.0`` .. ``c3.13``; a token stands on exactly one space of its circle.
- Circle k shows the base track turned by ``SHIFT * (k - 1)``: its space s shows
  ``track[(s + SHIFT*(k-1)) % 14]``.
- Every token starts on its circle's first neutral space (the lowest s showing neutral).

Space symbols: ``N`` neutral, ``W`` white, ``B`` black, and the shapes ``C`` circle,
``T`` triangle, ``S`` square, ``P`` pentagon.

Units: a track's radius is 1; y points up (as everywhere in the engine).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from .graph import BoardError, BoardGraph

NEUTRAL, WHITE_SPACE, BLACK_SPACE = "N", "W", "B"
SHAPES = "CTSP"  # circle, triangle, square, pentagon
SHAPE_NAMES = {"C": "circle", "T": "triangle", "S": "square", "P": "pentagon"}
SYMBOL_NAMES = {**SHAPE_NAMES, NEUTRAL: "neutral", WHITE_SPACE: "white", BLACK_SPACE: "black"}

# boards.md section 4: spaces 0..13 of the base track.
BASE_TRACK = "NCWTSBPNTWCPBS"
SHIFT = 3  # circle k is the base track turned by SHIFT*(k-1) spaces
CIRCLES = 5
RING_RADIUS = 2.2  # from the board's centre to each circle's centre, in track radii


@dataclass(frozen=True)
class CirclesBoard:
    """The five tracks: the graph (every space, joined round each track) and what each space shows."""

    graph: BoardGraph
    track: str  # the base track's symbols, space 0 first
    shift: int
    size: int  # spaces per circle
    symbols: dict[str, str]  # spot -> its symbol
    starts: tuple[int, ...]  # each circle's first neutral space (a token's start)

    def spot(self, circle: int, space: int) -> str:
        """Circle ``circle`` (1-based), space ``space`` (0-based, taken modulo the track)."""
        return f"c{circle}.{space % self.size}"

    def symbol(self, circle: int, space: int) -> str:
        return self.track[(space + self.shift * (circle - 1)) % self.size]

    def circle_spots(self, circle: int) -> tuple[str, ...]:
        return tuple(self.spot(circle, s) for s in range(self.size))


def _check_track(track: str) -> None:
    bad = sorted(set(track) - set(SHAPES + NEUTRAL + WHITE_SPACE + BLACK_SPACE))
    if bad:
        raise BoardError(f"a track space shows one of N W B C T S P, not {bad[0]!r}")
    if NEUTRAL not in track:
        raise BoardError("a track needs a neutral space: the tokens start on one")
    if len(track) < 3:
        raise BoardError("a track has at least three spaces")


@lru_cache(maxsize=None)
def circles_board(track: str = BASE_TRACK, shift: int = SHIFT) -> CirclesBoard:
    """The board of five circles showing ``track`` turned by ``shift`` more spaces each circle."""
    _check_track(track)
    n = len(track)
    points: list[str] = []
    coords: dict[str, tuple[float, float]] = {}
    edges: list[tuple[str, str]] = []
    symbols: dict[str, str] = {}
    starts = []
    for k in range(1, CIRCLES + 1):
        a = math.pi / 2 - 2 * math.pi * (k - 1) / CIRCLES  # C1 at the top, then clockwise
        cx, cy = RING_RADIUS * math.cos(a), RING_RADIUS * math.sin(a)
        for s in range(n):
            name = f"c{k}.{s}"
            t = math.pi / 2 - 2 * math.pi * s / n  # space 0 at the top, then clockwise
            points.append(name)
            coords[name] = (round(cx + math.cos(t), 6), round(cy + math.sin(t), 6))
            symbols[name] = track[(s + shift * (k - 1)) % n]
            edges.append((name, f"c{k}.{(s + 1) % n}"))
        starts.append(next(s for s in range(n) if symbols[f"c{k}.{s}"] == NEUTRAL))
    name = "circles" if (track, shift) == (BASE_TRACK, SHIFT) else f"circles-{track}-{shift}"
    graph = BoardGraph(name=name, points=tuple(points), coords=coords, edges=tuple(edges), lines=(),
                       description=f"five circles of {n} spaces in a ring, each turned {shift} spaces on from the last",
                       style="circles")
    return CirclesBoard(graph, track, shift, n, symbols, tuple(starts))


def circles_for(graph: BoardGraph) -> CirclesBoard:
    """The ``CirclesBoard`` whose graph is ``graph`` (its track and shift read off its name, as
    ``circles_board`` names it): what a picture of the graph needs beyond it (each space's symbol).
    ValueError for another board."""
    if graph.name == "circles":
        geo = circles_board()
    else:
        parts = graph.name.split("-")
        try:
            if len(parts) != 3 or parts[0] != "circles":
                raise ValueError
            geo = circles_board(parts[1], int(parts[2]))
        except (ValueError, BoardError):
            raise ValueError(f"{graph.name} is not a Thinking In Circles board") from None
    if geo.graph.name != graph.name:
        raise ValueError(f"{graph.name} is not a Thinking In Circles board")
    return geo


__all__ = ["BASE_TRACK", "BLACK_SPACE", "CIRCLES", "CirclesBoard", "NEUTRAL", "SHAPES", "SHAPE_NAMES", "SHIFT",
           "SYMBOL_NAMES", "WHITE_SPACE", "circles_board", "circles_for"]
