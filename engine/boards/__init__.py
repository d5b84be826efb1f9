"""Board geometry for every game family, as validated data (see ``graph.BoardGraph``).

HTJB boards are fixed graphs; Brain Hanky boards are generated from their size and wrap flags
(``brain_hanky.brain_hanky_board``) and registered here under their default names; the two-grid
gem game's two boards likewise from their size (``twin_grids.twin_grids_board``).
"""

from __future__ import annotations

from functools import lru_cache

from .brain_hanky import BrainHankyBoard, brain_hanky_board
from .brainmaster import BrainmasterBoard, brainmaster_board
from .circles import CirclesBoard, circles_board
from .graph import BoardError, BoardGraph
from .htjb import HOME_RANKS, build_all as _build_htjb
from .twin_grids import SIZES as _TWIN_SIZES, TwinGeometry, twin_grids_board

__all__ = ["BoardError", "BoardGraph", "BrainHankyBoard", "BrainmasterBoard", "CirclesBoard", "HOME_RANKS", "board",
           "board_names", "brain_hanky_board", "brain_hanky_for", "brainmaster_board", "circles_board",
           "TwinGeometry", "twin_grids_board"]

# Default Brain Hanky boards by name: plain, periodic, orange-only periodic, 4x expanded.
_BRAIN_HANKY = {
    "brain-hanky-6": (6, False, None),
    "brain-hanky-6-periodic": (6, True, None),
    "brain-hanky-6-orange-periodic": (6, True, False),
    "brain-hanky-12-periodic": (12, True, None),
}


@lru_cache(maxsize=None)
def _registry() -> dict[str, BoardGraph]:
    boards = dict(_build_htjb())
    for name, args in _BRAIN_HANKY.items():
        boards[name] = brain_hanky_board(*args).graph
    for rows in range(8, 13):  # Brainmaster's --rows 8..12, four holes a row
        graph = brainmaster_board(rows, 4).graph
        boards[graph.name] = graph
    circles = circles_board().graph  # Thinking In Circles' five tracks
    boards[circles.name] = circles
    for n in _TWIN_SIZES.values():  # the two-grid gem game: twin-grids-6 and twin-grids-8
        geometry = twin_grids_board(n)
        boards[geometry.graph.name] = geometry.graph
    return boards


def board(name: str) -> BoardGraph:
    """The board graph called ``name``; a clear error names the known ones otherwise."""
    boards = _registry()
    try:
        return boards[name]
    except KeyError:
        raise BoardError(f"unknown board {name!r}; known boards: {', '.join(sorted(boards))}") from None


def brain_hanky_for(name: str) -> BrainHankyBoard | None:
    """The Brain Hanky board behind a registered graph name (``brain-hanky-6``...), else None."""
    args = _BRAIN_HANKY.get(name)
    return brain_hanky_board(*args) if args is not None else None


def board_names() -> list[str]:
    return sorted(_registry())
