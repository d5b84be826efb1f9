"""Board families as data for the reader: where pieces stand, what they look like, how to sample.

The reader is one piece of code for every board. What differs between families is data:

* the *spots* where a piece can stand (board points; Brain Hanky adds a gem spot at the centre
  of every whole square) and which piece kinds may stand on each;
* the *sampling pattern* for each kind of spot, in board units: a small disc inside a chip or a
  gem, an annulus along the band of a hollow ring (its hole shows the board, so sampling there
  would see the point, not the piece);
* the *piece classes* to learn at calibration: (owner, kind) pairs with a name a person knows
  ("white man", "gold gem").

A new family (the two-grid gem game, Thinking In Circles, Brainmaster) adds a ``Family`` here
from its board data; only a piece that cannot be told by colour over a disc or an annulus would
need a classifier of its own.

Sizes are in board units and follow the printed boards (``vision.printable``): HTJB men are
0.34 units in radius on boards whose points are one unit apart; Brain Hanky rings have their
coloured band between radii 0.07 and 0.135 and gems are diamonds 0.12 from centre to tip,
around points 0.29 units from their square's centre.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine.observation import spots_of

# Colour words for owners, used in messages and the overlay ("player 2 (black) man").
HTJB_NAMES = {1: "white", 2: "black", 3: "red", 4: "blue"}
HANKY_NAMES = {1: {"ring": "white", "gem": "silver"}, 2: {"ring": "yellow", "gem": "gold"},
               3: {"ring": "green", "gem": "emerald"}, 4: {"ring": "red", "gem": "ruby"},
               5: {"ring": "black", "gem": "onyx"}, 6: {"ring": "magenta", "gem": "pink"}}


@dataclass(frozen=True)
class Pattern:
    """Sample offsets (board units) round a spot's centre, and the radius a piece covers."""

    offsets: np.ndarray  # (K, 2) float64
    piece_radius: float  # how far from the centre a piece on this spot reaches
    # The share of samples the empty look is compared over (the best-matching ones): below 1
    # where the empty spot's fine lines may land a pixel off and a piece is far from the empty
    # look anyway (HTJB men); 1 where the lines crossing the spot are what tells it from a
    # piece of nearly the board's colour (a white ring on the cream cloth).
    keep: float = 1.0

    @staticmethod
    def disc(radius: float, rings: int, piece_radius: float, per_ring: int = 6, keep: float = 1.0) -> "Pattern":
        pts = [(0.0, 0.0)]
        for i in range(1, rings + 1):
            r = radius * i / rings
            n = per_ring * i
            for k in range(n):
                a = 2 * math.pi * (k + 0.5 * (i % 2)) / n
                pts.append((r * math.cos(a), r * math.sin(a)))
        return Pattern(np.array(pts, np.float64), piece_radius, keep)

    @staticmethod
    def annulus(radii: tuple[float, ...], per_ring: int, piece_radius: float) -> "Pattern":
        pts = []
        for j, r in enumerate(radii):
            for k in range(per_ring):
                a = 2 * math.pi * (k + 0.5 * (j % 2)) / per_ring
                pts.append((r * math.cos(a), r * math.sin(a)))
        return Pattern(np.array(pts, np.float64), piece_radius)


@dataclass(frozen=True)
class PieceClass:
    owner: int
    kind: str
    name: str  # "white man", "gold gem"

    @property
    def key(self) -> tuple[int, str]:
        return (self.owner, self.kind)


@dataclass(frozen=True)
class Family:
    """Everything the reader needs to know about one game's board and pieces."""

    name: str  # "htjb" or "brain-hanky"
    spots: tuple[str, ...]
    xy: np.ndarray  # (N, 2) board coordinates of the spots
    spot_kind: tuple[str, ...]  # per spot: the piece kind that may stand there ("man", "ring", "gem")
    patterns: dict[str, Pattern]  # piece kind -> sampling pattern
    classes: tuple[PieceClass, ...]
    # Background probes: keep ``probe_clear`` x a piece's radius from every spot, sample on a
    # grid of ``probe_step``, and demand an even look within ``probe_check`` of the probe on the
    # empty board. Brain Hanky's webs leave only small islands of cloth, so its values are tight.
    probe_clear: float = 1.45
    probe_step: float = 0.2
    probe_check: float = 0.13
    smooth: float = 0.03  # blur before sampling (board units): about the width of a printed line
    # A probe whose change of light differs from its neighbours' by more than this (log units)
    # deviates; Brain Hanky's probes sit close to the webs' lines and vary more on their own.
    probe_threshold: float = 0.1

    def classes_for(self, kind: str) -> tuple[PieceClass, ...]:
        return tuple(c for c in self.classes if c.kind == kind)

    def class_name(self, owner: int, kind: str) -> str:
        for c in self.classes:
            if c.key == (owner, kind):
                return c.name
        return f"player {owner} {kind}"


HTJB_MAN = Pattern.disc(0.2, 2, 0.34, keep=0.7)
HANKY_RING = Pattern.annulus((0.085, 0.105, 0.125, 0.14), 12, 0.14)
HANKY_GEM = Pattern.disc(0.055, 2, 0.12, per_ring=5)


def family_for(game) -> Family:
    """The reader's view of ``game`` (an ``engine.Game``)."""
    spots = spots_of(game)
    hboard = getattr(game.rules, "hboard", None)
    board = game.board
    if hboard is not None:
        sides = 2 if game.players == 4 else game.players
        xy = [board.coords[s] if s in board.coords else hboard.squares[s].centre for s in spots]
        kinds = tuple("ring" if s in board.coords else "gem" for s in spots)
        classes = tuple(PieceClass(o, k, f"{HANKY_NAMES[o][k]} {k}") for o in range(1, sides + 1)
                        for k in ("ring", "gem"))
        if getattr(game.settings, "gems", 1) == 0 or game.name == "brain-hanky-gemless":
            classes = tuple(c for c in classes if c.kind == "ring")
        return Family("brain-hanky", spots, np.array(xy, np.float64), kinds,
                      {"ring": HANKY_RING, "gem": HANKY_GEM}, classes,
                      probe_clear=1.8, probe_step=0.05, probe_check=0.05, smooth=0.012,
                      probe_threshold=0.15)
    classes = tuple(PieceClass(o, "man", f"{HTJB_NAMES.get(o, f'player {o}')} man")
                    for o in range(1, game.players + 1))
    xy = np.array([board.coords[s] for s in spots], np.float64)
    return Family("htjb", spots, xy, ("man",) * len(spots), {"man": HTJB_MAN}, classes)
